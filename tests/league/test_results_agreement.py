"""Every view of a section's results agrees, after every result: random events of every
format (odd fields and byes, withdrawals, forfeits, no-shows, draws, adjudications,
corrections, late entries in Swiss and arena) played through the services, and after
each step the page's standings, the API's JSON, the CSV export, the crosstable (round
robin) and the bracket (elimination) are checked against each other and against a
count made here straight from the pairings. Forfeits and byes are never rated."""

from __future__ import annotations

import csv
import io
import random
from collections import defaultdict
from datetime import timedelta
from itertools import pairwise

import pytest
from django.utils import timezone

from accounts.errors import ServiceError
from games import services as game_services
from games.models import Game
from league import competitions as cs
from league import exports
from league.competitions import event_selectors
from league.competitions.pairings import SEED_DECIDED
from league.models import Entry, Pairing, RatingChange, Section
from tests.factories import players, section_with
from tests.support import api_as as api

from .support import one_move

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("eager_celery")]

FORMATS = ("single-elimination", "double-elimination", "round-robin", "swiss", "arena")
SEEDS = range(3)
PLAYED = (Pairing.Result.FIRST_WON, Pairing.Result.SECOND_WON, Pairing.Result.DRAW)
UNPLAYED = (Pairing.Result.BYE, Pairing.Result.FIRST_FORFEIT_WIN, Pairing.Result.SECOND_FORFEIT_WIN,
            Pairing.Result.DOUBLE_FORFEIT)
#: Classic squares (1-9) in turn order: with no line made on the way, the ninth move draws.
DRAWING_LINE = (5, 1, 3, 7, 4, 6, 2, 8, 9)
CELL_POINTS = {"1": 1.0, "½": 0.5, "0": 0.0, "+": 1.0, "-": 0.0}


# -- what the views say -----------------------------------------------------------------


def _row(username, rank, points, played, wins, draws, losses):
    return (username, int(rank), float(points), int(played), int(wins), int(draws), int(losses))


def standings_everywhere(section):
    """(page, API JSON, API CSV, export CSV) standings as comparable rows."""
    page = [_row(r.person.username, r.rank, r.points, r.played, r.wins, r.draws, r.losses)
            for r in event_selectors.standings(section)]
    client = api()
    json_rows = [_row(r["username"], r["rank"], r["points"], r["played"], r["wins"], r["draws"], r["losses"])
                 for r in client.get(f"/api/v1/sections/{section.pk}/standings/").json()]
    api_csv = client.get(f"/api/v1/sections/{section.pk}/standings/", {"format": "csv"}).content.decode()

    def from_csv(text):
        return [_row(r["username"], r["rank"], r["points"], r["played"], r["wins"], r["draws"], r["losses"])
                for r in csv.DictReader(io.StringIO(text))]

    return page, json_rows, from_csv(api_csv), from_csv(exports.standings_csv(section))


def counted_from_pairings(section):
    """Each player's points and games over the board, counted straight from the scored
    pairings (not through the code under test)."""
    points: dict[str, float] = defaultdict(float)
    games: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0, 0])  # played, wins, draws, losses
    byes: dict[str, float] = defaultdict(float)
    for p in Pairing.objects.filter(section=section, status=Pairing.Status.FINISHED).select_related("first", "second"):
        sides = [(p.first.username, p.first_points)]
        if p.second is not None:
            sides.append((p.second.username, p.second_points))
        elif p.result == Pairing.Result.BYE:
            byes[p.first.username] += p.first_points
        # A knockout pairing drawn every replay goes to the higher seed (1-0) but was drawn.
        seed_decided = SEED_DECIDED in p.flags
        for username, scored in sides:
            points[username] += scored or 0.0
            if p.result in PLAYED:
                row = games[username]
                row[0] += 1
                row[2 if seed_decided else 1 if scored == 1 else 2 if scored == 0.5 else 3] += 1
    return points, games, byes


def bracket_outs(section):
    """Who the API's bracket shows as out, and its champion (None while it runs)."""
    data = api().get(f"/api/v1/sections/{section.pk}/bracket/").json()
    losses: dict[str, int] = defaultdict(int)
    lost_final: set[str] = set()
    everyone: set[str] = set()
    for column in data["columns"]:
        for match in column["matches"]:
            names = [side["player"]["username"] for side in match["sides"] if side["player"]]
            everyone.update(names)
            if not match["decided"] or match["bye"] or len(names) < 2:
                continue
            winners = [side["player"]["username"] for side in match["sides"] if side["player"] and side["winner"]]
            for name in names:
                if name not in winners:
                    losses[name] += 1
                    if match["bracket"] in ("final", "reset"):
                        lost_final.add(name)
    double = section.format == Section.Format.DOUBLE_ELIMINATION
    out = {u for u, n in losses.items() if n >= (2 if double else 1)}
    if double and section.grand_final == "single":
        out |= lost_final
    return out, everyone


def assert_every_view_agrees(section, where):
    section.refresh_from_db()
    page, json_rows, api_csv, export_csv = standings_everywhere(section)
    assert page == json_rows == api_csv == export_csv, where
    table = {row[0]: row for row in page}
    points, games, byes = counted_from_pairings(section)
    for username, row in table.items():
        assert list(row[3:]) == games[username], (where, username)
    if section.format in (Section.Format.ROUND_ROBIN, Section.Format.SWISS):
        assert {u: row[2] for u, row in table.items()} == {u: points[u] for u in table}, where
        assert set(points) <= set(table), where
    if section.format == Section.Format.ARENA:
        assert set(points) <= set(table), where
    ranks = [row[1] for row in page]
    assert ranks == sorted(ranks) and ranks[:1] in ([], [1]), where
    if section.format != Section.Format.ARENA and not section.format.endswith("elimination"):
        by_rank = sorted(page, key=lambda r: r[1])
        assert all(a[2] >= b[2] for a, b in pairwise(by_rank)), where  # better places, more points
    if section.format == Section.Format.ROUND_ROBIN:
        crosstable = api().get(f"/api/v1/sections/{section.pk}/crosstable/").json()
        assert crosstable == event_selectors.crosstable_json(section)
        for row in crosstable["rows"]:
            username = row["player"]["username"]
            standing = table.get(username)
            assert standing is not None, (where, username)
            assert (row["points"], row["rank"]) == (standing[2], standing[1]), (where, username)
            cells = sum(CELL_POINTS[mark] for cell in row["cells"] if cell != "X" for mark in cell.split())
            assert cells + byes[username] == standing[2], (where, username, row["cells"])
    if section.format.endswith("elimination") and page:
        out, everyone = bracket_outs(section)
        still_in = everyone - out
        best = {row[0] for row in page if row[1] == 1}
        if section.status == Section.Status.FINISHED:
            assert len(still_in) == 1 and best == still_in, where  # the champion alone first
        else:
            # Listed by how far they got: everyone still in above everyone out.
            assert best <= still_in, where
            assert all(table[u][1] > table[v][1] for u in out for v in still_in), where


# -- playing ----------------------------------------------------------------------------


def _game_of(pairing):
    if pairing.game_id:
        return Game.objects.get(pk=pairing.game_id)
    return Game.objects.filter(match_id=pairing.match_id, status=Game.Status.ACTIVE).first()


def _win(pairing, rng):
    game = _game_of(pairing)
    if game is None or game.status != Game.Status.ACTIVE:
        return
    game = one_move(game, seed=rng.randrange(1000))
    if game.status == Game.Status.ACTIVE:
        loser = game.seats.get(number=rng.choice([0, 1])).user
        game_services.resign(game_id=game.pk, user=loser)


def _draw(pairing, rng):
    """Play the drawing line (a line made on the way ends it as a win instead)."""
    game = _game_of(pairing)
    for cell in DRAWING_LINE:
        if game is None or game.status != Game.Status.ACTIVE:
            return
        mover = game.seats.get(number=game.to_move[0]).user
        game = game_services.submit_move(game_id=game.pk, user=mover, ply=game.ply, move={"cell": cell})


def _step(section, rng, extra_players, log):
    """One random thing happens to the section."""
    fmt = section.format
    elimination = fmt.endswith("elimination")
    in_play = list(Pairing.objects.filter(section=section, status=Pairing.Status.IN_PLAY).order_by("pk"))
    roll = rng.random()
    active = list(Entry.objects.filter(section=section, status__in=["registered", "checked-in"]).select_related("user"))
    if roll < 0.06 and len(active) > 2:
        user = rng.choice(active).user
        log.append(f"withdraw {user.username}")
        cs.withdraw(section=section, user=user, reason="Had to leave.")
        return
    if roll < 0.14 and extra_players and fmt in ("swiss", "arena"):
        user = extra_players.pop()
        try:
            cs.register(section=section, user=user)
            log.append(f"late entry {user.username}")
        except ServiceError:
            log.append(f"late entry refused {user.username}")
        return
    if roll < 0.22 and fmt in ("round-robin", "swiss", "arena"):
        done = list(Pairing.objects.filter(section=section, status=Pairing.Status.FINISHED, second__isnull=False,
                                           game__isnull=False, result__in=PLAYED).order_by("pk"))
        if done:
            pairing, result = rng.choice(done), rng.choice(["1-0", "0-1", "draw"])
            log.append(f"correct {pairing.pk} to {result}")
            cs.correct_result(pairing_id=pairing.pk, result=result, reason="The scoresheet says so.")
            return
    if not in_play:
        log.append("sweep")
        cs.sweep()
        return
    pairing = rng.choice(in_play)
    roll = rng.random()
    if roll < 0.55:
        log.append(f"win {pairing.pk}")
        _win(pairing, rng)
    elif roll < 0.72:
        log.append(f"draw {pairing.pk}")
        _draw(pairing, rng)
    elif roll < 0.84:
        loser = rng.choice(["first", "second"] if elimination else ["first", "second", "both"])
        log.append(f"forfeit {pairing.pk} {loser}")
        cs.forfeit_pairing(pairing_id=pairing.pk, loser=loser, reason="Not at the board.")
    elif roll < 0.92:
        log.append(f"adjudicate {pairing.pk}")
        cs.adjudicate_pairing(pairing_id=pairing.pk, result=rng.choice(["1-0", "0-1"]))
    elif roll < 0.97:
        log.append(f"adjudicate {pairing.pk} (game begun)")
        game = _game_of(pairing)
        if game is not None and game.ply == 0:
            one_move(game, seed=rng.randrange(1000))
        cs.adjudicate_pairing(pairing_id=pairing.pk, result=rng.choice(["1-0", "0-1"]))
    else:  # the games' clock sweep: every game not begun is a no-show, a flag falls on the others
        log.append("no-shows")
        game_services.flag_expired_clocks(now=timezone.now() + timedelta(days=1))


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("fmt", FORMATS)
def test_every_view_of_the_results_agrees_after_every_step(make_player, fmt, seed):
    rng = random.Random(f"{fmt}/{seed}")
    n = rng.randint(3, 7)
    options: dict = {"rated": True}
    if fmt == "swiss":
        options |= {"rounds": rng.randint(2, 4), "late_entry_rounds": 1, "bye_points": rng.choice([1, 0.5])}
    elif fmt == "round-robin":
        n = min(n, 5) if seed == 1 else n
        options |= {"cycles": 2 if seed == 1 else 1, "bye_points": rng.choice([1, 0.5, 0])}
        if seed == 2 and n >= 4:  # two groups, snake-seeded, each its own round robin
            options["groups"] = 2
    elif fmt == "double-elimination":
        options["grand_final"] = "single" if seed == 1 else "reset"
    elif fmt == "single-elimination":
        options["placements"] = rng.choice(["none", "third", "all"])
        options["consolation"] = options["placements"] != "all" and n >= 5 and rng.random() < 0.5
    elif fmt == "arena":
        options["arena_duration"] = timedelta(hours=1)
    section = section_with(players(make_player, n), format=fmt, **options)
    extra = players(make_player, 2, prefix="late")
    log: list[str] = [f"{n} players, {options}"]
    assert_every_view_agrees(section, log)
    for step in range(200):
        section.refresh_from_db()
        if section.status in (Section.Status.FINISHED, Section.Status.CANCELLED):
            break
        if fmt == "arena" and step == 20:  # time is up: the games in play still finish it
            Section.objects.filter(pk=section.pk).update(starts_at=timezone.now() - timedelta(hours=2))
            log.append("time up")
            cs.sweep()
        else:
            _step(section, rng, extra, log)
        assert_every_view_agrees(section, log)
    section.refresh_from_db()
    assert section.status == Section.Status.FINISHED, log
    assert section.standings.filter(final=True).count() == section.standings.count() > 0
    # Forfeits, no-shows and byes are never rated; every game played over the board is.
    for pairing in Pairing.objects.filter(section=section):
        games = Game.objects.filter(pk=pairing.game_id) if pairing.game_id else Game.objects.none()
        rated = RatingChange.objects.filter(game__in=games).exists()
        if pairing.result in UNPLAYED:
            assert not rated, (pairing.result, log)
        elif pairing.result in PLAYED and pairing.game_id and games.get().ply > 0:
            assert rated, (pairing.result, log)
