"""Matches and deciders: who is Player One, and a series of games.

Pure and reusable by every rule set. A match is played between two *players*,
numbered 0 and 1 in the order the match was set up (they are not game seats). In each
game one of them is Player One (game seat 0, moves first) and the other Player Two
(game seat 1); :meth:`MatchState.game_seat` and :meth:`MatchState.player_at` translate.

A :class:`MatchState` is an immutable value, like a game state: ``record``, ``decide``
and friends return a new one. Typical use::

    rules = MatchRules(format="best-of", games=3, first="coin", next_first="loser")
    match = new_match(rules, seed="abc")      # the coin is tossed at once
    match.player_one                          # 0 or 1: Player One of game 1
    match = match.record_outcome(outcome)     # an Outcome of game 1, in game seats
    match.score, match.is_over, match.winner

Who is Player One may be decided by:

- ``"rock-paper-scissors"``: the players play the ``rock-paper-scissors`` variant and
  the caller reports its winner with :meth:`MatchState.decide`;
- ``"coin"``: a coin toss from the match's seed (heads: player 0);
- ``"die"``: each player rolls a die from the seed, the higher roll is Player One,
  equal rolls are rolled again;
- ``"higher-seed"``: the better tournament seed (the lower seed number) is Player One;
- ``"organiser"``: the organiser names Player One with :meth:`MatchState.decide`;
- ``"given"``: decided outside this match (a preliminary game, for instance), also
  reported with :meth:`MatchState.decide`.

Chance deciders (coin, die) and the higher seed are resolved at once; the others
leave the match *pending* (``pending_decision`` names the method) until ``decide``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from . import chance
from .base import Outcome
from .errors import RuleError

Player = int  # 0 or 1: the players of the match, in the order the match was set up

#: How Player One of a game may be chosen.
DECIDERS = ("rock-paper-scissors", "coin", "die", "higher-seed", "organiser", "given")
#: Deciders the engine resolves itself, from the seed or the seed ranks.
AUTOMATIC_DECIDERS = ("coin", "die", "higher-seed")
#: Match formats.
FORMATS = ("best-of", "all", "first-to")
#: Who is Player One in the next game.
NEXT_FIRST = ("loser", "winner", "alternate", "same", "decider")
#: Who is Player One after a drawn game when ``next_first`` is "loser" or "winner".
ON_DRAW = ("alternate", "same", "decider")


def _bad_rules(message: str) -> RuleError:
    return RuleError("bad-match-rules", message)


@dataclass(frozen=True, slots=True)
class MatchRules:
    """How a match is played.

    ``format``:

    - ``"best-of"``: at most ``games`` games; the match stops as soon as the leader
      cannot be caught in the games left. Drawn games count as played. If the wins
      are level after ``games`` games the match is drawn.
    - ``"all"``: all ``games`` games are played, even when the match is already
      decided (as T-Tic-T-Tac-Toe's rule 3.1.08 asks); most games won wins.
    - ``"first-to"``: the first player to win ``games`` games wins; drawn games do
      not count, so a drawn game is simply played again (``max_games``, when given,
      caps the number of games; then most wins wins, level is a draw).

    ``first`` decides Player One of the first game. ``next_first`` decides the next
    games: ``"loser"`` (the loser of the previous game), ``"winner"``, ``"alternate"``,
    ``"same"`` or ``"decider"`` (the ``first`` method again, before every game).
    ``on_draw`` applies after a drawn game when ``next_first`` is loser or winner.
    """

    format: str = "best-of"
    games: int = 1
    first: str = "coin"
    next_first: str = "alternate"
    on_draw: str = "alternate"
    max_games: int | None = None

    def __post_init__(self) -> None:
        if self.format not in FORMATS:
            raise _bad_rules(f"A match format is one of {', '.join(FORMATS)}; {self.format!r} is not.")
        if isinstance(self.games, bool) or not isinstance(self.games, int) or not 1 <= self.games <= 99:
            raise _bad_rules("The number of games must be a whole number from 1 to 99.")
        if self.first not in DECIDERS:
            raise _bad_rules(f"Player One is decided by one of {', '.join(DECIDERS)}; {self.first!r} is not.")
        if self.next_first not in NEXT_FIRST:
            raise _bad_rules(
                f"Who goes first next is one of {', '.join(NEXT_FIRST)}; {self.next_first!r} is not."
            )
        if self.on_draw not in ON_DRAW:
            raise _bad_rules(
                f"After a draw, Player One is one of {', '.join(ON_DRAW)}; {self.on_draw!r} is not."
            )
        if self.max_games is not None:
            if self.format != "first-to":
                raise _bad_rules("Only a first-to match takes a maximum number of games.")
            if (
                isinstance(self.max_games, bool)
                or not isinstance(self.max_games, int)
                or not self.games <= self.max_games <= 999
            ):
                raise _bad_rules("The maximum number of games must be a whole number from the target to 999.")

    def as_dict(self) -> dict[str, Any]:
        return {
            "format": self.format,
            "games": self.games,
            "first": self.first,
            "next_first": self.next_first,
            "on_draw": self.on_draw,
            "max_games": self.max_games,
        }

    @classmethod
    def from_dict(cls, data: Any) -> MatchRules:
        """Rules from untrusted JSON; missing keys take their defaults."""
        if data is None:
            return cls()
        if not isinstance(data, Mapping):
            raise _bad_rules("Match rules must be given as named settings.")
        known = {"format", "games", "first", "next_first", "on_draw", "max_games"}
        unknown = sorted(str(k) for k in data if k not in known)
        if unknown:
            raise _bad_rules(f"There is no match rule called {unknown[0]!r}.")
        return cls(**{str(k): v for k, v in data.items()})


@dataclass(frozen=True, slots=True)
class GameResult:
    """One finished game of the match, in match players (not game seats)."""

    player_one: Player
    winner: Player | None
    result: str = "win"  # "win", "draw" or "tie", as the game's Outcome said
    reason: str = ""

    def as_dict(self) -> dict[str, Any]:
        return {
            "player_one": self.player_one,
            "winner": self.winner,
            "result": self.result,
            "reason": self.reason,
        }


@dataclass(frozen=True, slots=True)
class Decision:
    """How Player One of game number ``game`` (from 1) was chosen."""

    game: int
    method: str
    player_one: Player
    detail: str = ""

    def as_dict(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "method": self.method,
            "player_one": self.player_one,
            "detail": self.detail,
        }


@dataclass(frozen=True, slots=True)
class MatchState:
    """Where a match stands. Immutable: every change returns a new MatchState.

    ``player_one`` is Player One of the next game, or None while a decision is
    pending or once the match is over. ``chance_draws`` counts the draws made from
    ``seed`` so far (the next coin or die uses that index).
    """

    rules: MatchRules
    seed: str
    seed_ranks: tuple[int, int] | None = None
    results: tuple[GameResult, ...] = ()
    decisions: tuple[Decision, ...] = ()
    player_one: Player | None = None
    pending_decision: str | None = None
    chance_draws: int = 0

    # -- reading the score -------------------------------------------------------

    @property
    def games_played(self) -> int:
        return len(self.results)

    @property
    def next_game(self) -> int | None:
        """The number (from 1) of the next game, or None once the match is over."""
        return None if self.is_over else len(self.results) + 1

    @property
    def score(self) -> tuple[int, int]:
        """Games won by player 0 and by player 1."""
        wins = [0, 0]
        for result in self.results:
            if result.winner is not None:
                wins[result.winner] += 1
        return (wins[0], wins[1])

    @property
    def drawn_games(self) -> int:
        return sum(1 for result in self.results if result.winner is None)

    @property
    def is_over(self) -> bool:
        return _is_over(self.rules, self.results)

    @property
    def is_decided(self) -> bool:
        """True once the winner (or a draw) can no longer change, even with games left to play.

        In an "all" match this may be true before ``is_over``: the remaining games
        are still played.
        """
        if self.is_over:
            return True
        rules = self.rules
        a, b = self.score
        if rules.format == "first-to":
            return False  # a drawn game is replayed, so the trailing player can always come back
        left = rules.games - len(self.results)
        return abs(a - b) > left

    @property
    def winner(self) -> Player | None:
        """The match winner once decided (None while open or when the match is drawn)."""
        if not self.is_decided:
            return None
        a, b = self.score
        if a == b:
            return None
        return 0 if a > b else 1

    @property
    def result(self) -> str | None:
        """None while undecided, else "win" or "draw"."""
        if not self.is_decided:
            return None
        return "draw" if self.winner is None else "win"

    # -- seats ---------------------------------------------------------------------

    def game_seat(self, player: Player) -> int:
        """The game seat (0 Player One, 1 Player Two) of ``player`` in the next game."""
        require_player(player)
        if self.player_one is None:
            raise RuleError("decision-pending", "Player One of the next game is not decided yet.")
        return 0 if player == self.player_one else 1

    def player_at(self, seat: int) -> Player:
        """The match player sitting at game ``seat`` in the next game."""
        require_player(seat)
        if self.player_one is None:
            raise RuleError("decision-pending", "Player One of the next game is not decided yet.")
        return self.player_one if seat == 0 else 1 - self.player_one

    # -- changing the match ----------------------------------------------------------

    def decide(self, player_one: Player, detail: str = "") -> MatchState:
        """Report who is Player One when the decider is played or named outside the match.

        Used for rock-paper-scissors (pass the winner), the organiser's choice and
        "given" decisions.
        """
        if self.is_over:
            raise RuleError("match-over", "The match is over.")
        if self.pending_decision is None:
            raise RuleError("no-decision-pending", "Player One of the next game is already decided.")
        require_player(player_one)
        return self._decided(self.pending_decision, player_one, detail, self.chance_draws)

    def decide_by_outcome(self, outcome: Outcome, seat_of_player0: int = 0) -> MatchState:
        """Report a decider game's Outcome (rock-paper-scissors): its winner is Player One.

        ``seat_of_player0`` is the decider game's seat where match player 0 sat.
        """
        if outcome.result != "win" or outcome.winner is None:
            raise RuleError("decider-undecided", "The decider ended without a winner; play it again.")
        require_player(seat_of_player0)
        winner = 0 if outcome.winner == seat_of_player0 else 1
        return self.decide(winner, outcome.reason)

    def record(self, winner: Player | None, result: str | None = None, reason: str = "") -> MatchState:
        """The match after the next game ended; ``winner`` is a match player or None (draw)."""
        if self.is_over:
            raise RuleError("match-over", "The match is over; no more games are played.")
        if self.player_one is None:
            raise RuleError("decision-pending", "Decide Player One before recording the game.")
        if winner is not None:
            require_player(winner)
        if result is None:
            result = "draw" if winner is None else "win"
        if result not in ("win", "draw", "tie") or (result == "win") != (winner is not None):
            raise RuleError("bad-result", "A game is a win with a winner, or a draw or tie without one.")
        game = GameResult(player_one=self.player_one, winner=winner, result=result, reason=reason)
        after = replace(self, results=(*self.results, game), player_one=None, pending_decision=None)
        if after.is_over:
            return after
        return after._next_player_one(game)

    def record_outcome(self, outcome: Outcome) -> MatchState:
        """The match after the next game ended with ``outcome`` (winner in game seats)."""
        winner = None if outcome.winner is None else self.player_at(outcome.winner)
        return self.record(winner, outcome.result, outcome.reason)

    # -- dump / load -------------------------------------------------------------------

    def dump(self) -> dict[str, Any]:
        return {
            "rules": self.rules.as_dict(),
            "seed": self.seed,
            "seed_ranks": list(self.seed_ranks) if self.seed_ranks is not None else None,
            "results": [r.as_dict() for r in self.results],
            "decisions": [d.as_dict() for d in self.decisions],
            "player_one": self.player_one,
            "pending_decision": self.pending_decision,
            "chance_draws": self.chance_draws,
        }

    @classmethod
    def load(cls, data: Mapping[str, Any]) -> MatchState:
        """A match back from :meth:`dump`'s data (trusted: it comes from our own storage)."""
        ranks = data.get("seed_ranks")
        return cls(
            rules=MatchRules.from_dict(data["rules"]),
            seed=str(data["seed"]),
            seed_ranks=(int(ranks[0]), int(ranks[1])) if ranks is not None else None,
            results=tuple(GameResult(**r) for r in data["results"]),
            decisions=tuple(Decision(**d) for d in data["decisions"]),
            player_one=data["player_one"],
            pending_decision=data["pending_decision"],
            chance_draws=int(data["chance_draws"]),
        )

    # -- internals ------------------------------------------------------------------------

    def _next_player_one(self, last: GameResult) -> MatchState:
        rule = self.rules.next_first
        if rule in ("loser", "winner") and last.winner is None:
            rule = self.rules.on_draw
        if rule == "decider":
            return self._start_decision(self.rules.first)
        if rule == "same":
            chosen, why = last.player_one, "Player One stays Player One"
        elif rule == "alternate":
            chosen, why = 1 - last.player_one, "Player One alternates"
        elif rule == "loser":
            assert last.winner is not None
            chosen, why = 1 - last.winner, "the loser of the previous game goes first"
        else:  # winner
            assert last.winner is not None
            chosen, why = last.winner, "the winner of the previous game goes first"
        return self._decided(rule, chosen, why, self.chance_draws)

    def _start_decision(self, method: str) -> MatchState:
        """Resolve an automatic decider at once; leave the others pending."""
        draws = self.chance_draws
        if method == "coin":
            side = chance.draw(self.seed, draws, 2)
            return self._decided(method, side, "heads" if side == 0 else "tails", draws + 1)
        if method == "die":
            while True:
                roll0 = chance.roll_die(self.seed, draws)
                roll1 = chance.roll_die(self.seed, draws + 1)
                draws += 2
                if roll0 != roll1:  # equal rolls are rolled again
                    return self._decided(
                        method, 0 if roll0 > roll1 else 1, f"rolled {roll0} and {roll1}", draws
                    )
        if method == "higher-seed":
            if self.seed_ranks is None:
                raise RuleError("no-seed-ranks", "The higher seed decides, but the players have no seeds.")
            rank0, rank1 = self.seed_ranks
            if rank0 == rank1:
                raise RuleError("no-seed-ranks", "The players have the same seed; choose another decider.")
            return self._decided(method, 0 if rank0 < rank1 else 1, f"seeds {rank0} and {rank1}", draws)
        return replace(self, player_one=None, pending_decision=method)

    def _decided(self, method: str, player_one: Player, detail: str, draws: int) -> MatchState:
        decision = Decision(game=len(self.results) + 1, method=method, player_one=player_one, detail=detail)
        return replace(
            self,
            player_one=player_one,
            pending_decision=None,
            decisions=(*self.decisions, decision),
            chance_draws=draws,
        )


def new_match(
    rules: MatchRules | Mapping[str, Any] | None = None,
    seed: int | str | None = None,
    seed_ranks: tuple[int, int] | None = None,
) -> MatchState:
    """A match about to start. Automatic deciders (coin, die, higher seed) are resolved now.

    ``seed_ranks`` are the players' tournament seeds (1 is the top seed), needed only
    for the "higher-seed" decider.
    """
    if not isinstance(rules, MatchRules):
        rules = MatchRules.from_dict(rules)
    if seed_ranks is not None:
        if (
            not isinstance(seed_ranks, (tuple, list))
            or len(seed_ranks) != 2
            or any(isinstance(r, bool) or not isinstance(r, int) for r in seed_ranks)
        ):
            raise _bad_rules("Seed ranks are two whole numbers, one per player.")
        seed_ranks = (seed_ranks[0], seed_ranks[1])
    match = MatchState(rules=rules, seed=chance.normalise_seed(seed), seed_ranks=seed_ranks)
    return match._start_decision(rules.first)


def _is_over(rules: MatchRules, results: tuple[GameResult, ...]) -> bool:
    wins = [0, 0]
    for result in results:
        if result.winner is not None:
            wins[result.winner] += 1
    played = len(results)
    if rules.format == "all":
        return played >= rules.games
    if rules.format == "best-of":
        return played >= rules.games or abs(wins[0] - wins[1]) > rules.games - played
    # first-to
    if max(wins) >= rules.games:
        return True
    return rules.max_games is not None and played >= rules.max_games


def require_player(player: Any) -> int:
    """``player`` as a match player (0 or 1); RuleError("bad-player") for anything else."""
    # type() and not isinstance(): True and 1.0 compare equal to 1 but are not players.
    if type(player) is not int or player not in (0, 1):
        raise RuleError("bad-player", "A match player is 0 or 1.")
    return player
