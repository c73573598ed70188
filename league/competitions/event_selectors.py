"""Reads for the competition pages, exports and API: what a bracket, a crosstable, a
standings table or a round looks like to people. Built on league/competitions/selectors.py
(the core reads); nothing here writes."""

from __future__ import annotations

import math
import re
from collections import defaultdict
from dataclasses import dataclass, field, replace
from datetime import UTC, date, datetime
from typing import Any, NamedTuple, cast

from django.db.models import Count, Min, Prefetch, Q, QuerySet
from django.utils import dateformat, timezone

from accounts.age import day_words
from accounts.models import User
from games import selectors as game_selectors
from games.models import Game, RuleSet
from games.time_controls import clock_text
from league.formats import explain
from league.formats.bracket import Match
from league.formats.stages import group_letter, snake_group
from league.models import (
    ORGANISER_ROLES,
    CalendarFeed,
    Club,
    ClubMembership,
    Entry,
    League,
    Pairing,
    PairingPlayer,
    Round,
    Season,
    Section,
    Tournament,
)

from . import refusals
from . import selectors as core
from .formats import Progress, format_of
from .pairings import SEED_DECIDED

#: Column headings of the tie-breaks (league.formats.tiebreaks.TIEBREAKS).
TIEBREAK_LABELS = {
    "direct-encounter": "DE",
    "wins": "Wins",
    "buchholz": "Buchholz",
    "buchholz-cut1": "BH Cut-1",
    "median-buchholz": "Median BH",
    "sonneborn-berger": "SB",
}

#: What each heading means, for the heading's tooltip (a newcomer does not know "SB").
TIEBREAK_MEANINGS = {
    "direct-encounter": "Direct encounter: the points scored in the games between the players tied",
    "wins": "Games won over the board (not byes or wins by forfeit)",
    # A round not played over the board counts as the player's own score, and is the first
    # cut (FIDE C.07 art. 16, as league/formats/tiebreaks.py counts it).
    "buchholz": "Buchholz: the sum of the opponents' scores; a round not played over the board (a bye, or a "
                "game won or lost by forfeit) counts the player's own score",
    "buchholz-cut1": "Buchholz cut 1: the sum of the opponents' scores, less one: a round not played over the "
                     "board (a bye, or a game won or lost by forfeit) if there is one, else the lowest opponent",
    "median-buchholz": "Median Buchholz: the sum of the opponents' scores, less the highest and the lowest; a round "
                       "not played over the board (a bye, or a game won or lost by forfeit) is cut as the lowest",
    "sonneborn-berger": "Sonneborn-Berger: the scores of the opponents beaten, plus half those of the opponents "
                        "drawn; a bye or a game won by forfeit counts the player's own score",
}


class TiebreakColumn(NamedTuple):
    name: str  # league.formats.tiebreaks.TIEBREAKS
    label: str  # the heading
    meaning: str  # the heading's tooltip


# -- clubs, roles, tournaments ------------------------------------------------------------


def organised_clubs(user: User | Any) -> QuerySet[Club]:
    if not getattr(user, "is_authenticated", False):
        return Club.objects.none()
    if user.is_superuser:
        return Club.objects.order_by("name")
    return Club.objects.filter(memberships__user=user, memberships__role__in=ORGANISER_ROLES).order_by("name")


def clubs_with_events() -> QuerySet[Club]:
    return Club.objects.annotate(
        event_count=Count("tournaments", filter=~Q(tournaments__status=Tournament.Status.DRAFT), distinct=True)
    ).order_by("name")


# When a tournament's play really began: its first section's start (round 1 may come early).
# Every page and list says this instead of the planned start once play began.
TOURNAMENT_STARTED_AT = Min("sections__started_at")


def tournament_started_at(tournament: Tournament) -> datetime | None:
    return Tournament.objects.filter(pk=tournament.pk).aggregate(started_at=TOURNAMENT_STARTED_AT)["started_at"]


def club_tournaments(club: Club, *, include_drafts: bool = False) -> QuerySet[Tournament]:
    rows = club.tournaments.select_related("season__league").annotate(
        section_count=Count("sections"), started_at=TOURNAMENT_STARTED_AT)
    if not include_drafts:
        rows = rows.exclude(status=Tournament.Status.DRAFT)
    return rows.order_by("-starts_at", "name")


def club_leagues(club: Club) -> QuerySet[League]:
    return club.leagues.prefetch_related(Prefetch("seasons", Season.objects.order_by("-year", "name")))


def tournament_sections(tournament: Tournament) -> QuerySet[Section]:
    active = Q(entries__status__in=core.ACTIVE_ENTRY)
    return (
        tournament.sections.select_related("rule_set")
        .annotate(entry_count=Count("entries", filter=active, distinct=True))
        .order_by("starts_at", "name")
    )


def season_tournaments(season: Season, *, include_drafts: bool = False) -> QuerySet[Tournament]:
    rows = season.tournaments.annotate(started_at=TOURNAMENT_STARTED_AT)
    if not include_drafts:
        rows = rows.exclude(status=Tournament.Status.DRAFT)
    return rows.order_by("starts_at")


# -- entries --------------------------------------------------------------------------------


@dataclass
class EntryState:
    """What a signed-in player may do in a section, and why not: each action is offered
    exactly when its service would accept it (league/competitions/refusals.py)."""

    entry: Entry | None
    register_refusal: refusals.Refusal | None = None  # None: Register is offered
    can_register: bool = False
    can_check_in: bool = False
    can_withdraw: bool = False
    #: Asked before Withdraw acts (static/js/site.js, data-confirm): mid-event it forfeits
    #: the game in play and cannot be undone; before the start a player may enter again.
    withdraw_confirm: str = ""
    can_pause: bool = False  # an arena: take a break (arena_pause.py)
    can_come_back: bool = False  # an arena: paused, and "I'm back" is offered

    @property
    def refusal(self) -> str:
        """Why the player may not enter; nothing for a player entered already."""
        entered = self.entry is not None and self.entry.status != Entry.Status.WITHDRAWN
        return "" if entered or self.register_refusal is None else self.register_refusal.reason

    @property
    def on_a_break(self) -> bool:
        """Paused at their own asking (not for a game lost without a move)."""
        return self.entry is not None and self.entry.paused_reason == core.ON_A_BREAK


def entry_state(*, section: Section, user: User | Any, now: datetime | None = None) -> EntryState:
    if not getattr(user, "is_authenticated", False):
        return EntryState(entry=None)
    now = now or timezone.now()
    entry = section.entries.filter(user=user).first()
    registration = refusals.registration_refusal(section, user, now)
    return EntryState(
        entry=entry, register_refusal=registration, can_register=registration is None,
        can_check_in=refusals.check_in_refusal(section, entry, now) is None,
        can_withdraw=refusals.withdraw_refusal(section, entry) is None,
        can_pause=refusals.player_pause_refusal(section, entry, now) is None,
        can_come_back=refusals.player_back_refusal(section, entry, now) is None,
        withdraw_confirm=(f"Withdraw from {section.name}: your game in play is lost by forfeit and you are "
                          "paired in no later round. This cannot be undone. Withdraw?")
        if section.status == Section.Status.RUNNING else "",
    )


def _moment(moment: datetime) -> str:
    """A moment as the pages write it: "Mon 30 Nov 2026, 10:00 UTC" (refusals' words)."""
    at = moment.astimezone(UTC)
    return f"{day_words(at.date())}, {at:%H:%M} UTC"


@dataclass(frozen=True)
class CheckInView:
    """Check-in on a section that asks for it, in words (docs/competitions.md, "Check-in"):
    its window, what not checking in does, where the player stands, and for organisers
    how many have checked in."""

    opens: datetime
    closes: datetime
    state: str  # "not-yet", "open", "closed"
    window: str  # "Check-in is open from ... to ...: "
    consequence: str  # what happens to whoever does not check in
    yours: str  # the signed-in entrant's check-in, in words ("": not entered)
    #: The Check in button: "offered" (in the entry form), "not-yet" (shown disabled, with
    #: when it opens), "done" (checked in) or "" (no button: not entered, or too late)
    button: str
    checked_in: int  # entrants checked in so far
    entrants: int  # entrants not withdrawn

    @property
    def counts(self) -> str:
        """For organisers: how many have checked in, and who is left."""
        waiting = self.entrants - self.checked_in
        words = f"{self.checked_in} of {self.entrants} entrant{'s' if self.entrants != 1 else ''} checked in"
        if waiting and self.state != "closed":
            words += f"; {waiting} still to check in before {_moment(self.closes)}"
        return words + "."


def check_in_view(section: Section, user: User | Any, now: datetime | None = None) -> CheckInView | None:
    """The section's check-in while it takes entries (None: it asks for none, or it has
    started: then who did not check in has been withdrawn, "Did not check in.")."""
    opens = section.check_in_opens_at
    if opens is None or section.status != Section.Status.REGISTRATION or section.previous_stage_id is not None:
        return None
    now = now or timezone.now()
    closes = section.check_in_closes_at or section.starts_at
    state = "not-yet" if now < opens else "open" if now < closes else "closed"
    window = f"Entrants check in from {_moment(opens)} to {_moment(closes)}."
    consequence = ("Whoever has not checked in when round 1 starts is withdrawn (\"Did not check in.\") and "
                   "not paired.")
    entries = section.entries.exclude(status=Entry.Status.WITHDRAWN)
    checked_in = entries.filter(status=Entry.Status.CHECKED_IN).count()
    entry = entries.filter(user=user).first() if getattr(user, "is_authenticated", False) else None
    yours, button = "", ""
    if entry is not None and entry.status == Entry.Status.CHECKED_IN:
        at = f" ({_moment(entry.checked_in_at)})" if entry.checked_in_at else ""
        yours, button = f"You are checked in{at}: you will be paired.", "done"
    elif entry is not None and state == "not-yet":
        yours, button = f"Check-in opens {_moment(opens)}: come back then and press Check in.", "not-yet"
    elif entry is not None and state == "open":
        yours, button = f"Check in before {_moment(closes)}, or you are not paired.", "offered"
    elif entry is not None:
        yours = "Check-in has closed and you did not check in: you will be withdrawn when round 1 starts."
    return CheckInView(opens, closes, state, window, consequence, yours, button, checked_in, entries.count())


@dataclass(frozen=True)
class OrganiserAction:
    """An organiser's button: the form's action value, its label, and why it is not offered."""

    action: str
    label: str
    refusal: refusals.Refusal | None
    #: Asked before the click acts (static/js/site.js, data-confirm): it cannot be undone.
    confirm: str = ""

    @property
    def offered(self) -> bool:
        return self.refusal is None

    @property
    def shown(self) -> bool:
        """On the page: offered, or a start refused for a reason the organiser can act on."""
        return self.offered or (self.action == "start" and self.refusal is not None
                                and self.refusal.code in START_REFUSALS_SHOWN)


#: A refused start said under Organiser (the others, "not open" say, go without saying).
START_REFUSALS_SHOWN = ("too-few-players", "too-many-rounds")


def _start_confirm(what: str, sections: list[Section]) -> str:
    """The question before "Start now": what starting does, in words."""
    begins = "play begins at once" if all(format_of(s).timed for s in sections) else "round 1 is paired at once"
    dropped = " Players who have not checked in are withdrawn." if any(
        s.check_in_opens_at is not None for s in sections) else ""
    return f"{what}: registration closes and {begins}.{dropped} This cannot be undone. Start?"


def tournament_actions(tournament: Tournament, user: User | Any, now: datetime | None = None) -> list[OrganiserAction]:
    """The tournament's organiser buttons (views' ORGANISER_ACTIONS), each with its refusal."""
    now = now or timezone.now()
    return [
        OrganiserAction("open", "Publish" if tournament.status == Tournament.Status.DRAFT else "Open registration now",
                        refusals.open_registration_refusal(tournament, user, now)),
        OrganiserAction("close", "Close registration", refusals.close_registration_refusal(tournament, user, now)),
        _start_tournament_action(tournament, user),
    ]


def _start_tournament_action(tournament: Tournament, user: User | Any) -> OrganiserAction:
    refusal = refusals.start_tournament_refusal(tournament, user)
    if refusal is not None:
        return OrganiserAction("start", "Start now", refusal)
    sections = list(refusals.sections_to_start(tournament))  # those start_tournament starts
    return OrganiserAction("start", "Start now", None, _start_confirm(f"Start {tournament.name} now", sections))


#: How a Swiss section is paired, in words (the section page says it under the format).
PAIRED_BY = {
    Section.SwissSystem.DUTCH: "Paired by the FIDE Dutch system (C.04.3, 2025)",
    Section.SwissSystem.FAST: "Paired by fast score groups",
}


def pairing_system(section: Section) -> str:
    """"Paired by ..." for a Swiss section (and its acceleration, if any); empty for the
    other formats (their format says it)."""
    if section.format != Section.Format.SWISS or section.swiss_system is None:  # null: not a Swiss
        return ""
    paired_by = PAIRED_BY[Section.SwissSystem(section.swiss_system)]
    if section.acceleration != Section.Acceleration.BAKU:
        return paired_by
    rounds = section.total_rounds or section.rounds  # the total is known at the start
    last = math.ceil(rounds / 2) if rounds else 0  # C.04.5.1: the first half, rounded up
    accelerated = "the first half of the rounds" if not last else "round 1" if last == 1 else f"rounds 1\N{EN DASH}{last}"
    return f"{paired_by}, with Baku acceleration (C.04.5.1): virtual points in {accelerated}"


def section_actions(section: Section, user: User | Any) -> list[OrganiserAction]:
    """The section's organiser buttons: start now, pause, resume."""
    start = refusals.start_section_refusal(section, user)
    return [
        OrganiserAction("start", "Start this section now", start,
                        _start_confirm(f"Start {section.name} now", [section]) if start is None else ""),
        OrganiserAction("pause", "Pause", refusals.organiser_refusal(user, section.tournament.club)
                        or refusals.pause_refusal(section)),
        OrganiserAction("resume", "Resume", refusals.organiser_refusal(user, section.tournament.club)
                        or refusals.resume_refusal(section)),
        OrganiserAction("end", f"End after round {section.current_round}",
                        refusals.organiser_refusal(user, section.tournament.club) or refusals.end_early_refusal(section),
                        f"End {section.name} after round {section.current_round}? The standings after round "
                        f"{section.current_round} become final and every player is told. This cannot be undone."),
    ]


def organiser_card(actions: list[OrganiserAction], admin: SectionAdmin | None, *, swiss_choices: bool) -> bool:
    """Whether the section's Organiser card holds anything: once the section is over
    nothing in it applies, and an empty card would say otherwise (the exports are above
    it, for everyone)."""
    return any(action.shown for action in actions) or swiss_choices or (
        admin is not None and (admin.can_edit or admin.can_delete))


@dataclass(frozen=True)
class SectionAdmin:
    """An organiser's corrections on a section's page, each offered exactly when its
    service would accept it: Edit and Delete (else why not), "Enter a player" (a member of
    the club, by username, with the members not entered as suggestions: (username, name)
    pairs, the name shown and the username filled in), and Withdraw
    beside each entrant (``withdrawable``: their user ids)."""

    edit_refusal: refusals.Refusal | None
    delete_refusal: refusals.Refusal | None
    enter_refusal: refusals.Refusal | None
    withdrawable: frozenset[int]
    members: list[tuple[str, str]]
    delete_confirm: str
    withdraw_confirm: str

    @property
    def can_edit(self) -> bool:
        return self.edit_refusal is None

    @property
    def can_delete(self) -> bool:
        return self.delete_refusal is None

    @property
    def can_enter(self) -> bool:
        return self.enter_refusal is None


#: The most members the "Enter a player" field suggests (a big club's list is only typed).
MOST_SUGGESTED_MEMBERS = 200


def section_admin(section: Section, user: User | Any, now: datetime | None = None) -> SectionAdmin | None:
    """The organiser's corrections of ``section`` (None for anyone else)."""
    if refusals.organiser_refusal(user, section.tournament.club) is not None:
        return None
    now = now or timezone.now()
    enter = refusals.organiser_entry_refusal(section, user, now)
    over = section.status in (Section.Status.FINISHED, Section.Status.CANCELLED)
    # Withdraw beside each entrant whose withdrawal would mean something (withdraw_refusal).
    withdrawable = frozenset() if over else frozenset(
        core.active_entries(section).values_list("user_id", flat=True)) - refusals.knocked_out(section)
    members = [] if enter is not None else [
        (m.user.username, m.user.name) for m in ClubMembership.objects.filter(club_id=section.tournament.club_id)
        .exclude(user__in=core.active_entries(section).values("user_id"))
        .exclude(user__in=refusals.entered_elsewhere(section).values("user_id"))
        .select_related("user__profile").order_by("user__username")[:MOST_SUGGESTED_MEMBERS]]
    mid_event = section.status == Section.Status.RUNNING
    return SectionAdmin(
        edit_refusal=refusals.edit_section_refusal(section, user),
        delete_refusal=refusals.delete_section_refusal(section, user),
        enter_refusal=enter, withdrawable=withdrawable, members=members,
        delete_confirm=f"Delete {section.name}? Its settings and schedule go; this cannot be undone.",
        withdraw_confirm=("their game in play is lost by forfeit and no later round pairs them. This cannot be "
                          "undone." if mid_event else "they may be entered again before round 1."),
    )


def date_words(day: date) -> str:
    """A day as the pages write it ("Sun 20 Dec 2026", the templates' "D j M Y")."""
    return dateformat.format(day, "D j M Y")


def _age_words(section: Section) -> list[str]:
    words = []
    if section.age_under:
        words.append(f"born in {core.age_group_year(section) - section.age_under} or later (U{section.age_under})")
    if section.age_over:
        words.append(f"born in {core.age_group_year(section) - section.age_over} or earlier ({section.age_over}+)")
    low, high = section.min_age, section.max_age
    if low is not None or high is not None:
        ages = f"{low} to {high}" if low is not None and high is not None else (
            f"{low} or over" if low is not None else f"{high} or under")
        cutoff = core.age_cutoff(section)
        default = " (the day round 1 starts)" if section.age_cutoff is None else ""
        words.append(f"aged {ages} on {date_words(cutoff)}{default}")
    return words


def _rating_words(section: Section) -> list[str]:
    low, high = section.rating_min, section.rating_max
    if low is not None and high is not None:
        return [f"rated {low} to {high}"]
    if low is not None:
        return [f"rated {low} or more"]
    if high is not None:  # an unrated player may enter too (core.eligibility_refusal)
        return [f"rated up to {high} or unrated"]
    return []


def who_may_enter(section: Section) -> str:
    """Who may enter ``section``, in words, the same on the section's page and in its
    tournament's list: "Players aged 18 or over on Sun 20 Dec 2026, rated up to 2400 or
    unrated"; "" when anyone may. Says what core.eligibility_refusal checks."""
    if section.previous_stage_id is not None:  # a later stage takes no entries
        assert section.previous_stage is not None
        return f"The players going through from {section.previous_stage.name}"
    limits = _age_words(section) + _rating_words(section)
    if section.members_only:
        return ", ".join([f"Members of {section.tournament.club.name}", *limits])
    return f"Players {', '.join(limits)}" if limits else ""


def entries(section: Section) -> QuerySet[Entry]:
    return section.entries.select_related("user__profile").order_by("status", "seed", "registered_at")


@dataclass(frozen=True)
class SectionPlayers:
    """A section's players list: those entered (not withdrawn), the count every page
    gives (the tournament page's "6 players"), and those withdrawn, listed apart."""

    entered: list[Entry]
    withdrawn: list[Entry]


def section_players(section: Section) -> SectionPlayers:
    rows = list(entries(section))
    return SectionPlayers(entered=[e for e in rows if e.status != Entry.Status.WITHDRAWN],
                          withdrawn=[e for e in rows if e.status == Entry.Status.WITHDRAWN])


@dataclass(frozen=True)
class Paused:
    """A player a running arena pairs with nobody until they press "I'm back" (arena_pause.py)."""

    since: datetime
    on_a_break: bool  # they asked for it; else they lost a game without a move

    @property
    def why(self) -> str:
        """Why, for the organisers' players list (the player's own box says it to them)."""
        return "taking a break" if self.on_a_break else "lost a game without a move"


def paused_players(section: Section) -> dict[int, Paused]:
    """Who a running arena pairs with nobody, by user id; nobody in any other section, nor
    once the arena is over (nothing is paired then: a pause means nothing)."""
    if section.status != Section.Status.RUNNING or not format_of(section).timed:
        return {}
    rows = section.entries.exclude(status=Entry.Status.WITHDRAWN).filter(paused_at__isnull=False).values_list(
        "user_id", "paused_at", "paused_reason")
    return {user_id: Paused(since, reason == core.ON_A_BREAK) for user_id, since, reason in rows if since is not None}


# -- names ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Person:
    user_id: int
    username: str
    name: str
    seed: int | None

    def as_dict(self) -> dict[str, Any]:
        return {"username": self.username, "name": self.name, "seed": self.seed}


def people(section: Section) -> dict[int, Person]:
    """Everyone in the section's entries (pairings only hold entrants), by user id.
    Kept on the section object: one page asks for it several times."""
    cached = getattr(section, "_event_people", None)
    if cached is not None:
        return cached
    rows = section.entries.select_related("user__profile")
    found = {e.user_id: Person(e.user_id, e.user.username, e.user.name, e.seed) for e in rows}
    section._event_people = found  # type: ignore[attr-defined]  # a cache on this instance, not a field
    return found


# -- brackets -------------------------------------------------------------------------------


@dataclass
class BracketSide:
    person: Person | None
    label: str  # the name, "bye", or "to be decided"
    winner: bool = False

    def as_dict(self) -> dict[str, Any]:
        return {"player": self.person.as_dict() if self.person else None, "label": self.label,
                "winner": self.winner}


@dataclass
class BracketMatch:
    id: int
    bracket: str
    round: int
    sides: list[BracketSide]
    decided: bool
    bye: bool
    pairing_id: int | None = None
    game_id: int | None = None
    result: str = ""
    label: str = ""  # a placement match's places ("Third place", "Places 5-6")
    replayable: bool = False  # its game has a move (one forfeited before any has nothing to replay)

    def as_dict(self) -> dict[str, Any]:
        return {"id": self.id, "bracket": self.bracket, "round": self.round, "bye": self.bye,
                "decided": self.decided, "result": self.result, "game": self.game_id, "label": self.label,
                "sides": [side.as_dict() for side in self.sides]}


@dataclass
class BracketColumn:
    title: str
    bracket: str
    round: int
    block: str = ""  # the bracket it belongs to beside the main one: "Places 5-8", "Consolation"
    matches: list[BracketMatch] = field(default_factory=list)

    def as_dict(self) -> dict[str, Any]:
        return {"title": self.title, "bracket": self.bracket, "round": self.round, "block": self.block,
                "matches": [m.as_dict() for m in self.matches]}


def _block_of(match: Match) -> tuple[int, str]:
    """Where a single elimination's match is drawn: (order, title); the main bracket's
    (and its third-place match, beside the final) first, with no title."""
    if match.bracket == "consolation":
        return 10**9, "Consolation"
    if match.bracket == "placement" and match.block is not None and match.block != (3, 4):
        return match.block[0], f"Places {match.block[0]}-{match.block[1]}"
    return 0, ""


def _match_label(match: Match) -> str:
    if match.bracket != "placement" or match.places is None:
        return ""
    low, high = match.places
    return "Third place" if (low, high) == (3, 4) else f"Places {low}-{high}" if high == low + 1 else ""


def _round_title(bracket: str, number: int, last: int, double: bool) -> str:
    if bracket == "final":
        return "Grand final"
    if bracket == "reset":
        return "Grand final reset"
    prefix = "" if not double else ("Winners " if bracket == "winners" else "Losers ")
    if bracket == "losers":
        return "Losers final" if number == last else f"Losers round {number}"
    from_end = last - number
    if from_end == 0:
        return f"{prefix}final".capitalize() if double else "Final"
    if from_end == 1 and not double:
        return "Semi-finals"
    if from_end == 2 and not double:
        return "Quarter-finals"
    return f"{prefix}round {number}".capitalize() if double else f"Round {number}"


def _event_rounds(matches: list[Match], paired: dict[int, int], seeds: int) -> dict[int, int | None]:
    """match id -> the event's round it is (or will be) played in: its pairing's round once
    paired, else the round after its two players are known (every playable match is paired
    in the next round); None for a walkover (a bye: never played). A placement match's
    round in its own bracket is not the event's (with 6 players the match for places 5-6 is
    the bracket's round 3, played in round 2, beside the semi-finals). For placement
    columns: a consolation bracket's "first-loss" places are not foreseen."""
    memo: dict[int, int | None] = {}
    ready: dict[int, int | None] = {}  # match id -> when its players go on (None: an empty place)

    def side(kind: str, ref: int) -> int | None:
        if kind == "seed":
            return 0 if ref <= seeds else None
        if kind not in ("winner", "loser", "first-loss"):
            return None
        played = when(ref)
        if played is None:  # a walkover: its winner goes on with nobody to beat, its loser is nobody
            return ready.get(ref) if kind == "winner" else None
        return played

    def when(match_id: int) -> int | None:
        if match_id not in memo:
            match = matches[match_id]
            sides = [side(kind, ref) for kind, ref in match.sources]
            known = [r for r in sides if r is not None]
            ready[match_id] = max(known, default=None)
            played = not match.void and (match_id in paired or (not match.walkover and len(known) == 2))
            memo[match_id] = (paired.get(match_id) or max(known) + 1) if played else None
        return memo[match_id]

    return {match.id: when(match.id) for match in matches}


def _placement_title(rounds: list[int | None]) -> str:
    """A placement column by the event's rounds it is played in ("Round 2"), "Byes" when
    it holds only walkovers."""
    played = sorted({r for r in rounds if r is not None})
    if not played:
        return "Byes"
    return f"Round {played[0]}" if len(played) == 1 else f"Rounds {played[0]}-{played[-1]}"


def bracket_is_drawn(section: Section) -> bool:
    return format_of(section).has_bracket and section.entries.filter(seed__isnull=False).count() >= 2


def bracket(section: Section) -> list[BracketColumn]:
    """The bracket as columns, first round on the left: byes shown as byes, winners
    marked, the grand final and its reset in their own columns, the third-place match
    beside the final; then single elimination's other placement brackets ("Places 5-8")
    and its consolation bracket, each a block of columns of its own.
    Empty until the section starts (seeds are set then)."""
    fmt = format_of(section)
    played = fmt.bracket(section) if bracket_is_drawn(section) else None
    if played is None:
        return []
    who = people(section)
    pairings = {p.pk: p for p in section.pairings.filter(bracket_match__isnull=False).select_related("round")}
    event_round = _event_rounds(played.matches, {cast(int, p.bracket_match): p.round.number for p in pairings.values()},
                                len(core.seeded_users(section)))
    slots = core.bracket_view(section, played)
    double = fmt.has_losers_bracket
    blocks = {slot.match_id: _block_of(played.matches[slot.match_id]) for slot in slots}
    last: defaultdict[tuple[str, str], int] = defaultdict(int)
    for slot in slots:
        last[blocks[slot.match_id][1], slot.bracket] = max(last[blocks[slot.match_id][1], slot.bracket], slot.round)
    final_round = last["", "winners"]
    columns: dict[tuple[str, str, int], BracketColumn] = {}
    order = {"winners": 0, "losers": 1, "final": 3, "reset": 4}
    rounds_in: defaultdict[tuple[str, str, int], list[int | None]] = defaultdict(list)

    def drawn_order(slot: core.BracketSlot) -> tuple:
        places = played.matches[slot.match_id].places or (0, 0)  # 5-6 above 7-8
        return blocks[slot.match_id], order.get(slot.bracket, 9), slot.round, places, slot.match_id

    for slot in sorted(slots, key=drawn_order):
        match = played.matches[slot.match_id]
        block = blocks[slot.match_id][1]
        # The third-place match sits beside the final.
        key = ("", "winners", final_round) if match.places == (3, 4) and not block else (block, slot.bracket, slot.round)
        column = columns.get(key)
        if column is None:
            title = "" if key[1] == "placement" else _round_title(key[1], key[2], last[key[0], key[1]], double)
            column = columns[key] = BracketColumn(title, key[1], key[2], block)
        if key[1] == "placement":
            rounds_in[key].append(event_round[slot.match_id])
        bye = slot.walkover and slot.decided
        sides = []
        for user_id, known in zip(slot.players, match.ready, strict=True):
            if user_id is None:
                label = "bye" if bye or known else "to be decided"  # known: a place left empty
                sides.append(BracketSide(None, label))
            else:
                person = who.get(user_id)
                sides.append(BracketSide(person, person.name if person else "?",
                                         winner=slot.decided and slot.winner == user_id))
        pairing = pairings.get(slot.pairing_id) if slot.pairing_id else None
        column.matches.append(BracketMatch(
            slot.match_id, slot.bracket, slot.round, sides, slot.decided, bye,
            pairing_id=slot.pairing_id, game_id=_watch_game_id(pairing) if pairing else None,
            result=_result_words(pairing, who.get(pairing.first_id), who.get(pairing.second_id or -1))
            if pairing else "",
            label="Consolation final" if key[1] == "consolation" and key[2] == last[key[0], key[1]] else _match_label(match),
        ))
    # A placement block's columns hold several finals (5-6, 7-8): titled by the event's round
    # they are played in, the number the rounds list and the notices use.
    for key, rounds in rounds_in.items():
        columns[key].title = _placement_title(rounds)
    linked = [shown for column in columns.values() for shown in column.matches if shown.game_id]
    moved = set(Game.objects.filter(pk__in=[m.game_id for m in linked], ply__gt=0).values_list("pk", flat=True))
    for shown in linked:
        shown.replayable = shown.game_id in moved
    return list(columns.values())


def bracket_json(section: Section) -> dict[str, Any]:
    return {"section": section.pk, "format": section.format, "columns": [c.as_dict() for c in bracket(section)]}


# -- crosstable -----------------------------------------------------------------------------

#: FIDE's crosstable notation: over the board 1, ½, 0; forfeits + and -.
def _cell(points: float, played: bool) -> str:
    if not played:
        return "+" if points >= 1 else "-"
    return "1" if points >= 1 else "½" if points > 0 else "0"


@dataclass
class CrosstableRow:
    person: Person
    number: int  # the player's number in the table (their seed)
    cells: list[str]  # one per opponent number; "X" (own), "" (not played yet)
    points: float
    rank: int | None
    #: (round number, points) of each round the player sat out (an odd field's bye): its
    #: points are in ``points`` and in no cell, so the page shows them in a column of their own
    byes: list[tuple[int, float]] = field(default_factory=list)
    withdrawn: bool = False  # left mid-event: the row's empty cells are forfeits to come, not games

    @property
    def bye(self) -> str:
        """The bye column's cell: "1 (R3)", both cycles' byes space-separated; "" for none."""
        return " ".join(f"{_cell(points, True)} (R{number})" for number, points in self.byes)

    def as_dict(self) -> dict[str, Any]:
        return {"number": self.number, "player": self.person.as_dict(), "cells": self.cells,
                "byes": [{"round": number, "points": points} for number, points in self.byes],
                "points": self.points, "rank": self.rank}


def crosstable(section: Section) -> list[CrosstableRow]:
    """Round robin: one row per player in seed order; each cell what the row's player
    scored against the column's (both cycles of a double round robin, space-separated).
    Cells from the section's results, points and places from its table: one computation
    (core.section_results), so the crosstable and the standings always agree."""
    seeds = core.seeded_users(section)
    if not seeds:
        return []
    who = people(section)
    results = core.section_results(section)
    against = results.against
    table = {row.user_id: row for row in core.standings(section)}
    gone = withdrawn_ids(section)
    rows = []
    for seed in sorted(seeds):
        user_id = seeds[seed]
        mine = against.get(user_id, {})
        cells = ["X" if other == user_id else " ".join(_cell(points, played) for points, played in mine.get(other, []))
                 for other in (seeds[s] for s in sorted(seeds))]
        standing = table.get(user_id)
        rows.append(CrosstableRow(who[user_id], seed, cells, standing.points if standing else 0.0,
                                  standing.rank if standing else None, results.byes.get(user_id, []),
                                  withdrawn=user_id in gone))
    return rows


def crosstable_has_byes(rows: list[CrosstableRow]) -> bool:
    """Whether the crosstable needs its bye column: someone has sat a round out."""
    return any(row.byes for row in rows)


def crosstable_json(section: Section) -> dict[str, Any]:
    rows = crosstable(section)
    return {"section": section.pk, "format": section.format, "cycles": section.cycles,
            "players": [row.person.as_dict() | {"number": row.number} for row in rows],
            "rows": [row.as_dict() for row in rows]}


@dataclass(frozen=True)
class RoundCell:
    """A Swiss crosstable's cell: the row's player in one round."""

    opponent: int | None  # the opponent's starting number, SNo (None: a bye, or not paired)
    opponent_name: str
    first: bool | None  # moved first (None: no opponent)
    result: str  # _cell's 1, ½, 0, + or - (a bye's points too); "" while the game is on
    bye: bool = False
    resigned_unplayed: bool = False  # the forfeit was a resignation before any move

    @property
    def words(self) -> str:
        """The cell in words, for its tooltip and screen readers ("" when not paired)."""
        if self.bye:
            return f"Bye: {self.result}"
        if self.opponent is None:
            return ""
        result = {"1": "won", "½": "drew", "0": "lost", "+": "won by forfeit", "-": "lost by forfeit"}.get(
            self.result, "game on")
        if self.resigned_unplayed and self.result in ("+", "-"):
            result += ": resigned before any move"
        return (f"Against SNo {self.opponent}, {self.opponent_name}, "
                f"{'moving first' if self.first else 'moving second'}: {result}")


@dataclass(frozen=True)
class RoundCrosstableRow:
    number: int | None  # the player's starting number, SNo: their seed, as the players list numbers them
    person: Person
    rank: int
    points: float
    cells: list[RoundCell]  # one per round started, in order
    withdrawn: bool = False  # left mid-event: not paired in the rounds after


def round_crosstable(section: Section) -> list[RoundCrosstableRow]:
    """A Swiss's crosstable (FIDE's layout for a Swiss, as Swiss-Manager prints it): a row
    per player in standing order with its place (Rk.) and starting number (SNo, the seed:
    the players list's and the round preview's number, fixed for the whole event), a column
    per round started, each cell the opponent's SNo, who moved first and the result. Rows,
    order and points from the table (core.standings, so the two agree), cells from the
    pairings' sides (PairingPlayer)."""
    if section.format != Section.Format.SWISS or not section.current_round:
        return []
    table = list(core.standings(section))
    number = {user_id: seed for seed, user_id in core.seeded_users(section).items()}
    who = people(section)
    gone = withdrawn_ids(section)
    sides: dict[int, dict[int, PairingPlayer]] = defaultdict(dict)
    for side in PairingPlayer.objects.filter(round__section=section, round__number__lte=section.current_round) \
            .select_related("round", "pairing"):
        sides[side.user_id][side.round.number] = side

    def cell(side: PairingPlayer | None) -> RoundCell:
        if side is None:  # withdrawn by then, or entered later
            return RoundCell(None, "", None, "")
        if side.opponent_id is None:  # the bye's points, as the round robin's bye column says them
            return RoundCell(None, "", None, "" if side.points is None else _cell(side.points, True), bye=True)
        points = "" if side.points is None else _cell(side.points, side.played)
        other = who.get(side.opponent_id)
        return RoundCell(number.get(side.opponent_id), other.name if other else "", side.moves_first, points,
                         resigned_unplayed=side.pairing.resigned_before_any_move)

    return [
        RoundCrosstableRow(number.get(row.user_id), who.get(row.user_id) or Person(row.user_id, row.user.username,
                                                                               row.user.name, None),
                           row.rank, row.points,
                           [cell(sides[row.user_id].get(n)) for n in range(1, section.current_round + 1)],
                           withdrawn=row.user_id in gone)
        for row in table
    ]


# -- a level match --------------------------------------------------------------------------


def level_match_words(section: Section) -> str:
    """How a pairing played as a match (best of N, all N, the official match) that ends
    level is settled, in words ("": single games). Any N can end level at tic-tac-toe,
    where games are often drawn (1-1 and a draw in a best of 3); an even N also by games
    won alone (2-2 in a best of 4). league/formats/matches.py scores it as a drawn
    pairing; a knockout plays it again (docs/competitions.md, "Matches")."""
    rule_set = section.rule_set
    if rule_set.match_format == RuleSet.MatchFormat.SINGLE:
        return ""
    n, half = rule_set.match_games, rule_set.match_games // 2
    match = f"a best of {n}" if rule_set.match_format == RuleSet.MatchFormat.BEST_OF else f"{n} games all played"
    if rule_set.match_format == RuleSet.MatchFormat.OFFICIAL:
        level = "level on games won (drawn games can leave it level)"
    elif n % 2 == 0:
        level = f"level on games won (as {half}-{half} in {match}, or with drawn games)"
    else:
        level = f"level on games won (as {half}-{half} and a drawn game in {match})"
    replays = format_of(section).drawn_game_replays
    if replays is not None:
        return (f"A match that ends {level} is played again with the first move swapped, up to {replays} times; "
                "then the higher seed goes through (a draw in the table).")
    return f"A match that ends {level} is a drawn pairing: half a point each."


# -- standings ------------------------------------------------------------------------------


@dataclass
class StandingRow:
    rank: int
    person: Person
    points: float
    tiebreaks: list[float]
    played: int
    wins: int
    draws: int
    losses: int
    rating: float | None
    final: bool
    on_fire: bool = False  # arena: on a winning streak, scoring double
    paused: Paused | None = None  # a running arena: not paired until they are back
    #: A knockout (its table shows progress, not points): still in or out, in words
    status: str = ""
    #: The place the table shows: the rank, or for a knockout the place once decided (None: open)
    place: int | None = None
    still_in: bool = False  # a knockout: not knocked out yet
    #: (round number, points) of each bye that scored: points with no game, said beside the
    #: player (``bye_note``), since they can rank a player above others who won more games
    byes: list[tuple[int, float]] = field(default_factory=list)
    #: The rounds won by forfeit: points with no game over the board, so in no W column
    #: (an arena's 6 points beside 0 wins and 2 draws read as a wrong sum)
    forfeit_wins: list[int] = field(default_factory=list)
    #: A table ranked by points: withdrawn after the start, in words ("withdrew in round 3:
    #: not paired again"), else "": the row read as a player still in (organiser probe)
    withdrawn_note: str = ""

    @property
    def forfeit_note(self) -> str:
        """'won round 7 by forfeit', 'won rounds 7 and 8 by forfeit'; "" for none."""
        rounds = [str(number) for number in self.forfeit_wins]
        if not rounds:
            return ""
        which = f"round {rounds[0]}" if len(rounds) == 1 else f"rounds {', '.join(rounds[:-1])} and {rounds[-1]}"
        return f"won {which} by forfeit"

    @property
    def bye_note(self) -> str:
        """"1 point from a bye in round 3", "2 points from byes in rounds 2 and 7"; "" for none."""
        if not self.byes:
            return ""
        rounds = [str(number) for number, _ in self.byes]
        which = f"a bye in round {rounds[0]}" if len(rounds) == 1 else \
            f"byes in rounds {', '.join(rounds[:-1])} and {rounds[-1]}"
        return f"{points_words(sum(points for _, points in self.byes))} from {which}"


def points_words(points: float) -> str:
    """Points as people write them: "1 point", "½ point", "1½ points", "2 points"."""
    whole = int(points)
    half = points - whole >= 0.5
    number = f"{whole or ''}½" if half else f"{whole}"
    return f"{number} point{'' if points <= 1 else 's'}"


def forfeit_wins(section: Section) -> dict[int, list[int]]:
    """user id -> the numbers of the rounds they won by forfeit, in round order."""
    R = Pairing.Result
    won: dict[int, list[int]] = defaultdict(list)
    for number, first, second, result in section.pairings.filter(
            result__in=[R.FIRST_FORFEIT_WIN, R.SECOND_FORFEIT_WIN]).order_by("round__number", "board").values_list(
            "round__number", "first_id", "second_id", "result"):
        winner = first if result == R.FIRST_FORFEIT_WIN else second
        if winner is not None:
            won[winner].append(number)
    return won


def withdrawn_ids(section: Section) -> set[int]:
    """The players withdrawn after the start (seeded): those before it are in no table."""
    return set(section.entries.filter(status=Entry.Status.WITHDRAWN, seed__isnull=False)
               .values_list("user_id", flat=True))


def withdrawn_notes(section: Section) -> dict[int, str]:
    """user id -> "withdrew in round 3: not paired again" for each player withdrawn after
    the start (the round: the last one started by then), with what the format does with
    their rounds still to come (``after_withdrawal``)."""
    started = list(section.round_set.filter(started_at__isnull=False).values_list("number", "started_at"))
    after = format_of(section).after_withdrawal
    notes = {}
    for user_id, when in section.entries.filter(status=Entry.Status.WITHDRAWN, seed__isnull=False).values_list(
            "user_id", "withdrawn_at"):
        number = max((n for n, at in started if when is None or (at is not None and at <= when)), default=None)
        notes[user_id] = f"withdrew{f' in round {number}' if number else ''}: {after}"
    return notes


def scored_byes(section: Section) -> dict[int, list[tuple[int, float]]]:
    """user id -> (round number, points) of each bye that scored (a round with no
    opponent: an odd field's, or a late entrant's), in round order."""
    byes: dict[int, list[tuple[int, float]]] = defaultdict(list)
    for user_id, number, points in (
        PairingPlayer.objects.filter(round__section=section, opponent__isnull=True, points__gt=0)
        .order_by("round__number").values_list("user_id", "round__number", "points")
    ):
        byes[user_id].append((number, points or 0.0))  # (points__gt=0: never None)
    return byes


def tiebreak_columns(section: Section) -> list[TiebreakColumn]:
    """The section's tie-breaks in the organiser's order (none for a format that ranks
    without them)."""
    fmt = format_of(section)
    if not fmt.default_tiebreaks:
        return []
    return [TiebreakColumn(name, TIEBREAK_LABELS.get(name, name), TIEBREAK_MEANINGS.get(name, name))
            for name in fmt.tiebreak_order(section)]


#: The standings' Games column, in the key beside the table.
GAMES_MEANING = ("Played over the board: a forfeit or a bye scores points but is no game played (a game ended "
                 "before any move, even by a resignation, is a forfeit)")


@dataclass(frozen=True)
class StandingsKey:
    """What a standings table's headings mean, said beside it: a touch screen shows no
    tooltip. ``won_column``: False when "wins" is one of the tie-breaks, whose column
    shows the same number (games won over the board) as W would."""

    entries: list[tuple[str, str]]  # (heading, meaning), in the columns' order
    order: str  # "Players level on points are ranked by BH Cut-1, then Buchholz, then SB." ("": none)
    won_column: bool
    #: A knockout's table: Place and Standing instead of points (StandingRow.status)
    knockout: bool = False
    #: Why a bye's points can rank a player above others who won more games ("": nobody had one)
    byes: str = ""


def _meaning_in_key(column: TiebreakColumn) -> str:
    """The tooltip's meaning without the heading said twice ("Buchholz: Buchholz: ...")."""
    meaning = column.meaning.removeprefix(f"{column.label}: ")
    return meaning[:1].upper() + meaning[1:]


#: A knockout's table, said beside it: how far each player got, no points.
KNOCKOUT_KEY = [
    ("#", "The place, once decided: a player still in, or still playing for places, shows a dash (not decided "
          "yet); players knocked out in the same round share a place"),
    ("Standing", "Still in, and the round they play next; or the round they were knocked out in"),
    ("Games", "Pairings played over the board (a drawn game replayed counts once; a forfeit or a bye is none)"),
    ("W, D, L", "Won, drawn and lost over the board: a pairing drawn every replay and decided by seed is a "
                "draw, though the higher seed goes through"),
]
KNOCKOUT_ORDER = ("Players are listed by how far they got: those still in first, by the round they have reached, "
                  "then those knocked out, by the round they went out in; level there, by seed.")


def byes_key(rows: list[StandingRow]) -> str:
    """Under a table where someone had a bye (StandingRow.bye_note says whose, under their
    name): a bye scores without a game, so it can rank a player above others who won more
    games. "" when nobody had one."""
    worth = {points for row in rows for _, points in row.byes}
    if not worth:
        return ""
    scores = ("1 point, as a win does" if worth == {1.0} else "½ point, as a draw does" if worth == {0.5}
              else "points")
    return (f"A bye (sitting out a round when the number of players is odd) scores {scores}, without a game: "
            f"so a player who had one can rank above players who won more games (the bye is said under their "
            f"name).")


#: The standings' mark of a paused arena player, said in the key.
PAUSED_MEANING = ("Not paired until they press “I'm back” (after a game lost without a move, or for a break); "
                  "they keep their points and place")


#: The standings' mark of a player withdrawn mid-event, said in the key.
WITHDREW_MEANING = ("Left the section after it started: the games they played count, and they keep their "
                    "points and place in the table")


def standings_key(columns: list[TiebreakColumn], *, streaks: bool = False, knockout: bool = False,
                  rows: list[StandingRow] | None = None, tie_order: str = "", points: str = "") -> StandingsKey:
    """The key of a standings table with these tie-break columns (tiebreak_columns);
    ``streaks``: a row shows an arena's 🔥 (on a winning streak); ``knockout``: the
    table of a bracket, by progress (no points); ``rows``: the table's (a bye among them
    is explained, and a paused arena player's mark); ``tie_order``: how a format without
    columns breaks ties (its ``tie_order``); ``points``: how a game scores, where not 1, ½, 0
    (the format's ``points_meaning``)."""
    if knockout:
        return StandingsKey(list(KNOCKOUT_KEY), KNOCKOUT_ORDER, True, knockout=True)
    byes = byes_key(rows or [])
    won_column = all(column.name != "wins" for column in columns)
    entries = [("Points", points)] if points else []
    entries += [("🔥", "On a winning streak (two wins or more in a row): each game scores double, a win 4 "
                     "and a draw 2, until a draw or a loss ends the streak")] if streaks else []
    if any(row.paused for row in rows or ()):
        entries.append(("paused", PAUSED_MEANING))
    if any(row.withdrawn_note for row in rows or ()):
        entries.append(("withdrew", WITHDREW_MEANING))
    entries += [(column.label, _meaning_in_key(column)) for column in columns]
    entries.append(("Games", GAMES_MEANING))
    if won_column:
        entries.append(("W, D, L", "Games won, drawn and lost over the board"))
    else:
        entries.append(("D, L", "Games drawn and lost over the board (games won: Wins)"))
    labels = [column.label for column in columns]
    # Level on every tie-break too, they share the place (1, 1, 1 in a three-way tie): said,
    # or a table of equal rows read as broken.
    order = (f"Players level on points are ranked by {', then '.join(labels)}; level on "
             f"{'that' if len(labels) == 1 else 'all of them'} too, they share the place.") if labels else tie_order
    return StandingsKey(entries, order, won_column, byes=byes)


def knockout_progress(section: Section) -> dict[int, Progress] | None:
    """A knockout's players' progress (the format's ``progress``), a pairing drawn every
    replay and decided by seed said in words ("through on seed" / "out on seed"); None
    for a format ranked by points. What its table and its podium say instead of points."""
    progress = format_of(section).progress(section)
    if progress is None:
        return None
    decided = section.pairings.filter(status=Pairing.Status.FINISHED, bracket_match__isnull=False).values_list(
        "flags", "first_id", "second_id", "first_points", "second_points", "round__number")
    notes: dict[int, list[str]] = defaultdict(list)
    for flags, first, second, first_points, second_points, number in decided:
        if SEED_DECIDED not in flags or second is None:
            continue
        ahead, behind = (first, second) if (first_points or 0) > (second_points or 0) else (second, first)
        notes[ahead].append(f"through on seed in round {number} (drawn every replay)")
        notes[behind].append(f"out on seed in round {number} (drawn every replay)")
    # A withdrawal knocks a player out by forfeit: "Eliminated in the semi-finals" alone read
    # as a lost game to those who never saw one played.
    for user_id in section.entries.filter(status=Entry.Status.WITHDRAWN).values_list("user_id", flat=True):
        if "withdrew" not in progress.get(user_id, Progress("", False, None)).words:  # said with what it forfeits
            notes[user_id].append("withdrew")
    return {user_id: replace(p, words="; ".join([p.words, *notes[user_id]])) if notes.get(user_id) else p
            for user_id, p in progress.items()}


def standings(section: Section) -> list[StandingRow]:
    """The section's table (Standing rows, rewritten with every result); a running
    arena marks who is on a winning streak (the format's ``live_standings``); a
    knockout's rows say how far each player got, and show a place only once decided."""
    who = people(section)
    ratings = dict(section.entries.values_list("user_id", "rating"))
    live = format_of(section).live_standings(section)
    on_fire = {row.user_id for row in live or () if row.on_fire}
    paused = paused_players(section)
    progress = knockout_progress(section)
    names = [column.name for column in tiebreak_columns(section)]
    byes = scored_byes(section) if progress is None else {}  # a knockout's table shows no points
    forfeits = forfeit_wins(section) if progress is None else {}
    withdrawn = withdrawn_notes(section) if progress is None else {}  # a knockout's Standing says it
    rows = []
    for row in core.standings(section):
        mine = progress.get(row.user_id) if progress is not None else None
        place = row.rank if mine is None or row.final else mine.place
        rows.append(StandingRow(
            row.rank, who.get(row.user_id) or Person(row.user_id, row.user.username, row.user.name, None),
            row.points, [row.tiebreaks.get(name, 0.0) for name in names], row.played, row.wins,
            row.draws, row.losses, ratings.get(row.user_id), row.final, on_fire=row.user_id in on_fire,
            paused=paused.get(row.user_id), status=mine.words if mine else "", place=place, still_in=bool(mine and mine.still_in),
            byes=byes.get(row.user_id, []), forfeit_wins=forfeits.get(row.user_id, []),
            withdrawn_note=withdrawn.get(row.user_id, "")))
    return rows


# -- rounds, games, clocks ------------------------------------------------------------------


def _watch_game_id(pairing: Pairing) -> int | None:
    """The game to watch for a pairing: its game, or its match's latest game."""
    if pairing.game_id:
        return pairing.game_id
    if pairing.match_id:
        return Game.objects.filter(match_id=pairing.match_id).order_by("-number_in_match", "-pk") \
            .values_list("pk", flat=True).first()
    return None


@dataclass
class BoardView:
    pairing: Pairing
    board: int
    first: Person | None  # the pairing's first and second player (its result reads from first's side)
    second: Person | None
    result: str  # in words, with the winner's name
    in_play: bool
    game_id: int | None
    shown: list[Person | None]  # the two players in the order they really move
    clocks: list[str]  # clock left of ``shown`` ("" without a game clock)
    to_move: str  # the username whose turn it is, in play
    to_move_name: str  # and the name the pages show
    reasons: list[dict[str, str]] = field(default_factory=list)  # why this pairing: [{code, text}]
    # Per ``shown``: its clock counts the first move's no-show grace, not the game clock
    # ("4:57" beside "3:00" on a 3-minute game read as a wrong clock: a walkthrough).
    on_first_move: list[bool] = field(default_factory=lambda: [False, False])
    # An elimination pairing drawn and played again: the drawn games (or matches), in order,
    # each as ("game" or "match", id). The board shows its latest game only; these are the others.
    drawn_before: list[tuple[str, int]] = field(default_factory=list)
    # Its game has a move to replay: one lost before any move (a forfeit) has none.
    replayable: bool = False

    @property
    def moves_first(self) -> str:
        return self.shown[0].username if self.shown[0] else ""

    @property
    def clock_of(self) -> dict[str, str]:
        """username -> clock left, for the players whose game has a clock."""
        return {p.username: c for p, c in zip(self.shown, self.clocks, strict=True) if p and c}


_REPLAYED = re.compile(r"^drawn, replayed \((game|match) (\d+)\)$")


def drawn_before(flags: list[str]) -> list[tuple[str, int]]:
    """The drawn games (or matches) a pairing replayed, read from its flags
    (results._replay_drawn writes "drawn, replayed (game 51)"), oldest first."""
    return [(m[1], int(m[2])) for flag in flags if (m := _REPLAYED.match(flag))]


def _result_words(pairing: Pairing, first: Person | None, second: Person | None) -> str:
    R = Pairing.Result
    name: dict[str, Person | None] = {
        R.FIRST_WON: first, R.FIRST_FORFEIT_WIN: first, R.SECOND_WON: second, R.SECOND_FORFEIT_WIN: second,
    }
    winner = name.get(pairing.result)
    if pairing.result in (R.FIRST_WON, R.SECOND_WON) and SEED_DECIDED in pairing.flags:
        return f"{winner.name if winner else '?'} through on seed (drawn every replay)"
    if pairing.result in (R.FIRST_WON, R.SECOND_WON):
        return f"{winner.name if winner else '?'} won"
    if pairing.result in (R.FIRST_FORFEIT_WIN, R.SECOND_FORFEIT_WIN):
        if pairing.resigned_before_any_move:
            loser = second if pairing.result == R.FIRST_FORFEIT_WIN else first
            return f"{winner.name if winner else '?'} won by forfeit: {loser.name if loser else '?'} resigned before any move"
        return f"{winner.name if winner else '?'} won by forfeit"
    words: dict[str, str] = {R.DRAW: "draw", R.BYE: "bye", R.DOUBLE_FORFEIT: "both forfeited"}
    return words.get(pairing.result, "")


def _clocks(game: Game | None, now: datetime) -> tuple[dict[int, str], set[int | None]]:
    """user id -> clock left, as the game page shows it (games.time_controls.clock_text):
    the seat to move counts down to its deadline (games.selectors.deadline_for, which
    allows the first move's no-show grace and a per-move limit; this page once counted
    the game clock alone, and showed 0:00 on a game in its grace), the other shows its
    game clock; "" where the rules have no clock for it."""
    if game is None:
        return {}, set()
    moving = set(game.to_move or []) if game.status == Game.Status.ACTIVE else set()
    out: dict[int, str] = {}
    movers: set[int | None] = set()
    for seat in game.seats.all():
        ms = seat.clock_ms
        if seat.number in moving:
            movers.add(seat.user_id)
            deadline = game_selectors.deadline_for(game, seat)
            if deadline is not None:
                ms = int((deadline - now).total_seconds() * 1000)
        if seat.user_id is not None:
            out[seat.user_id] = "" if ms is None else clock_text(ms)
    return out, movers


def boards(round_: Round, people_by_id: dict[int, Person], *, now: datetime | None = None) -> list[BoardView]:
    now = now or timezone.now()
    pairings = list(round_.pairings.order_by("board").prefetch_related("players"))
    game_ids = {p.pk: _watch_game_id(p) for p in pairings}
    games = {g.pk: g for g in Game.objects.filter(pk__in=[g for g in game_ids.values() if g])
             .select_related("rule_set").prefetch_related("seats")}
    names = {user_id: person.name for user_id, person in people_by_id.items()}
    views = []
    for pairing in pairings:
        game_id = game_ids[pairing.pk]
        game = games.get(game_id) if game_id else None
        in_play = pairing.status == Pairing.Status.IN_PLAY
        clocks, movers = _clocks(game, now) if in_play else ({}, set())
        first, second = people_by_id.get(pairing.first_id), people_by_id.get(pairing.second_id or -1)
        # Who really moves first: the pairing's first player unless the rule set's decider
        # (a coin, the seed, rock-paper-scissors) drew the other.
        swapped = any(side.moves_first and side.user_id == pairing.second_id for side in pairing.players.all())
        shown = [second, first] if swapped else [first, second]
        to_move = ", ".join(p.username for p in shown if p and p.user_id in movers)
        to_move_name = ", ".join(p.name for p in shown if p and p.user_id in movers)
        graced = game is not None and game.on_first_step and bool(game.rule_set.no_show_seconds)
        views.append(BoardView(
            pairing, pairing.board, first, second, _result_words(pairing, first, second), in_play,
            game_id, shown, [clocks.get(p.user_id, "") if p else "" for p in shown], to_move, to_move_name,
            explain.in_words(pairing.reasons, names),
            [graced and bool(p and p.user_id in movers and clocks.get(p.user_id)) for p in shown],
            drawn_before(pairing.flags), replayable=game is not None and game.ply > 0,
        ))
    return views


@dataclass
class RoundView:
    round: Round
    boards: list[BoardView]


#: The rounds a section page lists unless asked for all: an hour's arena plays a hundred
#: waves, and every live refresh used to send every board of every one.
ROUNDS_SHOWN = 10


def rounds(section: Section, *, now: datetime | None = None, latest: int | None = None) -> list[RoundView]:
    """Every round (or the ``latest`` ones), latest first, with its boards (results,
    watch links, clocks)."""
    who = people(section)
    chosen = core.rounds(section).order_by("-number")
    return [RoundView(r, boards(r, who, now=now)) for r in (chosen[:latest] if latest else chosen)]


def next_game(*, section: Section, user: User | Any) -> Pairing | None:
    """The signed-in player's pairing in this section that is in play or waiting."""
    if not getattr(user, "is_authenticated", False):
        return None
    return (
        section.pairings.filter(Q(first=user) | Q(second=user),
                                status__in=[Pairing.Status.PENDING, Pairing.Status.IN_PLAY])
        .select_related("round", "first", "second").order_by("round__number", "pk").first()
    )


def next_game_view(*, section: Section, user: User | Any) -> dict[str, Any] | None:
    pairing = next_game(section=section, user=user)
    if pairing is None:
        return None
    opponent = pairing.second if pairing.first_id == user.pk else pairing.first
    return {"pairing": pairing, "round": pairing.round, "opponent": opponent, "game_id": _watch_game_id(pairing),
            "moves_first": pairing.players.filter(user=user, moves_first=True).exists()}


def next_scheduled_round(section: Section) -> Round | None:
    return section.round_set.filter(status=Round.Status.SCHEDULED).order_by("number").first()


# -- a player's rounds (iCalendar) ---------------------------------------------------------


@dataclass
class PlayerRound:
    round: Round
    section: Section
    board: int | None
    opponent: str  # "" before the pairing, "bye" for a bye


def player_rounds(user: User) -> list[PlayerRound]:
    """Every round of the sections the player has entered (and not left), with their
    board and opponent once paired."""
    rows = list(core.upcoming_rounds_for(user))
    paired = {
        pp.round_id: pp for pp in PairingPlayer.objects.filter(user=user, round__in=[r.pk for r in rows])
        .select_related("opponent", "pairing")
    }
    out = []
    for round_ in rows:
        side = paired.get(round_.pk)
        opponent = "" if side is None else "bye" if side.opponent is None else side.opponent.username
        out.append(PlayerRound(round_, round_.section, side.pairing.board if side else None, opponent))
    return out


def calendar_feed(user: User | Any) -> CalendarFeed | None:
    """The player's private calendar link, if they have made one."""
    if not getattr(user, "is_authenticated", False):
        return None
    return CalendarFeed.objects.filter(user=user).first()


def calendar_owner(token: str) -> User | None:
    """Whose rounds a private calendar link shows; None for a wrong or replaced token."""
    feed = CalendarFeed.objects.select_related("user").filter(token=token, user__is_active=True).first()
    return feed.user if feed else None


# -- multi-stage events (docs/competitions.md, "Multi-stage events") -----------------------


@dataclass(frozen=True)
class StageInfo:
    """Where a section stands in its tournament's stages, in words."""

    number: int
    of: int
    text: str  # "Stage 2 of 2: single elimination of the top 8 from Groups"
    previous: Section | None
    next: Section | None


def stage_info(section: Section) -> StageInfo | None:
    """The section's place among its tournament's stages (None: a section on its own)."""
    following = section.next_stages.order_by("pk").first()
    if section.previous_stage_id is None and following is None:
        return None
    before, stage = 0, section.previous_stage
    while stage is not None:
        before, stage = before + 1, stage.previous_stage
    after, later = 0, following
    while later is not None:
        after, later = after + 1, later.next_stages.order_by("pk").first()
    number, of = before + 1, before + 1 + after
    if section.previous_stage is not None:
        described = format_of(section).describe(section).lower()
        coming = core.going_through_words(section)
        verb = "plays" if coming.startswith("the winner") else "play"  # "the winner of each group plays"
        text = f"Stage {number} of {of} ({described}): {coming} {verb} here"
    else:
        assert following is not None  # a stage with neither end is no stage (above)
        going = core.going_through_words(following, named=False)
        verb = "goes" if going.startswith("the winner") else "go"
        text = f"Stage {number} of {of}: {going} {verb} through to {following.name}"
    return StageInfo(number, of, text, section.previous_stage, following)


def in_stage_order(sections: list[Section]) -> list[Section]:
    """A tournament's sections with each later stage right after the one it follows,
    each given its ``stage`` (stage_info) for the tournament page."""
    by_id = {s.pk: s for s in sections}
    ordered: list[Section] = []

    def place(section: Section) -> None:
        if section in ordered:
            return
        if section.previous_stage_id in by_id:
            place(by_id[section.previous_stage_id])
        ordered.append(section)

    for section in sections:
        place(section)
    for section in ordered:
        section.stage = stage_info(section)  # type: ignore[attr-defined]  # shown on the page
    return ordered


def group_tables(section: Section, rows: list[StandingRow]) -> list[tuple[str, list[StandingRow]]]:
    """A section played in groups: each group's standings ("A", rows by rank); [] otherwise."""
    if section.groups <= 1 or not rows or any(row.person.seed is None for row in rows):
        return []
    tables: dict[int, list[StandingRow]] = defaultdict(list)
    for row in rows:
        tables[snake_group(row.person.seed or 0, section.groups)].append(row)
    return [(group_letter(group), sorted(tables[group], key=lambda row: row.rank)) for group in sorted(tables)]
