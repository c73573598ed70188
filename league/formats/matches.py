"""A pairing played as several games: its result is the match's result.

Any format here scores a pairing from one result. When a pairing is a match (best of
N, or T-Tic-T-Tac-Toe's five games) the engine's ``games.rules.match.MatchState`` plays
it; match player 0 is the pairing's first player, 1 its second. ``pairing_points``
turns the finished match into the pairing's points (a match win is worth a game win);
``game_points`` gives the games won, for events that count games instead.

Nothing is imported from the engine: anything with ``is_over``, ``winner`` (0, 1 or
None for a drawn match) and ``score`` (games won by each) will do.
"""

from __future__ import annotations

from typing import Protocol


class MatchResult(Protocol):
    @property
    def is_over(self) -> bool: ...

    @property
    def winner(self) -> int | None: ...

    @property
    def score(self) -> tuple[int, int]: ...


def pairing_points(match: MatchResult, win: float = 1.0, draw: float = 0.5) -> tuple[float, float]:
    """(first player's points, second player's points) for a finished match."""
    if not match.is_over:
        raise ValueError("The match is not over yet.")
    if match.winner is None:
        return (draw, draw)
    return (win, 0.0) if match.winner == 0 else (0.0, win)


def pairing_winner(match: MatchResult) -> int | None:
    """0 (first player), 1 (second) or None (drawn): what a bracket advances."""
    if not match.is_over:
        raise ValueError("The match is not over yet.")
    return match.winner


def game_points(match: MatchResult) -> tuple[int, int]:
    """Games won by the first and second player."""
    return match.score
