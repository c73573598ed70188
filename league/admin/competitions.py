"""Admin for competitions (docs/competitions.md).

Read-only lists: tournaments, sections, entries, rounds and pairings change only
through the competition services (which schedule rounds and create games); the
organiser pages and the moderation console call those. Leagues, seasons and prizes
are plain data an admin may edit.

The admins of tournaments, sections, entries, rounds and pairings are registered by
moderation/admin.py, on subclasses that scope them to the user's clubs and add the
tournament operations; the others register here."""

from datetime import datetime, timedelta
from typing import Any

from django import forms
from django.contrib import admin
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Q, QuerySet
from django.db.models.functions import Coalesce
from django.http import HttpRequest
from django.utils import timezone
from django.utils.formats import date_format

from accounts.errors import ServiceError
from games.admin import VariantListFilter, VariantNameColumn
from league import competitions
from league.competitions import audit
from league.competitions import seasons as season_services
from league.competitions.formats import FORMAT_SETTINGS, format_of
from league.competitions.season_forms import FIELD_OF as SEASON_FIELD_OF
from league.models import (
    League,
    Prize,
    Season,
    Section,
    Standing,
    Tournament,
)


class ReadOnlyAdmin(admin.ModelAdmin):
    def has_add_permission(self, request, obj=None) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False


class SeasonAdminForm(forms.ModelForm):
    """A season as the console edits it is held to the site's checks (check_season: a
    year of 1900-2999, days in order and apart from the league's other seasons, a
    place-points table that falls): the console saved a year of 5, which the site's
    form refuses (a walkthrough). The refusal reads beside its field."""

    class Meta:
        model = Season
        fields = ["league", "name", "slug", "year", "starts_on", "ends_on", "scoring", "place_points"]
        widgets = {"place_points": forms.Textarea(attrs={"rows": 2})}

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        league = data.get("league") or getattr(self.instance, "league", None)
        if self.errors or league is None:
            return data
        try:
            kept = season_services.check_season(
                league=league, name=data.get("name", ""), starts_on=data.get("starts_on"),
                ends_on=data.get("ends_on"), year=data.get("year"), scoring=data.get("scoring", ""),
                place_points=data.get("place_points") or [], season=self.instance if self.instance.pk else None)
        except ServiceError as err:
            raise ValidationError({SEASON_FIELD_OF.get(err.code, "name"): err.message}, code=err.code) from None
        data.update(kept)  # as the site keeps them (the name trimmed, the points as numbers)
        return data


class SeasonInline(admin.StackedInline):  # stacked: a table's row of eight fields was 2,000 px wide
    model = Season
    form = SeasonAdminForm
    extra = 0
    prepopulated_fields = {"slug": ("name",)}


@admin.register(League)
class LeagueAdmin(admin.ModelAdmin):
    list_display = ("name", "club", "created_at")
    list_filter = ("club",)
    prepopulated_fields = {"slug": ("name",)}
    search_fields = ("name", "club__name")
    inlines = [SeasonInline]


@admin.register(Season)
class SeasonAdmin(admin.ModelAdmin):
    form = SeasonAdminForm
    list_display = ("name", "league", "year", "scoring", "starts_on", "ends_on")
    list_filter = ("scoring", "year")
    prepopulated_fields = {"slug": ("name",)}


class TournamentAdmin(ReadOnlyAdmin):
    list_display = ("name", "club", "season", "status", "rating_period", "starts_at", "finished_at")
    list_filter = ("status", "rating_period", "club")
    search_fields = ("name", "club__name")
    date_hierarchy = "starts_at"


class SectionAdmin(VariantNameColumn, ReadOnlyAdmin):
    list_display = ("name", "tournament", "format", "variant_name", "status", "current_round", "total_rounds",
                    "rated", "capacity", "observer_policy", "starts_at")
    list_filter = ("format", "swiss_system", "acceleration", "status", VariantListFilter, "rated", "observer_policy")
    search_fields = ("name", "tournament__name")

    def get_fields(self, request, obj=None):
        """A section's page shows its own format's settings (as declared), not the other formats'."""
        fields = super().get_fields(request, obj)
        if obj is None:
            return fields
        others = {s.name for s in FORMAT_SETTINGS} - {s.name for s in format_of(obj).settings}
        return [name for name in fields if name not in others]


#: A finished or cancelled event stays among the console's event filter choices this
#: many days after it ended; older ones are found by name with the list's search.
RECENT_EVENT_DAYS = 30

_CURRENT = (Tournament.Status.RUNNING, Tournament.Status.REGISTRATION, Tournament.Status.DRAFT)


def recent_events(tournaments: QuerySet[Tournament], now: datetime) -> list[Tournament]:
    """The events a console filter offers, in the order an organiser looks for them: in
    play, then upcoming (soonest first), then those ended in the last RECENT_EVENT_DAYS
    (latest first). A club's every past event was listed, a list that grows each season."""
    since = now - timedelta(days=RECENT_EVENT_DAYS)
    shown: list[Tournament] = list(tournaments.filter(
        Q(status__in=_CURRENT) | Q(pk__in=tournaments.annotate(ended=Coalesce("finished_at", "starts_at"))
                                   .filter(ended__gte=since).values("pk"))))
    order: dict[str, int] = {Tournament.Status.RUNNING: 0, Tournament.Status.REGISTRATION: 1, Tournament.Status.DRAFT: 1}
    current = sorted((t for t in shown if t.status in order), key=lambda t: (order[t.status], t.starts_at, t.name))
    ended = sorted((t for t in shown if t.status not in order), key=lambda t: (t.finished_at or t.starts_at),
                   reverse=True)
    return current + ended


def event_label(tournament: Tournament) -> str:
    """A choice's words: the name, and where the event stands ("in play", "ended 3 Nov")."""
    if tournament.status == Tournament.Status.RUNNING:
        when = "in play"
    elif tournament.status in _CURRENT:
        when = f"starts {date_format(timezone.localtime(tournament.starts_at), 'j M')}"
    else:
        word = "cancelled" if tournament.status == Tournament.Status.CANCELLED else "ended"
        when = f"{word} {date_format(timezone.localtime(tournament.finished_at or tournament.starts_at), 'j M Y')}"
    return f"{tournament.name} ({when})"


def _chosen_id(value: str | None) -> int | None:
    """The id a filter's link chose; None for none, -1 for one that cannot be an id (a
    number past 64 bits is no row, not a database error)."""
    if not value:
        return None
    return int(value) if value.isdigit() and len(value) < 19 else -1


class EventListFilter(admin.SimpleListFilter):
    """By tournament: the events with rows in this list (of the user's clubs, as the
    console narrows it) that are in play, upcoming or ended lately (recent_events), and
    the one chosen, however old. ``paths``: the lookups from the listed model to its
    tournament (a game's is through its pairing, or its match's)."""

    title = f"tournament (current and last {RECENT_EVENT_DAYS} days; search finds older)"
    parameter_name = "tournament"
    paths: tuple[str, ...] = ("section__tournament",)

    def _events(self, request: HttpRequest, model_admin: Any) -> QuerySet[Tournament]:
        rows = model_admin.get_queryset(request)
        having = Q()
        for path in self.paths:
            having |= Q(pk__in=rows.filter(**{f"{path}__isnull": False}).values(path))
        return Tournament.objects.filter(having)

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, str]]:
        events = self._events(request, model_admin)
        shown = recent_events(events, timezone.now())
        chosen = _chosen_id(self.value())
        if chosen is not None and all(t.pk != chosen for t in shown):
            shown += list(events.filter(pk=chosen))  # a link to an older event still says which
        return [(str(t.pk), event_label(t)) for t in shown]

    def queryset(self, request: HttpRequest, queryset: QuerySet[Any]) -> QuerySet[Any]:
        chosen = _chosen_id(self.value())
        if chosen is None:
            return queryset
        where = Q()
        for path in self.paths:
            where |= Q(**{f"{path}__id": chosen})
        return queryset.filter(where)


class GameEventListFilter(EventListFilter):
    paths = ("pairing__section__tournament", "match__pairing__section__tournament")


class SectionListFilter(admin.SimpleListFilter):
    """By section: the chosen tournament's sections, or, with none chosen, those of the
    events EventListFilter offers (and the one chosen). Its parameter is the one the
    section page's "Correct a result in the console" link sends."""

    title = "section"
    parameter_name = "section__id__exact"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, str]]:
        rows = model_admin.get_queryset(request)
        sections = Section.objects.filter(pk__in=rows.values("section")).select_related("tournament")
        tournament = _chosen_id(request.GET.get(EventListFilter.parameter_name))
        if tournament is not None:
            offered = sections.filter(tournament_id=tournament)
        else:
            events = recent_events(Tournament.objects.filter(pk__in=sections.values("tournament")), timezone.now())
            offered = sections.filter(tournament__in=[t.pk for t in events])
        chosen = _chosen_id(self.value())
        picked = list(offered) + (list(sections.filter(pk=chosen)) if chosen is not None else [])
        unique = {s.pk: s for s in picked}
        return [(str(pk), str(s)) for pk, s in unique.items()]

    def queryset(self, request: HttpRequest, queryset: QuerySet[Any]) -> QuerySet[Any]:
        chosen = _chosen_id(self.value())
        return queryset if chosen is None else queryset.filter(section_id=chosen)


class EntryAdmin(ReadOnlyAdmin):
    list_display = ("user", "section", "status", "seed", "rating", "late", "eliminated", "paused_at", "registered_at")
    list_filter = (EventListFilter, SectionListFilter, "status", "late", "eliminated")
    search_fields = ("user__username", "section__name", "section__tournament__name")
    search_help_text = "A player's username, or a section's or tournament's name (older events are found here)."


class RoundAdmin(ReadOnlyAdmin):
    list_display = ("section", "number", "status", "starts_at", "started_at", "finished_at")
    list_filter = ("status",)


class RoundNumberListFilter(admin.AllValuesFieldListFilter):
    """A pairing's round number, titled "By round" (the field's own name says "number")."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.title = "round"


class PairingAdmin(ReadOnlyAdmin):
    list_display = ("round", "board", "first", "second", "result", "first_points", "second_points", "status",
                    "game", "match")
    # By event (EventListFilter: current and recent ones of the pairings the list may
    # show, the console narrowing it to the organiser's clubs), section, round and
    # player, by username or name. The
    # section page's "Correct a result in the console" opens it filtered to one round.
    list_filter = (EventListFilter, SectionListFilter, ("round__number", RoundNumberListFilter), "status", "result")
    search_fields = ("first__username", "second__username", "first__profile__display_name",
                     "second__profile__display_name", "section__tournament__name")
    search_help_text = "A player's username or name, or a tournament's name (older events are found here)."
    list_select_related = ("round__section__tournament", "first", "second")


@admin.register(Standing)
class StandingAdmin(ReadOnlyAdmin):
    list_display = ("section", "rank", "user", "points", "played", "wins", "draws", "losses", "final")
    list_filter = ("final",)


class _Trial(Exception):
    """Undoes a trial run of a service (its savepoint rolls back)."""


class PrizeForm(forms.ModelForm):
    """A new prize is judged by the service (add_prize) in a trial undone at once, so a
    refusal reads as its sentence beside the form; save_model then makes it for real."""

    class Meta:
        model = Prize
        fields = ["section", "label", "kind", "place", "value", "age_under", "age_over", "rating_below"]

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if self.instance.pk is None and not self.errors:
            try:
                with transaction.atomic():
                    competitions.add_prize(**_prize_fields(data))
                    raise _Trial
            except _Trial:
                pass
            except ServiceError as err:
                raise ValidationError(err.message, code=err.code) from None
        return data


def _prize_fields(data: dict[str, Any]) -> dict[str, Any]:
    return {name: data.get(name) for name in ("section", "label", "kind", "place", "age_under", "age_over",
                                              "rating_below")} | {"value": data.get("value") or ""}


@admin.register(Prize)
class PrizeAdmin(admin.ModelAdmin):
    form = PrizeForm
    list_display = ("section", "label", "kind", "place", "age_under", "age_over", "rating_below", "winner")
    list_filter = ("kind",)
    readonly_fields = ("winner", "awarded_at")

    def save_model(self, request, obj: Prize, form, change: bool) -> None:
        """A new prize goes through the service (its checks, and the audit log); an edit
        is audited too."""
        if change:
            super().save_model(request, obj, form, change)
            audit.record(actor=request.user, action="prize.change", target=obj, club=obj.section.tournament.club,
                         details={"section": obj.section_id, "changed": sorted(form.changed_data)})
            return
        made = competitions.add_prize(**_prize_fields(form.cleaned_data), by=request.user)
        obj.pk = made.pk
