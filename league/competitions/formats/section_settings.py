"""Section settings: the ones a format takes (its own), and the ones every section has.

A format declares its own settings (``SectionFormat.settings``); COMMON_SETTINGS are
the tie-breaks, schedule, eligibility and observers every section has. create_section
takes exactly these (``registry.SECTION_SETTINGS``) and checks them (``registry.
check_settings``). The organiser's form and the API's serializers declare one field for
each, with the labels, choices and defaults given here; a test holds them to these
declarations (tests/league/test_format_registry.py).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import timedelta
from decimal import Decimal
from enum import Enum
from typing import Any, TypedDict

from django.db.models import Field

from accounts.errors import ServiceError
from league.models import Section


class Bounds(TypedDict):
    """An integer field's range, spread into a form's or a serializer's IntegerField."""

    min_value: int
    max_value: int


#: The columns' ranges (PositiveSmallIntegerField, PositiveIntegerField), for the form and
#: the API's: past them the database refuses the row, a 500, before the services judge it.
SMALL: Bounds = {"min_value": 0, "max_value": 32767}
WHOLE: Bounds = {"min_value": 0, "max_value": 2**31 - 1}
#: The longest arena or gap between rounds: longer ones overflow the dates computed from them.
LONGEST = timedelta(days=366)

#: Settings of every section, whatever its format (create_section's checks of them are
#: its own: windows, age groups, tie-break names...).
COMMON_SETTINGS = (
    "tiebreaks", "round_interval", "round_starts", "registration_opens_at", "registration_closes_at",
    "check_in_opens_at", "check_in_closes_at", "age_under", "age_over", "age_year", "age_cutoff", "min_age",
    "max_age", "rating_min", "rating_max", "members_only", "observer_policy",
    "previous_stage", "advance",  # a later stage of a multi-stage event (league/competitions/stages.py)
)

Refusal = tuple[str, str]  # (code, reason in words), as a ServiceError carries them


class Elsewhere(Enum):
    """What a setting's value does in a section whose format does not take the setting."""

    IGNORED = "ignored"  # kept, unused
    CHECKED = "checked"  # kept, so checked as in its own formats (a column constraint holds it)
    REFUSED = "refused"  # refused unless left at its default


@dataclass(frozen=True)
class Setting:
    """One format setting: a Section field, its label, its allowed values and its refusal."""

    name: str  # the Section field (its default is the column's)
    label: str  # on the organiser's form
    help_text: str = ""
    refusal: Refusal | None = None  # when the value is not allowed; None: not checked
    choices: tuple[tuple[Any, str], ...] = ()  # the values allowed, with their labels
    min_value: Any = None  # the smallest value allowed
    max_value: Any = None  # the largest the column (or the dates computed from it) holds
    allowed: Callable[[Any], bool] | None = None  # the allowed values, when choices and bounds do not say
    required: bool = False  # the formats taking it need a value (it has no default, or only own_default)
    own_default: Any = None  # given none, the formats taking it get this (the column's default is the others')
    elsewhere: Elsewhere = Elsewhere.IGNORED
    elsewhere_refusal: Refusal | None = None  # with Elsewhere.REFUSED
    with_others: Callable[[Section], Refusal | None] | None = None  # a refusal given the section's other settings

    @property
    def default(self) -> Any:
        """The column's default (None: empty)."""
        field = Section._meta.get_field(self.name)
        assert isinstance(field, Field)  # a column of Section, not a relation
        return field.get_default()

    def admits(self, value: Any) -> bool:
        if value is None:
            return self.default is None and not self.required
        if self.allowed is not None:
            return self.allowed(value)
        if self.choices:
            return value in [choice for choice, _ in self.choices]
        return self.min_value is None or value >= self.min_value

    def is_set(self, value: Any) -> bool:
        """Given a value other than the default (a format not taking it would refuse it)."""
        return value is not None and value != self.default


def check_settings(section: Section, own: Iterable[Setting], every: Iterable[Setting]) -> None:
    """Refuse (ServiceError) the first of ``every`` format setting of ``section`` that is
    not allowed: its ``own`` format's are checked, the others as their ``elsewhere`` says."""
    mine = set(own)
    for setting in every:
        value = getattr(section, setting.name)
        if setting in mine or setting.elsewhere is Elsewhere.CHECKED:
            if setting.refusal is not None and not setting.admits(value):
                raise ServiceError(*setting.refusal)
            if setting in mine and setting.with_others is not None and (refusal := setting.with_others(section)):
                raise ServiceError(*refusal)
        elif setting.elsewhere is Elsewhere.REFUSED and setting.elsewhere_refusal and setting.is_set(value):
            raise ServiceError(*setting.elsewhere_refusal)


# -- the format settings (which format takes which: each format class's ``settings``) --------

PLACEMENTS = Setting(
    "placements", "Single elimination: placement matches", choices=tuple(Section.Placements.choices),
    refusal=("bad-placements", 'Placement matches are "none", "third" (a third-place match) or "all" (every place).'),
    elsewhere=Elsewhere.CHECKED,
)
CONSOLATION = Setting(
    "consolation", "Single elimination: a consolation bracket",
    help_text="The first match's losers play on for a consolation winner (fields of 5 or more).",
    with_others=lambda section: None if not (section.consolation and section.placements == Section.Placements.ALL)
    else ("consolation-with-all-places",
          "With every place played for, the first round's losers already play on: no consolation bracket too."),
)
GRAND_FINAL = Setting(
    "grand_final", "Double elimination: grand final", choices=tuple(Section.GrandFinal.choices),
    refusal=("bad-grand-final", 'The grand final is "reset" or "single".'), elsewhere=Elsewhere.CHECKED,
)
CYCLES = Setting(
    "cycles", "Round robin: cycles", choices=((1, "Single"), (2, "Double")),
    refusal=("bad-cycles", "A round robin is single (1) or double (2)."), elsewhere=Elsewhere.CHECKED,
)
#: A bye's points: the form offers the text, the API a decimal, the column holds a decimal.
BYE_POINTS_ALLOWED = (Decimal(1), Decimal("0.5"), Decimal(0))
BYE_POINTS = Setting(
    "bye_points", "Points for a bye", choices=tuple(zip(BYE_POINTS_ALLOWED, ("1", "½", "0"), strict=True)),
    # "-0.0" equals 0 but would be stored and shown signed (an outside probe).
    allowed=lambda value: Decimal(value) in BYE_POINTS_ALLOWED and not Decimal(value).is_signed(),
    refusal=("bad-bye-points", "A bye is worth 0, 0.5 or 1 point."), elsewhere=Elsewhere.CHECKED,
)
#: The most rounds a Swiss may declare: a round more than the players less one cannot be
#: paired (nobody meets twice), so this is the rounds of a 100-player field played out;
#: the start refuses more rounds than its own field allows (``swiss_rounds_refusal``).
MOST_SWISS_ROUNDS = 99
ROUNDS = Setting(
    "rounds", "Swiss: rounds",
    help_text=f"Empty: the recommended number for the field. At most the number of players less one "
              f"(and {MOST_SWISS_ROUNDS}): more cannot be paired.",
    min_value=1, max_value=MOST_SWISS_ROUNDS, allowed=lambda value: 1 <= value <= MOST_SWISS_ROUNDS,
    refusal=("bad-rounds", f"A Swiss has 1 to {MOST_SWISS_ROUNDS} rounds (and fewer than its players)."),
    with_others=lambda section: None if not (section.rounds and section.capacity and section.rounds >= section.capacity)
    else ("too-many-rounds", f"With room for {section.capacity} players, a Swiss has at most "
                             f"{section.capacity - 1} rounds: nobody meets anyone twice."),
    elsewhere=Elsewhere.REFUSED,
    elsewhere_refusal=("bad-rounds", "Only a Swiss sets its number of rounds; the other formats follow from the field."),
)
#: The most players a section paired by the FIDE Dutch system takes. A round's pairing time
#: grows about 13 times per doubling of the field: 4-5 s of CPU at 1,000 players, about a
#: minute at 2,000, while 10,000 ran out of memory after 17 minutes (docs/formats.md,
#: "Swiss: the FIDE Dutch system and the fast system"). A round is paired in a Celery
#: task and previewed in a web request: a bigger field would hold either for hours. Fast
#: score groups pair 10,000 in about 13 s.
DUTCH_MOST_PLAYERS = 2000


def most_players(section: Section) -> int | None:
    """The most players ``section`` takes: its capacity, never above DUTCH_MOST_PLAYERS
    for the FIDE Dutch system (None: no limit)."""
    if section.swiss_system == Section.SwissSystem.DUTCH:
        return min(section.capacity or DUTCH_MOST_PLAYERS, DUTCH_MOST_PLAYERS)
    return section.capacity


def _dutch_capacity(section: Section) -> Refusal | None:
    if section.swiss_system == Section.SwissSystem.DUTCH and (section.capacity or 0) > DUTCH_MOST_PLAYERS:
        return ("dutch-capacity", f"The FIDE Dutch system pairs at most {DUTCH_MOST_PLAYERS:,} players here (a round "
                                  f"of {DUTCH_MOST_PLAYERS:,} takes about a minute to pair): set a capacity of "
                                  f"{DUTCH_MOST_PLAYERS:,} or less, or choose fast score groups.")
    return None


SWISS_SYSTEM = Setting(
    "swiss_system", "Swiss: pairing system", choices=tuple(Section.SwissSystem.choices),
    required=True, own_default=Section.SwissSystem.DUTCH.value,  # the column's null: not a Swiss
    help_text=f"FIDE Dutch: the pairings an arbiter can check with FIDE's tools, for up to {DUTCH_MOST_PLAYERS:,} "
              "players. Fast score groups: for very large fields, close to the Dutch but not its exact rules. Fixed "
              "when round 1 starts.",
    refusal=("bad-swiss-system", 'A Swiss is paired by "dutch" (FIDE Dutch) or "fast" (fast score groups).'),
    with_others=_dutch_capacity,
    elsewhere=Elsewhere.REFUSED,
    elsewhere_refusal=("no-swiss-system", "Only a Swiss section has a pairing system (FIDE Dutch or fast score "
                                          "groups); the other formats pair by their own rules."),
)


def _acceleration_with_others(section: Section) -> Refusal | None:
    """Baku acceleration gives virtual points to the FIDE Dutch pairer: the fast system has none."""
    if section.acceleration != Section.Acceleration.NONE and section.swiss_system != Section.SwissSystem.DUTCH:
        return ("acceleration-needs-dutch",
                "Baku acceleration works with the FIDE Dutch pairing system only: choose FIDE Dutch, or no "
                "acceleration.")
    return None


ACCELERATION = Setting(
    "acceleration", "Swiss: accelerated rounds", choices=tuple(Section.Acceleration.choices),
    help_text="FIDE Dutch only. Baku: in the first half of the rounds the top half of the field (rounded up to "
              "an even number) gets virtual points for pairing, so strong players meet each other sooner; "
              "standings never show them. Fixed when round 1 starts.",
    refusal=("bad-acceleration", 'A Swiss\'s accelerated rounds are "none" or "baku" (Baku, FIDE C.04.5.1).'),
    with_others=_acceleration_with_others,
    elsewhere=Elsewhere.REFUSED,
    elsewhere_refusal=("no-acceleration", "Only a Swiss section paired by the FIDE Dutch system can have "
                                          "accelerated rounds."),
)
LATE_ENTRY_ROUNDS = Setting(
    "late_entry_rounds", "Swiss: late entries until round (0: none)", min_value=0, max_value=SMALL["max_value"],
    elsewhere=Elsewhere.REFUSED,
    elsewhere_refusal=("no-late-entry",
                       "Late entries (by round) are for Swiss sections; an arena takes them until its end."),
)
ARENA_DURATION = Setting(
    "arena_duration", "Arena: minutes", help_text="How long the arena runs. Needed for an arena.",
    max_value=LONGEST, allowed=lambda duration: duration > timedelta(0), required=True,
    refusal=("bad-duration", "An arena needs a duration."),
)
STREAK_BONUS = Setting("streak_bonus", "Arena: streak bonus")
GROUPS = Setting(
    "groups", "Round robin: groups", help_text="Players are snake-seeded into the groups; 1: one table.",
    min_value=1, max_value=SMALL["max_value"], refusal=("bad-groups", "A round robin has at least one group."),
    elsewhere=Elsewhere.REFUSED, elsewhere_refusal=("bad-groups", "Only a round robin is played in groups."),
)
