"""The T-Tic-T-Tac-Toe match (rules 2.00 and 3.x.00) as a pure, serialisable value.

Stages, in order:

1. ``rps``: rock-paper-scissors; a tie is thrown again (2.02(b)). The winner is X.
2. ``classic``: a classic game of tic-tac-toe, X (the rps winner) first (2.03). A cat's
   game sends the match back to ``rps``; whoever wins that is X next (2.03(d) NOTE).
3. ``version``: the classic game's winner chooses Version 1.0 or 2.0 (2.05).
4. ``games``: five 5x5 games, all of them played (3.x.07, 3.x.08). The classic winner
   goes first in game 1 (3.x.03); then the loser of the previous game goes first
   (3.x.06). The letters stay those of the last classic game (3.x.01).
5. ``over``: most games won wins the match.

Decisions (docs/rules/t-tic-t-tac-toe.md): a drawn 5x5 game counts as one of the five
and has no loser, so Player One alternates after it; a match with equal wins after
five games is drawn.

The five-game series is :class:`games.rules.match.MatchState` (format "all", five
games, the loser first, alternate after a draw); this module adds the preliminaries
and the version around it. Players are the match players 0 and 1; in each game
Player One sits at game seat 0 and moves first.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from ...base import Outcome
from ...errors import RuleError
from ...match import MatchRules, MatchState, new_match, require_player

GAMES = 5
VERSIONS = ("1.0", "2.0")
SERIES_RULES = MatchRules(format="all", games=GAMES, first="given", next_first="loser", on_draw="alternate")


@dataclass(frozen=True, slots=True)
class TTTMatch:
    """Where a T-Tic-T-Tac-Toe match stands. Immutable: every change returns a new value.

    ``rps_results`` and ``classic_results`` log every preliminary game's winner (None
    for a rock-paper-scissors tie or a cat's game).
    """

    series: MatchState
    stage: str = "rps"
    x_player: int | None = None
    chooser: int | None = None
    version: str | None = None
    rps_results: tuple[int | None, ...] = ()
    classic_results: tuple[int | None, ...] = ()

    @classmethod
    def new(cls, seed: int | str | None = None) -> TTTMatch:
        return cls(series=new_match(SERIES_RULES, seed=seed))

    # -- what comes next --------------------------------------------------------------

    def next_step(self) -> dict[str, Any]:
        """What is to be played next, JSON-ready."""
        if self.stage == "rps":
            return {
                "stage": "rps",
                "variant": "rock-paper-scissors",
                "text": "Rock-paper-scissors; a tie is thrown again. The winner is X in the classic game.",
            }
        if self.stage == "classic":
            assert self.x_player is not None
            return {
                "stage": "classic",
                "variant": "classic",
                "player_one": self.x_player,
                "x": self.x_player,
                "options": {"symbols": ["X", "O"], "first": "X"},
                "text": f"A classic game; player {self.x_player} is X and goes first.",
            }
        if self.stage == "version":
            return {
                "stage": "version",
                "chooser": self.chooser,
                "versions": list(VERSIONS),
                "text": f"Player {self.chooser}, who won the classic game, chooses Version 1.0 or 2.0.",
            }
        if self.stage == "games":
            number = self.series.next_game
            player_one = self.series.player_one
            assert number is not None and player_one is not None
            return {
                "stage": "game",
                "variant": "t-tic-t-tac-toe",
                "number": number,
                "version": self.version,
                "player_one": player_one,
                "x": self.x_player,
                "options": self.game_options(),
                "text": f"Game {number} of {GAMES}: player {player_one} goes first.",
            }
        return {"stage": "over", "score": list(self.score), "winner": self.winner, "result": self.result}

    def letter(self, player: int) -> str:
        """The letter ``player`` uses for the whole match."""
        if self.x_player is None:
            raise RuleError("no-letters-yet", "The letters are decided by rock-paper-scissors first.")
        return "X" if require_player(player) == self.x_player else "O"

    def game_options(self) -> dict[str, Any]:
        """The t-tic-t-tac-toe options of the next 5x5 game (Player One at seat 0)."""
        if self.stage != "games":
            raise RuleError("no-game-next", "The next step is not a 5x5 game.")
        player_one = self.series.player_one
        assert player_one is not None
        first = self.letter(player_one)
        return {"version": self.version, "symbols": [first, self.letter(1 - player_one)], "first": first}

    # -- reporting results --------------------------------------------------------------

    def record_rps(self, winner: int | None) -> TTTMatch:
        """Rock-paper-scissors ended: ``winner`` is a match player, None for a tie (thrown again)."""
        self._expect("rps")
        if winner is None:
            return replace(self, rps_results=(*self.rps_results, None))
        winner = require_player(winner)
        return replace(self, stage="classic", x_player=winner, rps_results=(*self.rps_results, winner))

    def record_classic(self, winner: int | None) -> TTTMatch:
        """The classic game ended: ``winner`` is a match player, None for a cat's game."""
        self._expect("classic")
        if winner is None:  # 2.03(d): back to rock-paper-scissors
            return replace(self, stage="rps", classic_results=(*self.classic_results, None))
        winner = require_player(winner)
        series = self.series.decide(winner, "won the classic game (3.x.03)")
        return replace(
            self,
            stage="version",
            chooser=winner,
            series=series,
            classic_results=(*self.classic_results, winner),
        )

    def record_rps_outcome(self, outcome: Outcome, seat_of_player0: int = 0) -> TTTMatch:
        """A rock-paper-scissors game's Outcome; ``seat_of_player0`` is where match player 0 sat."""
        if outcome.winner is None:
            return self.record_rps(None)
        return self.record_rps(outcome.winner if require_player(seat_of_player0) == 0 else 1 - outcome.winner)

    def record_classic_outcome(self, outcome: Outcome) -> TTTMatch:
        """A classic game's Outcome, played as next_step() said (X, the rps winner, at seat 0)."""
        self._expect("classic")
        assert self.x_player is not None
        if outcome.winner is None:
            return self.record_classic(None)
        return self.record_classic(self.x_player if outcome.winner == 0 else 1 - self.x_player)

    def choose_version(self, player: int, version: Any) -> TTTMatch:
        """The classic game's winner chooses the version (2.05)."""
        self._expect("version")
        if require_player(player) != self.chooser:
            raise RuleError("not-your-choice", "Only the winner of the classic game chooses the version.")
        if version not in VERSIONS:
            raise RuleError("bad-version", 'The version is "1.0" or "2.0".')
        return replace(self, stage="games", version=version)

    def record_game(self, winner: int | None, reason: str = "") -> TTTMatch:
        """A 5x5 game ended: ``winner`` is a match player, None for a drawn game."""
        self._expect("games")
        if winner is not None:
            winner = require_player(winner)
        series = self.series.record(winner, reason=reason)
        return replace(self, series=series, stage="over" if series.is_over else "games")

    def record_game_outcome(self, outcome: Outcome) -> TTTMatch:
        """A 5x5 game ended with ``outcome`` (its winner a game seat; Player One is seat 0)."""
        self._expect("games")
        winner = None if outcome.winner is None else self.series.player_at(outcome.winner)
        return self.record_game(winner, outcome.reason)

    def _expect(self, stage: str) -> None:
        if self.stage != stage:
            raise RuleError("wrong-stage", f"The match is at stage {self.stage!r}, not {stage!r}.")

    # -- the score -------------------------------------------------------------------------

    @property
    def score(self) -> tuple[int, int]:
        return self.series.score

    @property
    def is_over(self) -> bool:
        return self.stage == "over"

    @property
    def winner(self) -> int | None:
        """The match winner once all five games are played (None while running or when drawn)."""
        return self.series.winner if self.is_over else None

    @property
    def result(self) -> str | None:
        """None while running, else "win" or "draw" (equal wins after five games)."""
        return self.series.result if self.is_over else None

    # -- storage ---------------------------------------------------------------------------------

    def dump(self) -> dict[str, Any]:
        return {
            "stage": self.stage,
            "x_player": self.x_player,
            "chooser": self.chooser,
            "version": self.version,
            "rps_results": list(self.rps_results),
            "classic_results": list(self.classic_results),
            "series": self.series.dump(),
        }

    @classmethod
    def load(cls, data: Mapping[str, Any]) -> TTTMatch:
        try:
            return cls(
                series=MatchState.load(data["series"]),
                stage=str(data["stage"]),
                x_player=data["x_player"],
                chooser=data["chooser"],
                version=data["version"],
                rps_results=tuple(data["rps_results"]),
                classic_results=tuple(data["classic_results"]),
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise RuleError("bad-state", "This is not a stored T-Tic-T-Tac-Toe match.") from exc
