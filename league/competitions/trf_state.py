"""A section as a TRF-16 tournament (league.formats.trf): the one way to build it, for
the arbiter's export (arbiter.section_trf) and as the FIDE Dutch pairer's input
(formats/swiss.py).

Start numbers are the seeds (fixed when the section starts; before it, the order
seeding will give); "w" is the player who moves first. Round 1 gave the first move to
the higher-ranked player on odd boards: FIDE's "white1" (header XXC).
"""

from __future__ import annotations

from league.formats import acceleration, trf
from league.models import Entry, PairingPlayer, Round, Section, Standing

from . import selectors
from .stages import seeded

#: Our results as TRF codes, (first player's, second player's).
TRF_RESULTS = {"1-0": ("1", "0"), "0-1": ("0", "1"), "draw": ("=", "="), "+-": ("+", "-"), "-+": ("-", "+"),
               "--": ("-", "-"), "": (" ", " ")}


def numbered(section: Section) -> list[Entry]:
    """Entries in start-number order: the seeds, or before the start the order seeding will give.
    A player who withdrew before the start (never seeded, so never in a round) is no player of
    the tournament: TRF-16 lists the starting field, and an 001 line of "Z" in every round
    counted in 062 read as an absent player (Swiss-Manager deletes such an entry too).
    Withdrawn after the start, a player keeps their number and their rounds."""
    entries = [e for e in section.entries.select_related("user__profile")
               if e.seed is not None or e.status != Entry.Status.WITHDRAWN]
    in_order = sorted((e for e in entries if e.seed is not None), key=lambda e: e.seed or 0)
    return in_order + seeded(section, [e for e in entries if e.seed is None])


def section_tournament(section: Section, *, before_round: int | None = None) -> trf.Tournament:
    """Every player with their rounds so far (a round in play with its pairings and no
    result yet); a round a player was not paired in is "0000 - Z". With ``before_round``
    r: only rounds 1..r-1, as a pairer sees the section before pairing round r. Headers:
    name, dates, players, rounds, the initial colour (the format's 092 is the arbiter's)
    and, for Baku acceleration, every player's virtual points as XXA lines."""
    entries = numbered(section)
    number = {e.user_id: index for index, e in enumerate(entries, start=1)}
    started = section.round_set.exclude(status=Round.Status.SCHEDULED)
    sides_of = PairingPlayer.objects.filter(round__section=section)
    if before_round is not None:
        started = started.filter(number__lt=before_round)
        sides_of = sides_of.filter(round__number__lt=before_round)
    played = list(started.order_by("number").values_list("number", flat=True))
    sides: dict[tuple[int, int], PairingPlayer] = {
        (side.user_id, side.round.number): side for side in sides_of.select_related("round", "pairing")
    }
    standing = {s.user_id: s for s in Standing.objects.filter(section=section)}
    players = []
    for index, entry in enumerate(entries, start=1):
        games = []
        for round_number in played:
            side = sides.get((entry.user_id, round_number))
            if side is None:
                games.append(trf.Game(None, "-", "Z"))
            elif side.opponent_id is None:
                games.append(trf.Game(None, "-", "U"))
            else:
                pairing = side.pairing
                mine = TRF_RESULTS[pairing.result][0 if entry.user_id == pairing.first_id else 1]
                games.append(trf.Game(number[side.opponent_id], "w" if side.moves_first else "b", mine))
        points = sum(s.points or 0.0 for (u, _), s in sides.items() if u == entry.user_id)
        row = standing.get(entry.user_id) if before_round is None else None
        players.append(trf.Player(number=index, name=entry.user.name, rating=round(entry.rating) if entry.rating else None,
                                  points=points, rank=row.rank if row else 0, rounds=games))
    headers = [
        ("###", "Tic Tac Toe League: w moves first, b second; start numbers are the seeds"),
        ("012", f"{section.tournament.name}: {section.name}"),
        # The real start once play began (round 1 may come early), else the planned one.
        ("042", (section.started_at or section.starts_at).strftime("%Y/%m/%d")),
    ]
    if section.finished_at and before_round is None:
        headers.append(("052", section.finished_at.strftime("%Y/%m/%d")))
    headers.append(("062", str(len(players))))
    if section.total_rounds:
        headers.append(("XXR", str(section.total_rounds)))
    headers.append(("XXC", "white1"))
    if section.acceleration == Section.Acceleration.BAKU and section.total_rounds:
        headers += trf.virtual_point_headers(_baku_points(section, number))
    return trf.Tournament(headers, players)


def _baku_points(section: Section, number: dict[int, int]) -> acceleration.VirtualPoints:
    """C.04.5.1's virtual points, written out (XXA) so that any program reads the same
    values. Group A is the top of round 1's field: the players paired in it (or given
    its bye) once it is paired, before that the ones it will pair; every round, the
    export included, sees the same group A."""
    paired = PairingPlayer.objects.filter(round__section=section, round__number=1).values_list("user_id", flat=True)
    round_one = {number[user] for user in paired if user in number} or {
        number[user] for user in selectors.active_user_ids(section, 1) if user in number}
    order = sorted(number.values())
    return acceleration.baku(order, section.total_rounds or 0, round_one=round_one or None)
