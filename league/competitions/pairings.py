"""A pairing's rows and games: the pairings a format's boards become (games, byes,
forfeits), their games created through games.services, a pairing scored, a player's games
stopped. Helpers of the services: they run inside the caller's transaction."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from accounts.models import User
from games import services as game_services
from games.models import Game, Match
from league.models import Pairing, PairingPlayer, Round, Section, Tournament
from league.ratings import services as rating_services

from .formats import Board


def _new_pairing(section: Section, round_: Round, board: int, first: int, second: int | None, now: datetime,
                 *, flags: list[str] | None = None, reasons: list[dict] | None = None, bracket: Any = None,
                 play: bool = True) -> Pairing:
    pairing = Pairing.objects.create(
        round=round_, section=section, board=board, first_id=first, second_id=second, flags=flags or [],
        reasons=reasons or [],
        bracket_match=bracket.id if bracket is not None else None,
        bracket=bracket.bracket if bracket is not None else "",
        bracket_round=bracket.round if bracket is not None else None,
    )
    PairingPlayer.objects.create(round=round_, pairing=pairing, user_id=first, opponent_id=second, moves_first=True)
    if second is not None:
        PairingPlayer.objects.create(round=round_, pairing=pairing, user_id=second, opponent_id=first,
                                     moves_first=False)
    if second is None:
        score(pairing, Pairing.Result.BYE, float(section.bye_points), None, played=False, now=now)
    elif play:
        create_games(section, pairing)
    return pairing


def create_games(section: Section, pairing: Pairing) -> None:
    """The pairing's game (or match), first player in seat 0 / match player 0."""
    assert pairing.second_id is not None  # a bye has no game: the callers pair two players
    first, second = User.objects.get(pk=pairing.first_id), User.objects.get(pk=pairing.second_id)
    game = game_services.create_game(creator=first, rule_set=section.rule_set, opponent=second, creator_seat=0,
                                     rated=section.rated, notify=False)
    game_services.accept_challenge(game_id=game.pk, user=second, notify=False)  # a pairing is no invitation
    if game.match_id:
        pairing.match_id = game.match_id  # create_game rated the match's games already
    else:
        pairing.game = game
    pairing.status = Pairing.Status.IN_PLAY
    pairing.save(update_fields=["game", "match", "status"])
    # Who really moves first: the pairing's first player, unless the rule set's decider
    # (seed, coin, rock-paper-scissors) drew otherwise. Swiss colours follow the game.
    seat_zero = game.seats.get(number=0).user_id
    for side in pairing.players.all():
        if side.moves_first != (side.user_id == seat_zero):
            side.moves_first = side.user_id == seat_zero
            side.save(update_fields=["moves_first"])
    tournament = section.tournament
    if section.rated and tournament.rating_period == Tournament.RatingPeriod.TOURNAMENT:
        rating_services.defer_to_period(games=[game], key=tournament.rating_period_key, name=tournament.name)


def create_boards(section: Section, round_: Round, boards: list[Board], now: datetime) -> None:
    """The pairings of the boards a format made: games, byes and forfeits."""
    for board in boards:
        if board.withdrawn:
            _forfeit_pairing(section, round_, board, now)
        else:
            _new_pairing(section, round_, board.number, board.first, board.second, now, flags=list(board.flags),
                         reasons=list(board.reasons), bracket=board.bracket)


def _forfeit_pairing(section: Section, round_: Round, board: Board, now: datetime) -> Pairing:
    """A board with a withdrawn player: scored at once as a forfeit, not played."""
    assert board.second is not None  # a bye is never a forfeit
    pairing = _new_pairing(section, round_, board.number, board.first, board.second, now, bracket=board.bracket,
                           reasons=list(board.reasons), play=False)
    a_out, b_out = board.first in board.withdrawn, board.second in board.withdrawn
    if a_out and b_out:
        score(pairing, Pairing.Result.DOUBLE_FORFEIT, 0.0, 0.0, played=False, now=now)
    elif a_out:
        score(pairing, Pairing.Result.SECOND_FORFEIT_WIN, 0.0, 1.0, played=False, now=now)
    else:
        score(pairing, Pairing.Result.FIRST_FORFEIT_WIN, 1.0, 0.0, played=False, now=now)
    return pairing


#: A knockout pairing drawn every replay: its higher seed goes through, though nobody won
#: a game (no win over the board; the pages say "through on seed").
SEED_DECIDED = "drawn every replay: the higher seed goes through"


def score(pairing: Pairing, result: str, first_points: float, second_points: float | None, *, played: bool,
           now: datetime, won_over_board: int | None = None) -> None:
    pairing.result, pairing.status, pairing.finished_at = result, Pairing.Status.FINISHED, now
    pairing.first_points, pairing.second_points = first_points, second_points
    pairing.save(update_fields=["result", "status", "finished_at", "first_points", "second_points"])
    for side in pairing.players.all():
        mine = first_points if side.user_id == pairing.first_id else second_points
        side.points = mine
        side.played = played
        side.won = played and won_over_board == side.user_id
        side.save(update_fields=["points", "played", "won"])


def games_of(pairing: Pairing) -> list[Game]:
    """A pairing's games: its match's, its one game, or none (a bye, or not created)."""
    if pairing.match is not None:
        return list(pairing.match.games.all())
    return [pairing.game] if pairing.game is not None else []


def stop_games(pairing: Pairing, user: User, *, reason: str, rated: bool | None = None) -> None:
    """End ``user``'s games of a pairing: a begun one is lost by forfeit (games'
    ``forfeit``; ``rated`` False unrates it, None leaves it), one not begun is called off
    (an aborted game is never rated; no abort of the player's is counted)."""
    for game in games_of(pairing):
        if game.status == Game.Status.ACTIVE and game.ply == 0:
            game_services.call_off(game_id=game.pk, reason=reason)
        elif game.status == Game.Status.ACTIVE:
            seat = game.seats.get(user=user).number
            game_services.forfeit(game_id=game.pk, seat=seat, reason=reason, rated=rated)
    match = pairing.match
    if match is not None:  # resigning may have started the match's next game: abort it too
        for game in match.games.filter(status=Game.Status.ACTIVE):
            game_services.call_off(game_id=game.pk, reason=reason)
        Match.objects.filter(pk=match.pk, status=Match.Status.ACTIVE).update(status=Match.Status.ABORTED)


def pairing_for_game(game: Game) -> Pairing | None:
    if game.match_id:
        return Pairing.objects.filter(match_id=game.match_id).first()
    return Pairing.objects.filter(game_id=game.pk).first()
