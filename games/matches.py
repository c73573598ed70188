"""Writes for matches: the only code that creates, advances or changes a Match.

A match is a pure value from the engine (games.rules.match.MatchState, or the official
T-Tic-T-Tac-Toe TTTMatch); these services store it, create each game it asks for, and
feed each finished game back (games/services.py calls ``advance`` when a match game
ends). Match players are 0 (the challenger) and 1.
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping
from typing import Any

from django.db import transaction

from accounts.errors import ServiceError
from accounts.models import User

from . import notices, rule_sets, starting
from .models import Game, Match, RuleSet
from .rules import RuleError
from .rules import match as match_rules
from .rules.variants.t_tic_t_tac_toe.match import TTTMatch
from .starting import Player

#: The version an AI picks when it wins an official T-Tic-T-Tac-Toe match's classic game.
AI_VERSION_CHOICE = "2.0"


def needs_match(rule_set: RuleSet) -> bool:
    return (
        rule_set.match_format != RuleSet.MatchFormat.SINGLE
        or rule_set.decider == RuleSet.Decider.ROCK_PAPER_SCISSORS
    )


def start_match(
    *, rule_set: RuleSet, players: tuple[Player, Player | None], created_by: User, creator_seat: int | None,
    rated: bool = False,
) -> Game:
    """The match and its first game. Against a person that game waits, open, for them
    to accept the challenge (``services.accept_challenge`` starts it; a decline or a
    cancel calls the match off); against the AI it starts at once."""
    opponent = players[1]
    if opponent is None:
        raise ServiceError("bad-opponent", "A match needs a named opponent or an AI.")
    seed = secrets.token_hex(8)
    if rule_set.match_format == RuleSet.MatchFormat.OFFICIAL:
        if rule_set.variant != "t-tic-t-tac-toe":
            raise ServiceError("bad-match-rules", "The official match is T-Tic-T-Tac-Toe's.")
        kind, state = Match.Kind.OFFICIAL, TTTMatch.new(seed).dump()
    else:
        first_by_decider: dict[str, str] = {
            RuleSet.Decider.ROCK_PAPER_SCISSORS: "rock-paper-scissors",
            RuleSet.Decider.COIN: "coin",
            RuleSet.Decider.SEED: "coin",
            RuleSet.Decider.CHALLENGER: "given",
        }
        first = first_by_decider[rule_set.decider]
        single = rule_set.match_format == RuleSet.MatchFormat.SINGLE
        try:
            rules = match_rules.MatchRules(
                format="all" if single else rule_set.match_format,
                games=1 if single else rule_set.match_games,
                first=first,
                next_first=rule_set.next_first,
            )
            series = match_rules.new_match(rules, seed=seed)
        except RuleError as err:
            raise ServiceError(err.code, err.message) from err
        if first == "given":
            series = series.decide(0 if creator_seat in (None, 0) else 1, detail="the challenger's choice")
        kind, state = Match.Kind.SERIES, series.dump()
    match = Match.objects.create(
        rule_set=rule_set, kind=kind, players=[_player_json(p) for p in players], state=state
    )
    return _next_match_game(match, created_by, rated=rated, start=opponent.user is None)


def _player_json(player: Player | None) -> dict[str, Any]:
    assert player is not None
    return {"user": player.user.pk if player.user else None, "ai_level": player.ai_level}


def _player_from_json(data: Mapping[str, Any]) -> Player:
    if data.get("user"):
        return Player(user=User.objects.get(pk=data["user"]))
    return Player(ai_level=data["ai_level"])


def _next_match_game(match: Match, created_by: User | None, *, rated: bool | None = None,
                     start: bool = True) -> Game:
    """Create the game the match asks for next (while a player must choose, the latest game).

    ``rated`` is given for the first game; later games inherit it from the earlier
    ones, so every game of a rated match is rated. ``start``: False leaves it open, a
    challenge to accept (the first game against a person).
    """
    players = [_player_from_json(p) for p in match.players]
    earlier_rated = list(match.games.values_list("rated", flat=True))
    number = len(earlier_rated) + 1
    if rated is None:
        rated = any(earlier_rated)
    variant, options, player_one = _next_game_spec(match)
    if variant is None:
        latest = match.games.order_by("-number_in_match").first()
        assert latest is not None  # the version is chosen once the classic game is over
        return latest
    rule_set = match.rule_set if variant == match.rule_set.variant else _other_variant_rules(match, players, variant)
    game = starting.new_game_row(
        rule_set=rule_set, created_by=created_by, match=match, number=number, variant=variant, options=options
    )
    if rated:
        game.rated = True
        game.save(update_fields=["rated"])
    starting.seat_players(game, {0: players[player_one], 1: players[1 - player_one]})
    if start:
        starting.start(game)
    if number > 1:  # the first starts with the match, which its players just made
        notices.next_match_game_started(game)
    return game


def _other_variant_rules(match: Match, players: list[Player], variant: str) -> RuleSet:
    """A preliminary or deciding game of another variant (rock-paper-scissors, the
    official match's classic game) plays that variant's standard rules, with their clock;
    but a match against the AI on rules without a clock (``untimed``) has none in any
    game: the player chose to play without one."""
    standard = rule_sets.standard_rule_set(variant)
    clockless = not match.rule_set.seconds_per_move and not match.rule_set.seconds_per_game
    if clockless and any(player.ai_level for player in players):
        from .services import practice_rules  # services starts matches: imported when needed

        return practice_rules(standard)
    return standard


def _next_game_spec(match: Match) -> tuple[str | None, dict[str, Any] | None, int]:
    """(variant, options, match player who is Player One) of the next game; variant None
    when the match waits for a choice (the official match's version)."""
    if match.kind == Match.Kind.OFFICIAL:
        official = TTTMatch.load(match.state)
        step = official.next_step()
        if step["stage"] == "version":
            assert official.chooser is not None  # the classic game's winner, set with the stage
            chooser = match.players[official.chooser]
            if chooser.get("ai_level"):  # an AI chooses at once: the newer rules
                official = official.choose_version(official.chooser, AI_VERSION_CHOICE)
                match.state = official.dump()
                match.save(update_fields=["state"])
                return _next_game_spec(match)
            return None, None, 0
        if step["stage"] == "rps":
            return "rock-paper-scissors", None, 0
        return step["variant"], step.get("options"), step["player_one"]
    series = match_rules.MatchState.load(match.state)
    if series.pending_decision == "rock-paper-scissors":
        return "rock-paper-scissors", None, 0
    assert series.player_one is not None
    return match.rule_set.variant, None, series.player_one


def draw_at_start(game: Game) -> None:
    """A match's first game, accepted: the match's own draw for its Player One (a coin or
    a die) is made again now, from a new seed, as a lone game's is
    (``starting.draw_at_start``, which the caller runs too): drawn with the challenge,
    its maker saw it and could cancel and ask again."""
    assert game.match_id is not None  # called only for a game of a match
    match = Match.objects.select_for_update().get(pk=game.match_id)
    if match.kind != Match.Kind.SERIES or game.number_in_match != 1:
        return
    series = match_rules.MatchState.load(match.state)
    if series.rules.first not in ("coin", "die"):
        return
    series = match_rules.new_match(series.rules, seed=secrets.token_hex(8))
    match.state = series.dump()
    match.save(update_fields=["state"])
    assert series.player_one is not None  # a coin or a die decides at once
    first = match.players[series.player_one].get("user")
    if first:
        starting.seat_user(game, first, 0)


def call_off(game: Game) -> None:
    """A game of the match was called off before a move (declined, cancelled, aborted):
    the match is off too, as nothing can follow that game."""
    assert game.match_id is not None  # called only for a game of a match
    Match.objects.filter(pk=game.match_id, status=Match.Status.ACTIVE).update(status=Match.Status.ABORTED)


def advance(game: Game) -> None:
    assert game.match_id is not None  # called only for a game of a match
    match = Match.objects.select_for_update().get(pk=game.match_id)
    seat_to_player = {}
    for seat in game.seats_in_hand:
        for index, data in enumerate(match.players):
            if (seat.user_id and data.get("user") == seat.user_id) or (
                not seat.user_id and not data.get("user") and data.get("ai_level") == seat.ai_level
            ):
                seat_to_player[seat.number] = index
    winner = None if game.winner_seat is None else seat_to_player.get(game.winner_seat)
    if game.variant == "rock-paper-scissors" and winner is None:
        # A tie is thrown again inside the game, so a decider with no winner is one the
        # clock ended (neither threw in time): it decides nothing, and throwing again
        # would start a game every few minutes for two players who are not there.
        match.status = Match.Status.ABORTED
        match.save(update_fields=["status"])
        return
    try:
        if match.kind == Match.Kind.OFFICIAL:
            official = TTTMatch.load(match.state)
            record = {"rps": official.record_rps, "classic": official.record_classic}.get(official.stage)
            official = record(winner) if record else official.record_game(winner, reason=game.end_reason)
            match.state, over = official.dump(), official.is_over
        else:
            series = match_rules.MatchState.load(match.state)
            if series.pending_decision == "rock-paper-scissors" and game.variant == "rock-paper-scissors":
                assert winner is not None  # a decider without one called the match off above
                series = series.decide(winner, detail=f"won rock-paper-scissors (game {game.pk})")
            else:
                series = series.record(winner, result=game.result, reason=game.end_reason)
            match.state, over = series.dump(), series.is_over
    except RuleError as err:
        raise ServiceError(err.code, err.message) from err
    match.status = Match.Status.FINISHED if over else Match.Status.ACTIVE
    match.save(update_fields=["state", "status"])
    if not over:
        _next_match_game(match, None)


@transaction.atomic
def choose_match_version(*, match_id: int, user: User, version: str) -> Game:
    """The official match: the classic game's winner chooses Version 1.0 or 2.0."""
    match = Match.objects.select_for_update().filter(pk=match_id, kind=Match.Kind.OFFICIAL).first()
    if match is None:
        raise ServiceError("no-such-match", "There is no such T-Tic-T-Tac-Toe match.")
    official = TTTMatch.load(match.state)
    players = [p.get("user") for p in match.players]
    if user.pk not in players:
        raise ServiceError("not-a-player", "Only a player of this match can choose.")
    try:
        official = official.choose_version(players.index(user.pk), version)
    except RuleError as err:
        raise ServiceError(err.code, err.message) from err
    match.state = official.dump()
    match.save(update_fields=["state"])
    return _next_match_game(match, user)
