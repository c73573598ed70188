"""Reads for competitions: eligibility, brackets, crosstables, standings, "my next game".

Pages, exports and the API read through these; league/competitions/ writes.
Nothing here depends on a section's format: what does is the format's class
(league/competitions/formats/), which reads through these.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from datetime import date, datetime
from typing import Any

from django.db.models import Count, F, OuterRef, Q, QuerySet, Subquery
from django.utils import timezone

from accounts import age
from accounts.models import User
from accounts.services import play_eligibility
from league.formats import tiebreaks
from league.formats.bracket import Knockout
from league.models import (
    LEAGUE_LIST,
    ORGANISER_ROLES,
    ClubMembership,
    Entry,
    League,
    Pairing,
    PairingPlayer,
    Prize,
    Rating,
    Round,
    Season,
    Section,
    Standing,
    Tournament,
)

ACTIVE_ENTRY = (Entry.Status.REGISTERED, Entry.Status.CHECKED_IN)

#: The reasons the services store on a withdrawal they make without one given: the
#: player's own (entries.withdraw), an organiser's (event_services.withdraw_player) and a
#: missed check-in's (rounds.begin_section); the pages and notices tell them apart.
WITHDREW, BY_ORGANISER, NO_CHECK_IN = "Withdrew.", "Withdrawn by the organiser.", "Did not check in."
#: The reason an arena stores on a pause the player asked for (arena_pause.pause_player):
#: their entry box says it; the organisers' players list reads it as a break.
ON_A_BREAK = "You paused."


def age_group_year(section: Section) -> int:
    """The year birth-year groups count from: the section's, the season's, or the start's."""
    if section.age_year:
        return section.age_year
    season = section.tournament.season
    return season.year if season is not None else timezone.localtime(section.starts_at).year


def age_cutoff(section: Section) -> date:
    """The date ``min_age`` / ``max_age`` count ages on: the section's ``age_cutoff``, or
    else the day round 1 starts (``starts_at``, as the birth-year groups count from its
    year when ``age_year`` is empty: age_group_year)."""
    return section.age_cutoff or timezone.localtime(section.starts_at).date()


def frozen_rating(*, user: User, variant: str) -> float | None:
    """The player's current league rating in the variant (None: unrated)."""
    row = Rating.objects.filter(user=user, variant=variant, list_key=LEAGUE_LIST).only("rating").first()
    return None if row is None else row.rating


def stage_refusal(section: Section) -> str:
    """Why nobody registers in ``section``: a later stage of a multi-stage event ("": none)."""
    if section.previous_stage_id is None:
        return ""
    previous = section.previous_stage
    assert previous is not None  # previous_stage_id is set
    return f"This is a later stage: the top players of {previous.name} go through to it."


def going_through_words(section: Section, *, named: bool = True) -> str:
    """Who goes through to a later stage from the stage before it, in words ("the top 2
    of each group of Groups"; ``named``: saying which stage they come from)."""
    previous = section.previous_stage
    assert previous is not None  # a later stage
    source = f" of {previous.name}" if named else ""
    if previous.format == Section.Format.ROUND_ROBIN and previous.groups > 1:
        if section.advance == 1:
            return f"the winner of each group{source}"
        return f"the top {section.advance} of each group{source}"
    return f"the top {section.advance}{source}"


def eligibility_refusal(*, section: Section, user: User, rating: float | None, own: bool = True) -> str:
    """Why ``user`` may not enter ``section``, in words; "" when they may.

    Capacity, windows and duplicates are the register service's; this is the player.
    ``own``: the player asks; else an organiser does (accounts.services.play_eligibility).
    """
    if stage_refusal(section):
        return stage_refusal(section)
    play = play_eligibility(user=user, own=own)
    if not play.allowed:
        return play.reason
    if section.members_only and not ClubMembership.objects.filter(
        club_id=section.tournament.club_id, user=user
    ).exists():
        return f"This section is for members of {section.tournament.club.name}."
    has_age_rule = any(v is not None for v in (section.age_under, section.age_over, section.min_age,
                                               section.max_age))
    if has_age_rule:
        born = user.profile.date_of_birth
        assert born is not None  # play_eligibility made sure there is one
        refusal = age.age_group_refusal(
            born,
            season_year=age_group_year(section) if (section.age_under or section.age_over) else None,
            under=section.age_under,
            over=section.age_over,
            cutoff=age_cutoff(section),
            min_age=section.min_age,
            max_age=section.max_age,
        )
        if refusal:
            return refusal
    if section.rating_min is not None or section.rating_max is not None:
        band = _band_words(section)
        if rating is None:
            if section.rating_min is not None:
                return f"Unrated, and this section is for players rated {band}."
        elif (section.rating_min is not None and rating < section.rating_min) or (
                section.rating_max is not None and rating > section.rating_max):
            return f"Rated {rating:.0f}, and this section is for players rated {band}."
    return ""


def _band_words(section: Section) -> str:
    low, high = section.rating_min, section.rating_max
    if low is not None and high is not None:
        return f"{low} to {high}"
    return f"{low} or more" if low is not None else f"{high} or less"


def organiser_ids(club_id: int) -> set[int]:
    """The user ids of a club's owners and organisers: who hears what an event needs of them."""
    return set(ClubMembership.objects.filter(club_id=club_id, role__in=ORGANISER_ROLES).values_list(
        "user_id", flat=True))


def active_entries(section: Section) -> QuerySet[Entry]:
    return section.entries.filter(status__in=ACTIVE_ENTRY)


def active_user_ids(section: Section, number: int) -> set[int]:
    """The players round ``number`` may pair: entered, not withdrawn, joined by then."""
    return set(active_entries(section).filter(joined_round__lte=number).values_list("user_id", flat=True))


# -- results: the one computation every table, crosstable, export and the API reads ------


@dataclass(frozen=True)
class SectionResults:
    """A section's results as they count now. A result counts in every view the moment
    its pairing is scored (a bye, or a forfeit against a withdrawn player, when its round
    is paired); the Standing table is rewritten from this with each one
    (results.update_standings)."""

    #: user id -> one RoundResult per round 1..rounds (a round not paired: unplayed, 0; a game
    #: not over yet: pending, counted in nothing)
    by_round: dict[int, list[tiebreaks.RoundResult]]
    #: user id -> pairings played over the board: {"played", "wins", "draws", "losses"}, as
    #: played (a knockout pairing drawn every replay and decided by seed: a draw)
    stats: dict[int, dict[str, int]]
    #: user id -> opponent id -> [(points, played over the board)] in round order (crosstable cells)
    against: dict[int, dict[int, list[tuple[float, bool]]]]
    #: user id -> [(round number, points)] of the rounds they had the bye (sat out, paired
    #: with nobody): points no crosstable cell holds
    byes: dict[int, list[tuple[int, float]]] = field(default_factory=dict)

    def points(self, user_id: int) -> float:
        return sum(r.points for r in self.by_round.get(user_id, ()))


def section_results(section: Section, *, up_to: int | None = None) -> SectionResults:
    """Every scored result of the section's rounds 1..``up_to`` (default: every round
    started), from the players' sides of its pairings."""
    last = up_to if up_to is not None else section.current_round
    rows = PairingPlayer.objects.filter(round__section=section, round__number__lte=last, points__isnull=False)
    by_player: dict[int, dict[int, tiebreaks.RoundResult]] = defaultdict(dict)
    stats: dict[int, dict[str, int]] = {}
    against: dict[int, dict[int, list[tuple[float, bool]]]] = defaultdict(lambda: defaultdict(list))
    byes: dict[int, list[tuple[int, float]]] = defaultdict(list)
    sides = list(rows.order_by("round__number").values_list(
        "user_id", "opponent_id", "points", "played", "round__number", "won", "pairing_id"))
    # Who won each pairing over the board: W, D and L count what was played, so a
    # knockout pairing drawn every replay and sent on by seed (points 1-0, ``won`` for
    # nobody: pairings.SEED_DECIDED) is a draw in them, not a win and a loss.
    won_by = {pairing_id: user_id for user_id, *_, won, pairing_id in sides if won}
    for user_id, opponent_id, points, played, number, won, pairing_id in sides:
        assert points is not None  # the filter: points__isnull=False
        over_the_board = played and opponent_id is not None
        by_player[user_id][number] = tiebreaks.RoundResult(opponent_id, points, over_the_board)
        if opponent_id is not None:
            against[user_id][opponent_id].append((points, over_the_board))
        else:  # a side with no opponent: the bye
            byes[user_id].append((number, points))
        if over_the_board:
            row = stats.setdefault(user_id, {"played": 0, "wins": 0, "draws": 0, "losses": 0})
            row["played"] += 1
            row["wins" if won else "losses" if pairing_id in won_by else "draws"] += 1
    entrants = set(section.entries.exclude(status=Entry.Status.WITHDRAWN, seed__isnull=True)
                   .values_list("user_id", flat=True))
    # A game paired and not over (the round in play) counts in nothing yet; a round the
    # player was not paired in is unplayed (tiebreaks.py).
    pending = PairingPlayer.objects.filter(round__section=section, round__number__lte=last, points__isnull=True)
    in_play = tiebreaks.RoundResult(None, 0.0, False, pending=True)
    for user_id, number in pending.values_list("user_id", "round__number"):
        by_player[user_id].setdefault(number, in_play)
    absent = tiebreaks.RoundResult(None, 0.0, False)
    by_round = {
        user_id: [by_player[user_id].get(n, absent) for n in range(1, last + 1)]
        for user_id in entrants | set(by_player)
    }
    return SectionResults(by_round, stats, {user: dict(row) for user, row in against.items()}, dict(byes))


def round_results(section: Section, *, up_to: int | None = None) -> dict[int, list[tiebreaks.RoundResult]]:
    """user id -> one RoundResult per round (1..up_to), absent rounds unplayed with 0:
    the FIDE tie-breaks' input (section_results)."""
    return section_results(section, up_to=up_to).by_round


# -- brackets ---------------------------------------------------------------------------


def seeded_users(section: Section) -> dict[int, int]:
    """seed number -> user id, for everyone seeded at the start."""
    seeded = section.entries.filter(seed__isnull=False).values_list("seed", "user_id")
    return {seed: user_id for seed, user_id in seeded if seed is not None}  # all, by the filter


@dataclass(frozen=True)
class BracketSlot:
    match_id: int
    bracket: str
    round: int
    players: tuple[int | None, int | None]  # user ids (None: a bye or not yet known)
    winner: int | None
    walkover: bool
    decided: bool
    pairing_id: int | None


def bracket_view(section: Section, bracket: Knockout) -> list[BracketSlot]:
    """Every match of the section's bracket (its format's ``bracket``), byes and pending
    ones included, for pages and JSON."""
    users = seeded_users(section)
    pairing_ids = dict(
        Pairing.objects.filter(section=section, bracket_match__isnull=False).values_list("bracket_match", "pk")
    )

    def user(seed: int | None) -> int | None:
        return None if seed is None else users.get(seed)

    slots = []
    for match in bracket.matches:
        if match.void:
            continue
        slots.append(BracketSlot(
            match.id, match.bracket, match.round, (user(match.players[0]), user(match.players[1])),
            user(match.winner), match.walkover, match.decided, pairing_ids.get(match.id),
        ))
    return slots


# -- tables -------------------------------------------------------------------------------


def standings(section: Section) -> QuerySet[Standing]:
    """The table in order: by rank, players sharing one by seed (a knockout's players still
    in the same round listed alphabetically read as an arbitrary order; the prizes go the
    same way, the higher seed first), then by username (an arena's late entry has no seed)."""
    seed = Entry.objects.filter(section_id=OuterRef("section_id"), user_id=OuterRef("user_id")).values("seed")[:1]
    return section.standings.select_related("user").annotate(entry_seed=Subquery(seed)).order_by(
        "rank", F("entry_seed").asc(nulls_last=True), "user__username")


def rounds(section: Section) -> QuerySet[Round]:
    return section.round_set.order_by("number")


def next_pairing_for(user: User) -> Pairing | None:
    """The user's pairing in play or waiting, soonest first ("my next game")."""
    return (
        Pairing.objects.filter(Q(first=user) | Q(second=user), status__in=[Pairing.Status.PENDING,
                                                                            Pairing.Status.IN_PLAY])
        .select_related("round", "section__tournament", "first", "second")
        .order_by("round__starts_at", "pk")
        .first()
    )


def upcoming_rounds_for(user: User, *, after: datetime | None = None) -> QuerySet[Round]:
    """Rounds of sections the user has entered (not withdrawn), for an iCalendar export."""
    sections = Entry.objects.filter(user=user, status__in=ACTIVE_ENTRY).values("section_id")
    rows = Round.objects.filter(section_id__in=sections).select_related("section__tournament")
    if after is not None:
        rows = rows.filter(starts_at__gte=after)
    return rows.order_by("starts_at")


@dataclass(frozen=True)
class SeasonRow:
    user_id: int
    username: str
    points: float
    tournaments: int
    rank: int
    name: str = ""  # what the pages show (the display name), as every other table does


def season_standings(season: Season) -> list[SeasonRow]:
    """Cumulative standings over the season's finished sections (its scoring rule)."""
    totals: dict[int, float] = defaultdict(float)
    played: dict[int, set[int]] = defaultdict(set)
    names: dict[int, str] = {}
    shown: dict[int, str] = {}
    table = list(season.place_points or [])
    rows = Standing.objects.filter(section__tournament__season=season, final=True).values_list(
        "user_id", "user__username", "user__profile__display_name", "points", "rank", "section__tournament_id"
    )
    for user_id, username, display_name, points, rank, tournament_id in rows:
        names[user_id], shown[user_id] = username, display_name or username
        played[user_id].add(tournament_id)
        if season.scoring == Season.Scoring.PLACE_POINTS:
            totals[user_id] += table[rank - 1] if rank - 1 < len(table) else 0
        else:
            totals[user_id] += points
    ordered = sorted(totals, key=lambda u: (-totals[u], names[u]))
    out: list[SeasonRow] = []
    for index, user_id in enumerate(ordered):
        rank = out[-1].rank if out and out[-1].points == totals[user_id] else index + 1
        out.append(SeasonRow(user_id, names[user_id], totals[user_id], len(played[user_id]), rank, shown[user_id]))
    return out


@dataclass(frozen=True)
class LeagueSeason:
    """A season as its league's page lists it: who leads (or won) it, how many of its
    tournaments are published, whether it is on today."""

    season: Season
    leaders: list[SeasonRow]
    tournaments: int
    current: bool


def league_seasons(league: League, *, today: date) -> list[LeagueSeason]:
    """The league's seasons, the latest first, each with its leaders (all tied on the
    top of its standings)."""
    seasons = league.seasons.annotate(published=Count(
        "tournaments", filter=~Q(tournaments__status=Tournament.Status.DRAFT))).order_by("-year", "-starts_on", "-pk")
    out = []
    for season in seasons:
        rows = season_standings(season)
        current = (season.starts_on is not None and season.ends_on is not None
                   and season.starts_on <= today <= season.ends_on)
        out.append(LeagueSeason(season, [r for r in rows if r.rank == 1], season.published, current))  # type: ignore[attr-defined]  # annotated
    return out


def prizes_in_order(section: Section) -> list[Prize]:
    """A section's prizes as they are listed and awarded: the places first (1st, 2nd...),
    then the special prizes (age, then rating groups), each by its place."""
    return sorted(section.prizes.select_related("winner"),
                  key=lambda p: (p.kind != Prize.Kind.PLACE, p.kind, p.place, p.pk))


def section_summary(section: Section) -> dict[str, Any]:
    """Counts for headers and the admin."""
    return {
        "entries": active_entries(section).count(),
        "rounds": section.round_set.count(),
        "games_in_play": section.pairings.filter(status=Pairing.Status.IN_PLAY).count(),
    }
