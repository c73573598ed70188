"""Play the moves of a section's players with an AI, as a bot client would: through
games.services.submit_move, the same path as the API. For demos, tests and
bench/competitions.py: it plays people's seats, so use it on test players only.

    python manage.py play_section_bots <section id> [...] --level random [--timeout 600]

It plays until every section is over (or the timeout, in seconds, passes).
"""

from __future__ import annotations

import random
import time
from collections.abc import Iterable
from typing import Any

from django.core.management.base import BaseCommand
from django.db.models import Q

from accounts.errors import ServiceError
from accounts.models import User
from games import matches as game_matches
from games import services as game_services
from games.models import Game, Match, Seat
from games.rules import get_variant
from games.rules.ai import choose_move
from games.rules.variants.t_tic_t_tac_toe.match import TTTMatch
from league.models import Pairing, Section


def play_pending_moves(section_ids: Iterable[int], *, level: str = "random", seed: int = 0,
                       shard: tuple[int, int] = (0, 1)) -> int:
    """One move for every seat to move in the sections' games in play; moves made.
    ``shard`` (k, n): only games whose id is k modulo n, for n driver processes."""
    ids = list(section_ids)
    open_pairings = Pairing.objects.filter(section_id__in=ids, status=Pairing.Status.IN_PLAY)
    games: Iterable[Game] = Game.objects.filter(status=Game.Status.ACTIVE).filter(
        Q(pk__in=open_pairings.values("game_id")) | Q(match_id__in=open_pairings.values("match_id"))
    )
    k, n = shard
    if n > 1:
        games = [game for game in games if game.pk % n == k]
    moves = _choose_versions(open_pairings) if k == 0 else 0
    for game in games:
        variant = get_variant(game.variant)
        for seat in Seat.objects.filter(game=game, number__in=game.to_move, user__isnull=False).select_related("user"):
            state = variant.load(game.state)
            if seat.number not in state.to_move:
                continue
            rng = random.Random(f"{seed}:{game.pk}:{game.ply}:{seat.number}")
            move = choose_move(variant, state, seat.number, level, rng)
            assert seat.user is not None  # the filter: user__isnull=False
            try:
                game = game_services.submit_move(game_id=game.pk, user=seat.user, ply=game.ply, move=move)
            except ServiceError:
                break  # the game moved on meanwhile (a time-out, a result): next pass
            moves += 1
            if game.status != Game.Status.ACTIVE:
                break
    return moves


def _choose_versions(open_pairings: Any) -> int:
    """The official T-Tic-T-Tac-Toe match waits for the classic game's winner to choose
    Version 1.0 or 2.0: the bot chooses 2.0, as the platform's AI does."""
    chosen = 0
    waiting = Match.objects.filter(pk__in=open_pairings.values("match_id"), kind=Match.Kind.OFFICIAL,
                                   status=Match.Status.ACTIVE).exclude(games__status=Game.Status.ACTIVE)
    for match in waiting:
        official = TTTMatch.load(match.state)
        if official.stage != "version" or official.chooser is None:
            continue
        chooser = match.players[official.chooser].get("user")
        try:
            game_matches.choose_match_version(match_id=match.pk, user=User.objects.get(pk=chooser), version="2.0")
        except ServiceError:
            continue
        chosen += 1
    return chosen


def all_finished(section_ids: Iterable[int]) -> bool:
    return not Section.objects.filter(pk__in=list(section_ids)).exclude(
        status__in=[Section.Status.FINISHED, Section.Status.CANCELLED]).exists()


class Command(BaseCommand):
    help = "Play the moves of the given sections' players with an AI until they finish."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("section_ids", nargs="+", type=int)
        parser.add_argument("--level", default="random", choices=["random", "casual", "strong"])
        parser.add_argument("--timeout", type=float, default=600.0)
        parser.add_argument("--shard", default="0/1", help="k/n: play only games whose id is k modulo n.")

    def handle(self, *args: Any, **options: Any) -> None:
        ids = options["section_ids"]
        deadline = time.monotonic() + options["timeout"]
        k, n = (int(part) for part in options["shard"].split("/"))
        total = 0
        while not all_finished(ids) and time.monotonic() < deadline:
            made = play_pending_moves(ids, level=options["level"], shard=(k, n))
            total += made
            if not made:
                time.sleep(0.05)
        self.stdout.write(f"{total} moves; finished: {all_finished(ids)}")
