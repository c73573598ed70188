"""Organiser forms: they only read the fields' types; league.competitions judges the
values (formats, windows, age groups...) and its refusal is shown on the form. The
format settings' labels, choices and defaults are their declarations'
(league/competitions/formats/section_settings.py)."""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from datetime import datetime, timedelta
from decimal import Decimal
from typing import Any, cast

from django import forms
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString

from games.models import RuleSet
from games.rules import get_variant, variant_slugs
from league.formats.tiebreaks import TIEBREAK_NAMES, TIEBREAK_SHORT_HELP, TIEBREAKS
from league.models import Club, Season, Section, Tournament

from .formats import FORMAT_SETTINGS, FORMATS
from .formats.section_settings import (
    ACCELERATION,
    ARENA_DURATION,
    BYE_POINTS,
    CONSOLATION,
    CYCLES,
    DUTCH_MOST_PLAYERS,
    GRAND_FINAL,
    GROUPS,
    LATE_ENTRY_ROUNDS,
    LONGEST,
    PLACEMENTS,
    ROUNDS,
    SMALL,
    STREAK_BONUS,
    SWISS_SYSTEM,
    WHOLE,
)
from .sections import EVENT_YEARS

DATETIME = forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M")

#: The house-rule set's help: a set may play each pairing as a match of any number of
#: games, an even one too (docs/competitions.md, "Matches": a level match is settled, not refused).
LEVEL_MATCH_HELP = ("Brings its own variant, time control and match format. A match of any length can end level "
                    "on games won (2-2 in a best of 4, or with drawn games): that is a drawn pairing, half a point "
                    "each; in a knockout it is played again, first move swapped, up to "
                    f"{FORMATS[Section.Format.SINGLE_ELIMINATION].drawn_game_replays} times, then the higher "
                    "seed goes through.")

#: SMALL and WHOLE (the columns' ranges) and LONGEST are the API's bounds too (league/api/competitions.py).
LONGEST_MINUTES = int(LONGEST.total_seconds()) // 60


def within_event_years(value: datetime) -> None:
    """Years 1900 to 2999: room for the durations added to an event's dates (a start in
    9999 plus an arena's length overflowed, a 500)."""
    low, high = EVENT_YEARS
    if not low <= value.year <= high:
        raise forms.ValidationError(f"A date and time between the years {low} and {high}.")
DATE = forms.DateInput(attrs={"type": "date"})


class TournamentForm(forms.Form):
    name = forms.CharField(max_length=200)
    starts_at = forms.DateTimeField(validators=[within_event_years], label="Starts at (UTC)", widget=DATETIME)
    season = forms.ModelChoiceField(queryset=Season.objects.none(), required=False,
                                    help_text="Its results count towards the season's standings.")
    description = forms.CharField(widget=forms.Textarea(attrs={"rows": 3}), required=False)
    rating_period = forms.ChoiceField(choices=Tournament.RatingPeriod.choices, initial=Tournament.RatingPeriod.GAME)
    draft = forms.BooleanField(required=False, label="Keep as a draft (hidden until you open registration)")

    def __init__(self, *args: Any, club: Club, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        season = cast(forms.ModelChoiceField, self.fields["season"])  # the field declared above (a copy)
        season.queryset = Season.objects.filter(league__club=club).select_related("league")


class TournamentEditForm(TournamentForm):
    """The creation form for a tournament's edit page, filled in with its details; without
    "Keep as a draft" (the tournament page's Publish button publishes it)."""

    def __init__(self, *args: Any, tournament: Tournament, **kwargs: Any) -> None:
        kwargs.setdefault("initial", {
            "name": tournament.name, "starts_at": tournament.starts_at, "season": tournament.season_id,
            "description": tournament.description, "rating_period": tournament.rating_period,
        })
        super().__init__(*args, club=tournament.club, **kwargs)
        del self.fields["draft"]


#: The section form's groups, beside the chosen format's own settings (its fieldset is
#: built from the format's declared ``settings``, so a new format's fields show by
#: themselves). The common groups fold away (<details>); a field in no group shows in
#: "More settings", so none is ever left off the page.
#: A multi-stage event's "stage after" and "players going through" belong with the
#: section's identity; listed here so the form shows them there once they exist.
SECTION_FIELDS = ("name", "variant", "rule_set", "format", "rated", "capacity", "previous_stage", "advance")
FORMAT_COMMON_FIELDS = ("tiebreaks",)
#: The rounds' timetable: in the format's fieldset of every format played in rounds, not
#: of a timed one (an arena runs for its duration and pairs players as they come free).
ROUND_SCHEDULE_FIELDS = ("round_interval", "round_starts")
#: The limits on who may enter a section (an edit that would leave entrants out names them).
ELIGIBILITY_FIELDS = ("age_under", "age_over", "age_year", "min_age", "max_age", "age_cutoff", "rating_min",
                      "rating_max", "members_only")

COMMON_GROUPS = (
    ("Schedule", ("starts_at", "registration_opens_at", "registration_closes_at",
                  "check_in_opens_at", "check_in_closes_at")),
    ("Who may enter", ELIGIBILITY_FIELDS),
    ("Observers", ("observer_policy",)),
)


@dataclass
class FieldGroup:
    legend: str
    fields: list[forms.BoundField]

    @property
    def has_errors(self) -> bool:
        return any(field.errors for field in self.fields)


#: The tie-breaks' places in the order, as the boxes are labelled.
TIEBREAK_PLACES = ("1st", "2nd", "3rd", "4th", "5th", "6th")


class TiebreakOrderWidget(forms.MultiWidget):
    """One select box a place (1st, 2nd...), each offering every tie-break by its name in
    words: nothing to mistype, no script. The field's label names the first box; each box
    has its own label too, and every box is described by the field's help."""

    def __init__(self, choices: list[tuple[str, str]], count: int, *, described: bool = False) -> None:
        super().__init__([forms.Select(choices=choices) for _ in range(count)])
        self.described = described  # the field has help (accounts/_field.html: "<id>_helptext")

    def decompress(self, value: Any) -> list[str | None]:
        """A list of names, or the comma-separated names of an older form's initial."""
        names = [n.strip() for n in value.split(",")] if isinstance(value, str) else list(value or [])
        names = [n for n in names if n]
        return names + [None] * (len(self.widgets) - len(names))

    def id_for_label(self, id_: str) -> str:
        return f"{id_}_0" if id_ else ""

    def render(self, name: str, value: Any, attrs: dict[str, Any] | None = None,
               renderer: Any = None) -> SafeString:
        values = value if isinstance(value, list) else self.decompress(value)
        final = self.build_attrs(self.attrs, attrs)
        id_ = final.get("id", f"id_{name}")
        if self.described:  # Django names no help for a widget of several boxes (use_fieldset): each box does
            final.setdefault("aria-describedby", f"{id_}_helptext")
        boxes = []
        for index, widget in enumerate(self.widgets):
            box_id = f"{id_}_{index}"
            box = widget.render(f"{name}_{index}", values[index] if index < len(values) else None,
                                {**final, "id": box_id}, renderer)
            boxes.append((box_id, TIEBREAK_PLACES[index], box))
        return format_html('<ol class="tiebreak-order">{}</ol>', format_html_join(
            "", '<li><label for="{}">{}</label> {}</li>', boxes))


class TiebreakOrderField(forms.MultiValueField):
    """The tie-breaks in order, one choice a place; empty places are skipped, a tie-break
    chosen twice is refused beside the field. Cleans to a list of names (the API's)."""

    def __init__(self, **kwargs: Any) -> None:
        choices = [("", "—"), *[(name, f"{TIEBREAK_NAMES[name]}: {TIEBREAK_SHORT_HELP[name]}") for name in TIEBREAKS]]
        super().__init__(
            fields=[forms.ChoiceField(choices=choices, required=False) for _ in TIEBREAKS],
            widget=TiebreakOrderWidget(choices, len(TIEBREAKS), described=bool(kwargs.get("help_text"))),
            require_all_fields=False, required=False, **kwargs)

    def compress(self, data_list: list[str]) -> list[str]:
        chosen = [name for name in data_list or [] if name]
        twice = next((name for name in chosen if chosen.count(name) > 1), None)
        if twice is not None:
            raise forms.ValidationError(f"Each tie-break counts once: {TIEBREAK_NAMES[twice]} is chosen twice.",
                                        code="tiebreak-twice")
        return chosen


def _minutes(value: int | None) -> timedelta | None:
    return None if value is None else timedelta(minutes=value)


def _whole_minutes(value: timedelta | None) -> int | None:
    return None if value is None else int(value.total_seconds()) // 60


WHEN_PLAY_STARTS = "Empty: when play starts (round 1, or an arena's start)."


class SectionForm(forms.Form):
    name = forms.CharField(max_length=120, initial="Open")
    variant = forms.ChoiceField(choices=(), initial="classic",
                                help_text="Played by its standard rules unless you choose a house-rule set.")
    rule_set = forms.ModelChoiceField(queryset=RuleSet.objects.filter(is_current=True, for_lessons=False).order_by("variant", "name"),
                                      label="House-rule set", required=False,
                                      help_text=LEVEL_MATCH_HELP)
    format = forms.ChoiceField(choices=Section.Format.choices)
    rated = forms.BooleanField(required=False, initial=True)
    capacity = forms.IntegerField(min_value=2, max_value=WHOLE["max_value"], required=False,
                                  help_text=f"Empty: no limit (a Swiss paired by FIDE Dutch: {DUTCH_MOST_PLAYERS:,}).")
    observer_policy = forms.ChoiceField(choices=Section.ObserverPolicy.choices, initial=Section.ObserverPolicy.ANYONE)
    # Schedule.
    starts_at = forms.DateTimeField(label="Round 1 starts at (UTC)", widget=DATETIME, required=False,
                                    validators=[within_event_years],
                                    help_text="Empty: when the tournament starts.")
    round_interval = forms.IntegerField(min_value=1, max_value=LONGEST_MINUTES, required=False,
                                        label="Minutes between rounds",
                                        help_text="Empty: the next round starts when the last one ends.")
    round_starts = forms.CharField(widget=forms.Textarea(attrs={"rows": 2}), required=False,
                                   label="Start times of rounds 2, 3, ... (one ISO time a line)",
                                   help_text="For instance 2026-12-05T14:00:00+00:00; overrides the interval.")
    arena_duration = forms.IntegerField(min_value=1, max_value=LONGEST_MINUTES, required=False,
                                        label=ARENA_DURATION.label, help_text=ARENA_DURATION.help_text)
    registration_opens_at = forms.DateTimeField(validators=[within_event_years], widget=DATETIME, required=False)
    registration_closes_at = forms.DateTimeField(widget=DATETIME, required=False, help_text=WHEN_PLAY_STARTS,
                                                 validators=[within_event_years])
    check_in_opens_at = forms.DateTimeField(widget=DATETIME, required=False, help_text="Empty: no check-in.",
                                            validators=[within_event_years])
    check_in_closes_at = forms.DateTimeField(widget=DATETIME, required=False, help_text=WHEN_PLAY_STARTS,
                                             validators=[within_event_years])
    # Format settings.
    placements = forms.TypedChoiceField(choices=PLACEMENTS.choices, initial=PLACEMENTS.default, required=False,
                                        empty_value=PLACEMENTS.default, label=PLACEMENTS.label)
    consolation = forms.BooleanField(required=False, initial=CONSOLATION.default, label=CONSOLATION.label,
                                     help_text=CONSOLATION.help_text)
    grand_final = forms.ChoiceField(choices=GRAND_FINAL.choices, initial=GRAND_FINAL.default, label=GRAND_FINAL.label)
    cycles = forms.TypedChoiceField(choices=CYCLES.choices, coerce=int, initial=CYCLES.default, label=CYCLES.label)
    swiss_system = forms.TypedChoiceField(choices=SWISS_SYSTEM.choices, initial=SWISS_SYSTEM.own_default,
                                          required=False, empty_value=None,
                                          label=SWISS_SYSTEM.label, help_text=SWISS_SYSTEM.help_text)
    acceleration = forms.TypedChoiceField(choices=ACCELERATION.choices, initial=ACCELERATION.default, required=False,
                                          empty_value=ACCELERATION.default, label=ACCELERATION.label,
                                          help_text=ACCELERATION.help_text)
    rounds = forms.IntegerField(min_value=ROUNDS.min_value, max_value=ROUNDS.max_value, required=False,
                                label=ROUNDS.label, help_text=ROUNDS.help_text)
    bye_points = forms.TypedChoiceField(choices=[(str(points), label) for points, label in BYE_POINTS.choices],
                                        initial=str(BYE_POINTS.default), coerce=str, label=BYE_POINTS.label)
    late_entry_rounds = forms.IntegerField(min_value=LATE_ENTRY_ROUNDS.min_value,
                                           max_value=LATE_ENTRY_ROUNDS.max_value, initial=LATE_ENTRY_ROUNDS.default,
                                           required=False, label=LATE_ENTRY_ROUNDS.label)
    streak_bonus = forms.BooleanField(required=False, initial=STREAK_BONUS.default, label=STREAK_BONUS.label)
    groups = forms.IntegerField(min_value=GROUPS.min_value, max_value=GROUPS.max_value, initial=GROUPS.default,
                                required=False, label=GROUPS.label, help_text=GROUPS.help_text)
    # A later stage of a multi-stage event (league/competitions/stages.py).
    previous_stage = forms.ModelChoiceField(queryset=Section.objects.none(), required=False,
                                            label="Follows the stage",
                                            help_text="Empty: a first stage. Else that stage's top players go "
                                            "through to this one; nobody registers here.")
    advance = forms.IntegerField(min_value=1, max_value=SMALL["max_value"], required=False,
                                 label="Players going through",
                                 help_text="After a stage: its top N (from groups: the top N of each group).")
    tiebreaks = TiebreakOrderField(label="Tie-breaks, in order",
                                   help_text="Players level on points are ranked by the 1st, then the 2nd... "
                                   "Shown: the format's default order. Choose — to stop the list there.")
    # Eligibility.
    age_under = forms.TypedChoiceField(choices=[("", "—"), *[(n, f"U{n}") for n in (8, 10, 12, 14, 16, 18)]],
                                       coerce=int, empty_value=None, required=False, label="Youth group")
    age_over = forms.TypedChoiceField(choices=[("", "—"), (50, "50+"), (65, "65+")], coerce=int, empty_value=None,
                                      required=False, label="Senior group")
    age_year = forms.IntegerField(**SMALL, required=False, label="Age groups count from the year",
                                  help_text="Empty: the year of round 1 (or the season's).")
    age_cutoff = forms.DateField(required=False, widget=DATE, label="Ages counted on this date",
                                 help_text="For the minimum and maximum ages. Empty: the day round 1 starts.")
    min_age = forms.IntegerField(**SMALL, required=False, label="Minimum age",
                                 help_text="Players this age or older on the date below.")
    max_age = forms.IntegerField(**SMALL, required=False, label="Maximum age",
                                 help_text="Players this age or younger on the date below.")
    rating_min = forms.IntegerField(**WHOLE, required=False)
    rating_max = forms.IntegerField(**WHOLE, required=False)
    members_only = forms.BooleanField(required=False, label="Club members only")

    def __init__(self, *args: Any, tournament: Tournament | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        variant = cast(forms.ChoiceField, self.fields["variant"])  # the field declared above (a copy)
        variant.choices = [(slug, get_variant(slug).display_name) for slug in variant_slugs()]
        # The tie-breaks' boxes show the order that applies: the one given, else the format's default.
        # A format ranked without them (a bracket, an arena) does not show them: nothing posted counts.
        if not self.initial.get("tiebreaks"):
            self.initial = {**self.initial, "tiebreaks": list(FORMATS[self.chosen_format].default_tiebreaks)}
        if not FORMATS[self.chosen_format].default_tiebreaks:
            self.fields["tiebreaks"].disabled = True
        if tournament is not None:  # a stage follows a section of the same tournament
            previous = cast(forms.ModelChoiceField, self.fields["previous_stage"])
            previous.queryset = tournament.sections.order_by("starts_at", "pk")
            if "name" not in self.initial:  # a new section's name is one the tournament has not got
                taken = {name.casefold() for name in tournament.sections.values_list("name", flat=True)}
                names = itertools.chain(["Open"], (f"Open {n}" for n in itertools.count(2)))
                self.initial = {**self.initial, "name": next(name for name in names if name.casefold() not in taken)}
        # Only the chosen format's settings are on the page: the others' are not asked for.
        own = set(FORMATS[self.chosen_format].settings)
        for setting in FORMAT_SETTINGS:
            if setting not in own:
                self.fields[setting.name].required = False
        # The format's fieldset is headed by its name: "Swiss: rounds" shows as "Rounds" in it.
        prefix = f"{self.chosen_format_label}: "
        for setting in own:
            field = self.fields[setting.name]
            if setting.required and setting.own_default is None and setting.refusal:
                # Its formats have no value to give it (an arena's minutes): asked for as
                # needed, and its refusal shown beside it rather than the service's at the top.
                field.required = True
                field.error_messages["required"] = setting.refusal[1]
            if field.label and field.label.startswith(prefix):
                rest = field.label.removeprefix(prefix)
                field.label = rest[:1].upper() + rest[1:]

    @property
    def chosen_format(self) -> str:
        """The format whose settings the form shows: the one posted (or asked for), else the first."""
        value = self.data.get("format") if self.is_bound else self.initial.get("format")
        return value if value in FORMATS else next(iter(Section.Format.values))

    @property
    def chosen_format_label(self) -> str:
        return FORMATS[self.chosen_format].label

    def format_fields(self) -> list[forms.BoundField]:
        """The chosen format's own settings, as it declares them, then the rounds'
        timetable if it is played in rounds, then the tie-breaks if it ranks by them (an
        elimination ranks by its bracket, an arena by its points: a tie-break field there
        would change nothing)."""
        fmt = FORMATS[self.chosen_format]
        names = [setting.name for setting in fmt.settings]
        if not fmt.timed:
            names += ROUND_SCHEDULE_FIELDS
        if fmt.default_tiebreaks:
            names += FORMAT_COMMON_FIELDS
        return [self[name] for name in names if name in self.fields]

    def section_fields(self) -> list[forms.BoundField]:
        return [self[name] for name in SECTION_FIELDS if name in self.fields]

    def common_groups(self) -> list[FieldGroup]:
        """Schedule, eligibility, observers; then any other field, so none is lost."""
        groups = [FieldGroup(legend, [self[name] for name in names]) for legend, names in COMMON_GROUPS]
        placed = {*SECTION_FIELDS, *FORMAT_COMMON_FIELDS, *ROUND_SCHEDULE_FIELDS, *(s.name for s in FORMAT_SETTINGS),
                  *(name for _, names in COMMON_GROUPS for name in names)}
        rest = [self[name] for name in self.fields if name not in placed]
        return groups + ([FieldGroup("More settings", rest)] if rest else [])

    @staticmethod
    def initial_of(section: Section) -> dict[str, Any]:
        """The form's values of an existing section (its edit page): the rule set only when
        it is not the variant's standard rules (the variant says those)."""
        initial: dict[str, Any] = {name: getattr(section, name) for name in SectionForm.base_fields
                                   if name not in ("variant", "rule_set", "previous_stage")}
        initial.update(
            variant=section.variant,
            rule_set=None if section.rule_set.is_standard else section.rule_set_id,
            previous_stage=section.previous_stage_id,
            round_interval=_whole_minutes(section.round_interval),
            arena_duration=_whole_minutes(section.arena_duration),
            round_starts="\n".join(str(when) for when in section.round_starts or []),
            tiebreaks=", ".join(section.tiebreaks or []),
            bye_points=format(Decimal(section.bye_points).normalize(), "f"),  # as the choices write it ("1")
        )
        return initial

    def service_arguments(self) -> dict[str, Any]:
        """The cleaned form as league.competitions.create_section's keyword arguments."""
        data = dict(self.cleaned_data)
        data["round_interval"] = _minutes(data["round_interval"])
        data["arena_duration"] = _minutes(data["arena_duration"])
        data["round_starts"] = [line.strip() for line in (data["round_starts"] or "").splitlines() if line.strip()]
        if FORMATS[data["format"]].timed:  # not on the page for a timed format
            data["round_interval"], data["round_starts"] = None, []
        data["tiebreaks"] = list(data["tiebreaks"] or [])  # TiebreakOrderField: names, in order
        data["late_entry_rounds"] = data["late_entry_rounds"] or 0
        data["groups"] = data["groups"] or 1
        # Another format's setting is not on the page: sent at its default, or empty when
        # some format needs it (no default), which is that format's alone.
        own = FORMATS[data["format"]].settings
        for setting in FORMAT_SETTINGS:
            if setting not in own:
                data[setting.name] = None if setting.required else setting.default
        if not data["starts_at"]:
            data.pop("starts_at")
        return data
