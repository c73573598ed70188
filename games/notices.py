"""The notices games write (accounts/notices.py stores them, in the caller's
transaction): a challenge (or rematch) received, accepted or declined, the next game of a match started, a
game ended, and your turn in a correspondence-paced game (docs/accounts.md, "Notices")."""

from __future__ import annotations

import re

from accounts.models import User
from accounts.notices import Kind, NoticeSpec, notify, notify_many

from .models import Game, RuleSet
from .rules import get_variant
from .rules.results import SEAT_WORDS, rules_reason, with_names
from .time_controls import is_correspondence


def game_name(rule_set: RuleSet) -> str:
    """What people call the game: the variant's own name ("Tactic-Toe"), or a house
    rule set's name with its variant ("Club blitz (Tactic-Toe)")."""
    variant = get_variant(rule_set.variant).display_name
    return variant if rule_set.is_standard else f"{rule_set.name} ({variant})"


def _url(game: Game) -> str:
    return f"/play/{game.pk}/"


def _name(user_id: int | None) -> str:
    user = User.objects.select_related("profile").filter(pk=user_id).first() if user_id is not None else None
    return user.name if user is not None else "Someone"


def challenge_received(game: Game, opponent: User) -> None:
    what = "offers you a rematch of" if game.rematch_of_id else "challenges you to a game of"
    notify(recipient=opponent, kind=Kind.CHALLENGE_RECEIVED, cause=f"challenge:{game.pk}",
           message=f"{_name(game.created_by_id)} {what} {game_name(game.rule_set)}.", url=_url(game), game=game.pk)


def challenge_declined(game: Game, by: User) -> None:
    if game.created_by_id is None:
        return
    notify(recipient=game.created_by_id, kind=Kind.CHALLENGE_DECLINED, cause=f"challenge-declined:{game.pk}",
           message=f"{by.name} declined your challenge to {game_name(game.rule_set)}.", url=_url(game), game=game.pk)


def challenge_accepted(game: Game, by: User) -> None:
    if game.created_by_id is None or game.created_by_id == by.pk:
        return
    notify(recipient=game.created_by_id, kind=Kind.CHALLENGE_ACCEPTED, cause=f"challenge-accepted:{game.pk}",
           message=f"{by.name} accepted your challenge to {game_name(game.rule_set)}: the game has started.",
           url=_url(game), game=game.pk)


def next_match_game_started(game: Game) -> None:
    notify_many([
        NoticeSpec(seat.user_id, Kind.GAME_STARTED, f"game-started:{game.pk}",
                   f"Game {game.number_in_match} of your match has started.", _url(game), {"game": game.pk})
        for seat in game.seats_in_hand if seat.user_id is not None
    ])


def game_ended(game: Game) -> None:
    """Each player of a finished game, unless it was against the AI (its player was
    there: the AI answers at once)."""
    seats = game.seats_in_hand
    if any(seat.ai_level for seat in seats):
        return
    # The names from the seats in hand (users and profiles loaded with the locked game):
    # a query per name here made a game's last move wait (docs/benchmarks-live.md).
    names = {seat.number: seat.user.name for seat in seats if seat.user is not None}
    # Who called it off: an accepted game's aborter, or the maker of a challenge never
    # accepted (cancelled); None when the platform did (an organiser's operation).
    caller = game.aborted_by_id or (game.created_by_id if game.started_at is None else None)
    specs = []
    for seat in seats:
        if seat.user_id is None or (game.status == Game.Status.ABORTED and seat.user_id == caller):
            continue  # nobody is told what they did themselves
        opponent = next((names.get(other.number, "Someone") for other in seats if other.number != seat.number),
                        "Someone")
        if game.status == Game.Status.ABORTED and caller is not None:
            if game.started_at is None:
                outcome = f"{opponent} called off their challenge to {game_name(game.rule_set)}."
            else:
                outcome = f"{opponent} aborted your game of {game_name(game.rule_set)} before the first move."
            specs.append(NoticeSpec(seat.user_id, Kind.GAME_ENDED, f"game-ended:{game.pk}", outcome, _url(game),
                                    {"game": game.pk, "result": game.result, "winner_seat": game.winner_seat}))
            continue
        if game.status == Game.Status.ABORTED:
            outcome = f"Your game of {game_name(game.rule_set)} with {opponent} was aborted."
        elif game.result == "draw" and game.ply == 0:  # nobody moved: no draw played (a tournament's double forfeit)
            outcome = f"Your game of {game_name(game.rule_set)} with {opponent} ended without a move."
        elif game.result == "draw":
            outcome = f"Your game of {game_name(game.rule_set)} with {opponent} was drawn."
        elif game.winner_seat == seat.number:
            outcome = f"You beat {opponent} at {game_name(game.rule_set)}."
        else:
            outcome = f"{opponent} beat you at {game_name(game.rule_set)}."
        reason = f" {_reason_for(game, names, seat.number)}" if game.end_reason else ""
        specs.append(NoticeSpec(seat.user_id, Kind.GAME_ENDED, f"game-ended:{game.pk}", f"{outcome}{reason}",
                                _url(game), {"game": game.pk, "result": game.result,
                                             "winner_seat": game.winner_seat}))
    notify_many(specs)


def _reason_for(game: Game, names: dict[int, str], reader: int) -> str:
    """The game's stored reason as the player in seat ``reader`` reads it. The platform's
    ("Player 2 resigned."): their own seat is "you" ("You resigned.", "abandoned: you did
    not move"), the other by name. The engine's ("Player One has three in a row."): each
    player by name and letter, as the game page's result says it ("Sam (X) has ...")."""
    reason = game.end_reason
    if any(words in reason for words in SEAT_WORDS):
        variant = get_variant(game.variant)
        view = variant.view(variant.load(game.state), None)
        reason = rules_reason(view, {"reason": reason}, [names.get(0), names.get(1)])
    own = f"Player {reader + 1}"
    reason = re.sub(rf"(^|[.!?] ){own}\b", r"\1You", reason)  # starting a sentence
    return with_names(reason.replace(own, "you"), names)


def your_turn(game: Game, mover_seat: int) -> None:
    """The players to move after a move of a correspondence-paced game, once per ply."""
    if not is_correspondence(game.rule_set):
        return
    notify_many([
        NoticeSpec(seat.user_id, Kind.YOUR_TURN, f"your-turn:{game.pk}:{game.ply}",
                   f"Your turn in {game_name(game.rule_set)} (move {game.ply + 1}).", _url(game),
                   {"game": game.pk, "ply": game.ply})
        for seat in game.seats_in_hand
        if seat.user_id is not None and seat.number in game.to_move and seat.number != mover_seat
    ])
