"""Games in the Django admin: house-rule sets edited through a form the engine's option
schemas generate, and games, moves and observers to look at, not to play.

Services are the only writers: a rule set is saved through games.rule_sets (a new
version each time, so games keep the rules they started with), and games, seats and
moves are read-only here (a hand-edited move would break the rule that the cached
state equals the log replayed). Private notes show only their length: only the author
reads them. RuleSetAdmin, GameAdmin and ObserverAdmin are registered by
moderation/admin.py, on subclasses that add club scoping, kicks and bans (games knows
nothing of clubs); the others register here.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from django import forms
from django.contrib import admin
from django.db import transaction
from django.db.models import QuerySet
from django.http import Http404, HttpRequest, HttpResponse
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils.html import format_html, format_html_join

from accounts.errors import ServiceError
from accounts.http import signed_in_user
from accounts.number_fields import hold_to

from . import ownership, rule_sets, time_controls
from .models import Game, Match, Move, PrivateNote, RuleSet, Seat
from .rules import SEAT_NAMES, RuleError, get_variant, variant_slugs
from .rules.describe import describe_options, preset, presets_for

if TYPE_CHECKING:
    from django.contrib.admin.options import _FieldOpts
    from django_stubs_ext import StrOrPromise

    #: get_fieldsets' value, in the exact type Django's stubs give it.
    Fieldsets = list[tuple[StrOrPromise | None, _FieldOpts]]

HTMX = ("vendor/htmx-2.0.11.min.js",)


class VariantListFilter(admin.SimpleListFilter):
    """A list's "By variant" filter in the variants' names ("Tic-tac-two"), as the site
    says them, not their codes ("tic-tac-two"); it lists the variants the list holds."""

    title = "variant"
    parameter_name = "variant"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, str]]:
        slugs = model_admin.get_queryset(request).order_by().values_list("variant", flat=True).distinct()
        return sorted(((slug, _variant_name(slug)) for slug in slugs), key=lambda choice: choice[1])

    def queryset(self, request: HttpRequest, queryset: QuerySet[Any]) -> QuerySet[Any]:
        return queryset.filter(variant=self.value()) if self.value() else queryset


class VariantNameColumn:
    """A list's "Variant" column in the variant's name, as its filter says it."""

    @admin.display(description="variant", ordering="variant")
    def variant_name(self, obj: Any) -> str:
        return _variant_name(obj.variant)


def _variant_name(slug: str) -> str:
    try:
        return get_variant(slug).display_name
    except RuleError:  # a variant no longer installed: its code
        return slug
DEFAULT_VARIANT = "classic"
#: Form fields of a rule set besides its variant's options.
RULE_FIELDS = ("name", "variant", "decider")
PLAY_FIELDS = ("match_format", "match_games", "next_first", "seconds_per_move", "seconds_per_game",
               "no_show_seconds")


class ReadOnlyMixin:
    """View only: no add, change or delete from the admin."""

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


# -- the options form, generated from a variant's options schema ------------------------


class EngineChoiceField(forms.ChoiceField):
    """A select whose value the engine judges, so a refusal reads in the rules' words."""

    def valid_value(self, value: Any) -> bool:
        return True


def _is_letter_enum(spec: Mapping[str, Any]) -> bool:
    values = spec.get("enum") or []
    return spec.get("type") == "string" and bool(values) and all(isinstance(v, str) and len(v) == 1 for v in values)


def _letter_field(label: str, help_text: str, allowed: list[str]) -> forms.CharField:
    # Letters are typed, not picked: the FAQ's question is precisely whether another
    # letter may be used, and the engine answers it in its own words.
    return forms.CharField(
        label=label,
        help_text=help_text or f"One of {', '.join(allowed)}.",
        max_length=8,
        widget=forms.TextInput(attrs={"size": 3, "autocomplete": "off", "class": "rule-letter"}),
    )


def option_fields(variant: str) -> dict[str, forms.Field]:
    """Form fields for each option of ``variant``'s schema, named ``opt_<option>``
    (``opt_<option>_<i>`` for each item of a fixed-length list)."""
    schema = get_variant(variant).options_schema
    fields: dict[str, forms.Field] = {}
    for key, spec in schema.get("properties", {}).items():
        label = spec.get("title", key.replace("_", " ").capitalize())
        help_text = spec.get("description", "")
        kind = spec.get("type")
        if kind == "boolean":
            fields[f"opt_{key}"] = forms.BooleanField(label=label, help_text=help_text, required=False)
        elif kind == "integer":
            fields[f"opt_{key}"] = forms.IntegerField(label=label, help_text=help_text)
        elif _is_letter_enum(spec):
            fields[f"opt_{key}"] = _letter_field(label, help_text, spec["enum"])
        elif kind == "string" and spec.get("enum"):
            fields[f"opt_{key}"] = EngineChoiceField(
                label=label, help_text=help_text, choices=[(v, v) for v in spec["enum"]]
            )
        elif kind == "array" and spec.get("minItems") == spec.get("maxItems") and _is_letter_enum(spec.get("items", {})):
            count = spec["maxItems"]
            for i in range(count):
                who = SEAT_NAMES[i] if count == 2 else f"#{i + 1}"
                fields[f"opt_{key}_{i}"] = _letter_field(
                    f"{label}: {who}", help_text if i == 0 else "", spec["items"]["enum"]
                )
        else:
            raise TypeError(f"{variant}: the admin has no form field for option {key!r} ({kind}).")
    return fields


def options_from_form(variant: str, data: Mapping[str, Any]) -> dict[str, Any]:
    """The options dict from cleaned form data (the inverse of ``form_initial``)."""
    options: dict[str, Any] = {}
    for key, spec in get_variant(variant).options_schema.get("properties", {}).items():
        if spec.get("type") == "array":
            options[key] = [(data.get(f"opt_{key}_{i}") or "").strip() for i in range(spec["maxItems"])]
        else:
            value = data.get(f"opt_{key}")
            options[key] = value.strip() if isinstance(value, str) else value
    return options


def form_initial(variant: str, options: Mapping[str, Any]) -> dict[str, Any]:
    rules = get_variant(variant)
    merged = {**rules.default_options(), **options}
    initial: dict[str, Any] = {}
    for key, spec in rules.options_schema.get("properties", {}).items():
        if spec.get("type") == "array":
            for i, item in enumerate(merged.get(key) or []):
                initial[f"opt_{key}_{i}"] = item
        else:
            initial[f"opt_{key}"] = merged.get(key)
    return initial


class _DryRun(Exception):
    """Raised inside a savepoint to undo a trial save."""


def refusal_on_form(form: forms.BaseForm, trial: Callable[[], Any], fields: Mapping[str, str] | None = None) -> None:
    """Run a service's save as a trial, in a savepoint always undone, and put its refusal
    (a ServiceError) on the form: the admin then shows the form again with the message,
    never a success for what the service refused. Messages sent after commit are dropped
    with the savepoint. ``fields`` (a refusal's code -> form field) puts a refusal beside
    the field it is about; any other goes at the top of the form."""
    try:
        with transaction.atomic():
            trial()
            raise _DryRun
    except _DryRun:
        pass
    except ServiceError as err:
        form.add_error((fields or {}).get(err.code), err.message)


class RuleSetForm(forms.ModelForm):
    """A rule set: the model's fields, and one field per option of its variant."""

    variant_slug: str = DEFAULT_VARIANT

    class Meta:
        model = RuleSet
        fields = (*RULE_FIELDS, *PLAY_FIELDS)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for name, bounds in rule_sets.NUMBER_FIELDS.items():
            if name in self.fields:  # not on a page the user may only view
                hold_to(self.fields[name], *bounds)
        self.fields["variant"] = forms.ChoiceField(
            choices=[(slug, slug) for slug in variant_slugs()],
            initial=self.variant_slug,
            help_text="Choosing another rule set shows its house rules.",
            # The options are the variant's own: choosing another reloads the form.
            # (static/js/admin-reload.js: no inline handler, for the CSP)
            widget=forms.Select(attrs={"data-reload-param": "variant"}),
        )
        if self.instance.pk is not None:
            self.fields["variant"].disabled = True
            self.fields["variant"].help_text = "A rule set keeps its variant; add a new set for another one."
            for name, value in form_initial(self.variant_slug, self.instance.options).items():
                self.initial.setdefault(name, value)
        else:
            # The preview of a set not yet saved shows what the form starts from
            # (clean() replaces it with what was submitted).
            self.instance.variant = self.variant_slug
            self.instance.options = options_from_form(self.variant_slug, self.initial)

    def options(self) -> dict[str, Any]:
        return options_from_form(self.variant_slug, self.cleaned_data)

    def service_fields(self) -> dict[str, Any]:
        """What games.rule_sets.create_rule_set / revise_rule_set take."""
        data = {name: self.cleaned_data.get(name) for name in (*RULE_FIELDS, *PLAY_FIELDS)}
        data["variant"] = self.variant_slug
        data["options"] = self.options()
        return data

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        options = self.options()
        if self.instance.pk is None:
            # The preview in words follows the submitted form, a form refused for another
            # field too (a clock of -3): else it read the empty letters of no form at all.
            self.instance.options = options
        if self.errors:
            return data
        try:
            rule_sets.validate_rule_options(variant=self.variant_slug, options=options)
        except ServiceError as err:
            self.add_error(self._option_at_fault(options), err.message)
            return data
        # Everything else the services check (match format, clocks), with their messages.
        at = {"bad-name": "name"}  # a name's refusal beside the name
        if self.instance.pk is None:
            refusal_on_form(self, lambda: rule_sets.create_rule_set(**self.service_fields()), at)
        else:
            refusal_on_form(self, lambda: rule_sets.revise_rule_set(rule_set=self.instance, **self.service_fields()), at)
        return data

    def _option_at_fault(self, options: dict[str, Any]) -> str | None:
        """The form field of the first option the engine refuses on its own (changed
        alone from the defaults), so the message sits beside it; None if none alone."""
        rules = get_variant(self.variant_slug)
        defaults = rules.default_options()
        for key, value in options.items():
            try:
                rules.validate_options({**defaults, key: value})
            except RuleError:
                if isinstance(value, list):
                    for i, item in enumerate(value):
                        try:
                            rules.validate_options({**defaults, key: [*defaults[key][:i], item, *defaults[key][i + 1:]]})
                        except RuleError:
                            return f"opt_{key}_{i}"
                return f"opt_{key}"
        return None


def rule_set_form(variant: str) -> type[RuleSetForm]:
    """The form class for a rule set of ``variant`` (its options as fields)."""
    return type(f"RuleSetForm_{variant.replace('-', '_')}", (RuleSetForm,),
                {"variant_slug": variant, **option_fields(variant)})


def rules_in_words(rule_set: RuleSet, *, paired: bool = False) -> list[str]:
    """The rule set in sentences: the engine's options, then the match and the clock."""
    lines = describe_options(rule_set.variant, rule_set.options)
    if rule_set.match_format == RuleSet.MatchFormat.BEST_OF:
        lines.append(f"A match is the best of {rule_set.match_games} games; next game: "
                     f"{rule_set.get_next_first_display().lower()} goes first.")
    elif rule_set.match_format == RuleSet.MatchFormat.ALL:
        lines.append(f"A match is {rule_set.match_games} games, all played; next game: "
                     f"{rule_set.get_next_first_display().lower()} goes first.")
    elif rule_set.match_format == RuleSet.MatchFormat.OFFICIAL:
        lines.append("The official match: preliminaries and five games.")
    if rule_set.seconds_per_move:
        lines.append(f"Each move must be made within {time_controls.duration_words(rule_set.seconds_per_move)}.")
    if rule_set.seconds_per_game:
        lines.append(f"Each player has {time_controls.duration_words(rule_set.seconds_per_game)} for the whole game.")
    if paired and rule_set.decider == RuleSet.Decider.CHALLENGER:
        # A tournament has no challenger: its pairing names Player One.
        lines.append("Who is Player One: the pairing's first player.")
    else:
        lines.append(f"Who is Player One: {WHO_IS_PLAYER_ONE[rule_set.decider]}")
    return lines


#: Each decider as the end of "Who is Player One: ..." (a sentence of its own, not the
#: choice's label bolted on: "decided by: the challenger chooses" read badly).
WHO_IS_PLAYER_ONE: dict[str, str] = {
    RuleSet.Decider.CHALLENGER: "the challenger chooses.",
    RuleSet.Decider.COIN: "a coin toss decides, as the game starts.",
    RuleSet.Decider.SEED: "drawn from the game's seed, as the game starts.",
    RuleSet.Decider.ROCK_PAPER_SCISSORS: "the winner of a game of rock-paper-scissors, played live first.",
}


class RuleSetAdmin(VariantNameColumn, admin.ModelAdmin):
    """Add or revise a house-rule set. Saving always makes a new version (old versions
    are read-only), so games in play and finished keep the rules they started with."""

    list_display: tuple[str, ...] = ("name", "version", "variant_name", "decider", "match_format", "is_current", "created_at")
    list_filter = ("is_current", VariantListFilter, "decider")
    search_fields = ("name",)
    readonly_fields = ("in_words", "version_info")

    class Media:
        js = (*HTMX, "js/admin-reload.js")

    # -- the form ------------------------------------------------------------------

    def variant_for(self, request: HttpRequest, obj: RuleSet | None) -> str:
        if obj is not None:
            return obj.variant
        slug = request.POST.get("variant") or request.GET.get("variant")
        chosen = preset(request.GET.get("preset", ""))
        if chosen is not None:
            slug = chosen.variant
        return slug if slug in variant_slugs() else DEFAULT_VARIANT

    def get_form(self, request: HttpRequest, obj: Any = None, change: bool = False, **kwargs: Any) -> Any:
        return rule_set_form(self.variant_for(request, obj))

    def get_changeform_initial_data(self, request: HttpRequest) -> dict[str, Any]:
        variant = self.variant_for(request, None)
        chosen = preset(request.GET.get("preset", ""))
        options = dict(chosen.options) if chosen is not None and chosen.variant == variant else {}
        initial = {"variant": variant, **form_initial(variant, options)}
        if chosen is not None:
            initial["name"] = chosen.name
        return initial

    def get_fieldsets(self, request: HttpRequest, obj: Any = None) -> Fieldsets:
        variant = self.variant_for(request, obj)
        options = tuple(option_fields(variant))
        fieldsets: Fieldsets = [
            (None, {"fields": (*RULE_FIELDS, *(("version_info",) if obj else ()))}),
            (f"House rules of {get_variant(variant).name}", {
                "fields": options,
                "description": self.presets_html(variant) if obj is None else "",
            }),
            ("Match and clock", {"fields": PLAY_FIELDS}),
            ("In words", {"fields": ("in_words",)}),
        ]
        if not options:
            fieldsets[1][1]["description"] = (fieldsets[1][1]["description"] or "") + "This rule set has no house rules."
        return fieldsets

    def presets_html(self, variant: str) -> str:
        links = format_html_join(
            " · ", '<a href="?preset={}">{}</a> <span class="help">({})</span>',
            ((p.slug, p.name, p.source) for p in presets_for(variant)),
        )
        return format_html("Start from a preset: {}", links)

    @admin.display(description="Version")
    def version_info(self, obj: RuleSet) -> str:
        if obj.pk is None:
            return "1 (new)"
        if obj.is_current:
            return f"{obj.version}: saving makes version {obj.version + 1}; games keep the version they started with, " \
                   "sections not started yet move to the new one."
        return f"{obj.version} (an older version, kept for the games played under it)"

    @admin.display(description="The rules in words")
    def in_words(self, obj: RuleSet) -> str:
        url = reverse(f"{self.admin_site.name}:games_ruleset_preview")
        try:
            lines = rules_in_words(obj) if obj.variant else []
        except (RuleError, ServiceError) as err:
            lines = [err.message]
        return format_html(
            '<div id="rules-preview" hx-post="{}" hx-trigger="change from:closest form, input delay:400ms '
            'from:closest form" hx-include="closest form" hx-swap="innerHTML" aria-live="polite">{}</div>',
            url, self._lines_html(lines),
        )

    @staticmethod
    def _lines_html(lines: list[str]) -> str:
        return format_html("<ul>{}</ul>", format_html_join("", "<li>{}</li>", ((line,) for line in lines)))

    def get_urls(self) -> list[Any]:
        preview = path("preview/", self.admin_site.admin_view(self.preview_view), name="games_ruleset_preview")
        return [preview, *super().get_urls()]

    def preview_view(self, request: HttpRequest) -> HttpResponse:
        """The rules in words for the form as it stands (htmx), or the engine's refusal."""
        if request.method != "POST" or not self.has_view_permission(request):
            raise Http404
        posted = request.POST.get("variant", "")
        variant = posted if posted in variant_slugs() else DEFAULT_VARIANT
        form = rule_set_form(variant)(data=request.POST)
        form.is_valid()  # only to convert what converts; the engine judges the options
        options = options_from_form(variant, {**request.POST.dict(), **form.cleaned_data})
        draft = RuleSet(variant=variant, options=options,
                        **{k: v for k, v in form.cleaned_data.items() if k in PLAY_FIELDS or k == "decider"})
        try:
            html = self._lines_html(rules_in_words(draft))
        except RuleError as err:
            html = format_html('<p class="errornote">{}</p>', err.message)
        return HttpResponse(html)

    # -- saving: always through the services ---------------------------------------------

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        # Older versions stay as they were: the games played under them refer to them.
        # The current one is its keeper's, as in the API (games/ownership.py); others look.
        if obj is not None and not (obj.is_current and ownership.may_revise(obj, request.user)):
            return False
        return super().has_change_permission(request, obj)

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def save_model(self, request: HttpRequest, obj: RuleSet, form: RuleSetForm, change: bool) -> None:
        saved = self.save_rule_set(request, form, obj if change else None)
        # The admin's redirect and message follow the version just made.
        obj.pk, obj.version, obj.family, obj.is_current = saved.pk, saved.version, saved.family, saved.is_current
        obj._state.adding = False

    def save_rule_set(self, request: HttpRequest, form: RuleSetForm, rule_set: RuleSet | None) -> RuleSet:
        fields = form.service_fields()
        if rule_set is None:
            return rule_sets.create_rule_set(created_by=signed_in_user(request), **fields)
        return rule_sets.revise_rule_set(rule_set=rule_set, created_by=signed_in_user(request), **fields)

    def save_related(self, request: HttpRequest, form: Any, formsets: Any, change: bool) -> None:
        """A rule set has no related rows to save."""


# -- games, seats, moves ---------------------------------------------------------------


class SeatInline(ReadOnlyMixin, admin.TabularInline):
    model = Seat
    extra = 0
    fields = ("number", "user", "ai_level", "clock_ms")
    readonly_fields = fields


class MoveInline(ReadOnlyMixin, admin.TabularInline):
    model = Move
    extra = 0
    fields = ("ply", "seat", "shown_move", "commitment", "revealed", "created_at")
    readonly_fields = fields

    @admin.display(description="move")
    def shown_move(self, move: Move) -> Any:
        """A secret move (a plan, a throw) is its player's alone until the reveal, here
        too: the console's readers are a club's organisers and arbiters, who may be
        playing in the event (games.selectors shows it to its seat only, likewise)."""
        return json.dumps(move.move) if move.revealed else "secret until the reveal (its commitment is beside it)"


class GameAdmin(VariantNameColumn, admin.ModelAdmin):
    """Read-only; the page shows who is watching now, refreshed every two seconds."""

    list_display = ("id", "variant_name", "status", "ply", "result", "winner_seat", "watching", "created_at",
                    "finished_at")
    list_filter = ("status", VariantListFilter, "rated")
    search_fields = ("seats__user__username",)
    date_hierarchy = "created_at"
    # The seed stays secret until the game ends, even here; so does the engine's state
    # while the game is in play: it holds the seed too (every later die roll and draw)
    # and any secret move not yet revealed. It was shown, to superusers and to the club's
    # organisers and arbiters, who may be playing in the event (an outside probe).
    exclude = ("seed",)

    def get_exclude(self, request: HttpRequest, obj: Any = None) -> Any:
        over = obj is not None and obj.status in (Game.Status.FINISHED, Game.Status.ABORTED)
        return self.exclude if over else (*self.exclude, "state")
    readonly_fields = ("watching_now",)
    inlines = [SeatInline, MoveInline]
    list_select_related = ("rule_set",)

    class Media:
        js = HTMX

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    @admin.display(description="watching")
    def watching(self, game: Game) -> int:
        return game.observers.count()

    @admin.display(description="Watching now")
    def watching_now(self, game: Game) -> str:
        url = reverse(f"{self.admin_site.name}:games_game_watchers", args=[game.pk])
        return format_html('<div hx-get="{}" hx-trigger="load, every 2s" aria-live="polite">…</div>', url)

    def get_urls(self) -> list[Any]:
        watchers = path("<int:game_id>/watchers/", self.admin_site.admin_view(self.watchers_view),
                        name="games_game_watchers")
        return [watchers, *super().get_urls()]

    def watchers_view(self, request: HttpRequest, game_id: int) -> HttpResponse:
        """The live list of a game's observers (an htmx partial)."""
        game = self.get_object(request, str(game_id))
        if game is None or not self.has_view_permission(request, game):
            raise Http404
        observers = game.observers.select_related("user").order_by("joined_at", "pk")
        changelist = reverse(f"{self.admin_site.name}:games_observer_changelist")
        return TemplateResponse(request, "admin/games/game/watchers.html", {
            "game": game, "observers": observers, "moderate_url": f"{changelist}?game__id__exact={game.pk}",
        })


@admin.register(Match)
class MatchAdmin(ReadOnlyMixin, admin.ModelAdmin):
    list_display = ("id", "rule_set", "kind", "status", "created_at")
    list_filter = ("status", "kind")

    def get_exclude(self, request: HttpRequest, obj: Any = None) -> Any:
        # Its state holds the match's seed (its later coins and dice): as a game's, shown
        # once the match is over.
        over = obj is not None and obj.status != Match.Status.ACTIVE
        return () if over else ("state",)


class ObserverAdmin(admin.ModelAdmin):
    """One row per open observer socket, kept by the live side; moderation adds kicks
    and bans. Delete clears a row left by a socket that died without closing."""

    list_display = ("game", "user", "joined_at")
    list_filter = ("game__status",)
    search_fields = ("user__username", "game__id")
    readonly_fields = ("game", "user", "channel_name", "joined_at")
    list_select_related = ("game", "user")

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def lookup_allowed(self, lookup: str, value: str, request: HttpRequest | None = None) -> bool:
        # The game page's "moderate" link lists one game's observers.
        return lookup == "game__id__exact" or super().lookup_allowed(lookup, value, request)


@admin.register(PrivateNote)
class PrivateNoteAdmin(ReadOnlyMixin, admin.ModelAdmin):
    list_display = ("game", "author", "length", "updated_at")
    fields = ("game", "author", "length", "updated_at")
    readonly_fields = ("game", "author", "length", "updated_at")
    search_fields = ("author__username",)

    @admin.display(description="characters")
    def length(self, note: PrivateNote) -> int:
        return len(note.text)
