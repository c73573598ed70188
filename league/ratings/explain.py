"""Rating changes in words (docs/ratings.md, "Explanations"): the numbers the engine
used, worked out again from a stored change, and a sentence that shows them.

Pure: no Django. The selectors pass in what the RatingChange rows hold; the figures
come from the same functions the engine calls (``elo.expected``, ``elo.initial_rating``,
``elo.dp_for``), so an explanation can never disagree with the change it explains.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from . import elo
from .periods import ELO_INITIAL_GAMES, GLICKO2, GLICKO2_PROVISIONAL_RD

#: How an explanation reads: K and the expected score, the §8.2 estimate, or Glicko-2.
ESTABLISHED = "established"
PROVISIONAL = "provisional"
FIRST_RATING = "first-rating"
GLICKO = "glicko2"


@dataclass(frozen=True)
class Explanation:
    """A change in words. ``text`` is the whole sentence ("Rating 1512 → 1536 (+24): K =
    40, ..."); the pages show the move as figures ("1512 → 1536 (+24)", ``signed``), the
    word "provisional" beside it when the rating after is, then ``why``: the sentence
    without the figures said twice."""

    kind: str
    rating_before: int
    rating_after: int
    delta: int
    text: str
    k: int | None = None
    expected: float | None = None
    #: §8.2: the opponents' average (with the two 1800 draws), the percentage score and dp.
    average: float | None = None
    percentage: int | None = None
    dp: int | None = None
    games_to_go: int | None = None
    #: The explanation after the move's figures (``text`` without its head)
    why: str = ""
    #: The rating after the change is provisional (the stored change's own flag, when known)
    provisional: bool = False

    @property
    def signed(self) -> str:
        """The change with its sign always shown: "+16", "−13", "±0"."""
        return signed(self.delta)


def _score_words(score: float) -> str:
    return {1.0: "1 (a win)", 0.5: "½ (a draw)", 0.0: "0 (a loss)"}.get(score, f"{score:g}")


def _num(value: float) -> str:
    """A score as people write it: 3, 3½."""
    whole = int(value)
    return f"{whole}½" if value - whole == 0.5 else f"{value:g}"


def signed(delta: int) -> str:
    """A whole change with its sign always shown, a true minus for a loss: "+16", "−13", "±0"."""
    return f"+{delta}" if delta > 0 else (f"−{-delta}" if delta < 0 else "±0")


def _signed_tenths(value: float) -> str:
    """A worked-out share to a tenth, signed as the change is: "+13.2", "−13.2", "0.0"."""
    tenths = f"{abs(value):.1f}"
    if tenths == "0.0":
        return tenths
    return f"+{tenths}" if value > 0 else f"−{tenths}"


def _head(before: int, after: int) -> str:
    return f"Rating {before} → {after} ({signed(after - before)})"


def established(*, rating_before: float, rating_after: float, opponent: str, opponent_rating: float,
                score: float, k: int, period_games: int = 1, period_name: str = "") -> Explanation:
    """FIDE Elo for an established rating: K x (score - expected), expected from table
    8.1.2. In a tournament period every game counts K x (score - expected) and the
    period's sum, rounded, moves the rating once."""
    before, after = round(rating_before), round(rating_after)
    expected = elo.expected(rating_before, opponent_rating)
    share = _signed_tenths(k * (score - expected))
    game = (f"K = {k}, expected score {expected:.2f} against {opponent} ({round(opponent_rating)}), scored "
            f"{_score_words(score)}: {k} × ({score:g} − {expected:.2f}) = {share}")
    if period_games > 1:
        why = (f"Over {period_name or 'the tournament'}'s {period_games} games, rated together at its end. "
               f"This game: {game}.")
        text = f"{_head(before, after)} o{why[1:]}"
    else:
        why = f"{game}, rounded to {signed(after - before)}."
        text = f"{_head(before, after)}: {why}"
    return Explanation(ESTABLISHED, before, after, after - before, text, k=k, expected=expected, why=why)


def _all_games_together(results: Sequence[tuple[float, float]]) -> str:
    """Why a provisional move is not this game's alone: "all 5 games together (1 won, 4
    lost), not from this win alone." A win can lower it (1800 → 1693 after four losses)."""
    won = sum(1 for _, score in results if score == 1.0)
    drawn = sum(1 for _, score in results if score == 0.5)
    lost = len(results) - won - drawn
    record = ", ".join(f"{n} {word}" for n, word in ((won, "won"), (drawn, "drawn"), (lost, "lost")) if n)
    this = {1.0: "win", 0.5: "draw"}.get(results[-1][1], "loss")
    if len(results) == 1:
        return f"this first game, a {this}."
    words = f"all {len(results)} games together ({record}), not from this {this} alone."
    if len(results) > 1 and not any(score for _, score in results[:-1]):
        # The earlier games scored nothing: no estimate was possible, the start figure stood in.
        words += (f" Until a first point there is nothing to estimate from, so the {elo.HYPOTHETICAL_OPPONENT} "
                  f"every new player starts at stood in.")
    return words


def provisional(*, rating_before: float, rating_after: float, results: Sequence[tuple[float, float]],
                now_established: bool) -> Explanation:
    """FIDE §8.2 for a player still unrated: ``results`` are every (opponent rating,
    score) of the first games up to and including this one, as the engine kept them."""
    before, after = round(rating_before), round(rating_after)
    played = len(results)
    total = sum(score for _, score in results)
    if elo.initial_rating(results) is None:
        why = (f"No estimate yet: FIDE's first rating needs a score above zero, so the rating stays at the "
               f"starting {elo.HYPOTHETICAL_OPPONENT} after {played} game{'s' * (played != 1)} without a point.")
        return Explanation(PROVISIONAL, before, after, after - before, f"Provisional, n{why[1:]}",
                           games_to_go=max(1, ELO_INITIAL_GAMES - played), why=why, provisional=True)
    together = _all_games_together(results)
    opponents = [rating for rating, _ in results] + [elo.HYPOTHETICAL_OPPONENT] * 2
    counted = total + 1.0  # the two hypothetical draws
    average = sum(opponents) / len(opponents)
    percentage = round(counted / len(opponents) * 100)
    dp = elo.dp_for(counted / len(opponents))
    capped = " (capped at 2200)" if after == elo.INITIAL_CAP and average + dp > elo.INITIAL_CAP else ""
    working = (f"the average of the opponents' ratings, counting two imaginary {elo.HYPOTHETICAL_OPPONENT} "
               f"opponents drawn with, is {average:.0f}; a score of {_num(counted)} of {len(opponents)} "
               f"({percentage}%) adds {signed(dp) if dp else 0}: {average:.0f} {'+' if dp >= 0 else '−'} {abs(dp)} = {after}{capped}")
    if now_established:
        why = (f"First rating, set from {together} As FIDE estimates an unrated "
               f"player's first rating: {working}. From the next game on, each game moves it by itself (K and "
               f"the expected score).")
        return Explanation(FIRST_RATING, before, after, after - before, f"{_head(before, after)}. {why}",
                           average=average, percentage=percentage, dp=dp, games_to_go=0, why=why)
    to_go = max(1, ELO_INITIAL_GAMES - played)
    why = (f"The first rating is estimated again after each game, from {together} As FIDE estimates an unrated "
           f"player's first rating: {working}. It becomes established after {ELO_INITIAL_GAMES} games with a score above zero "
           f"({to_go} more).")
    return Explanation(PROVISIONAL, before, after, after - before, f"{_head(before, after)}. Provisional: t{why[1:]}",
                       average=average, percentage=percentage, dp=dp, games_to_go=to_go, why=why, provisional=True)


def glicko(*, rating_before: float, rating_after: float, rd_before: float | None, rd_after: float | None,
           opponent: str, opponent_rating: float, score: float) -> Explanation:
    """Glicko-2: the deviation (±) says how sure the rating is; the wider, the more a
    game moves it."""
    before, after = round(rating_before), round(rating_after)
    spread = f" ±{rd_before:.0f} → ±{rd_after:.0f}" if rd_before is not None and rd_after is not None else ""
    game = (f"Glicko-2, against {opponent} ({round(opponent_rating)}), scored {_score_words(score)}. The ± is the "
            f"rating's uncertainty: the wider it is, the further one game moves the rating; it is provisional "
            f"while above ±{GLICKO2_PROVISIONAL_RD:.0f}.")
    why = f"Uncertainty{spread}: {game}" if spread else game
    return Explanation(GLICKO, before, after, after - before, f"{_head(before, after)}{spread}: {game}", why=why,
                       provisional=rd_after is not None and rd_after > GLICKO2_PROVISIONAL_RD)


@dataclass(frozen=True)
class StoredChange:
    """What explain_history needs of a RatingChange row, in log order."""

    system: str
    period: str
    opponent: str
    opponent_rating: float
    score: float
    k: int | None
    rating_before: float
    rating_after: float
    rd_before: float | None
    rd_after: float | None
    provisional: bool


def explain_history(changes: Sequence[StoredChange], *, period_names: dict[str, str] | None = None
                    ) -> list[Explanation]:
    """One explanation per change of one player's history in one list and variant,
    oldest first (the whole history up to the last change wanted: the §8.2 estimate
    needs every earlier first game). A period's changes share its end state."""
    names = period_names or {}
    result: list[Explanation] = []
    first_games: list[tuple[float, float]] = []
    i = 0
    while i < len(changes):
        j = i
        while j < len(changes) and changes[j].period == changes[i].period:
            j += 1
        group = changes[i:j]
        unrated = [c for c in group if c.system != GLICKO2 and c.k is None]
        first_games.extend((c.opponent_rating, c.score) for c in unrated)
        for change in group:
            if change.system == GLICKO2:
                explained = glicko(rating_before=change.rating_before, rating_after=change.rating_after,
                                   rd_before=change.rd_before, rd_after=change.rd_after, opponent=change.opponent,
                                   opponent_rating=change.opponent_rating, score=change.score)
            elif change.k is None:
                explained = provisional(rating_before=change.rating_before, rating_after=change.rating_after,
                                        results=list(first_games), now_established=not change.provisional)
            else:
                explained = established(
                    rating_before=change.rating_before, rating_after=change.rating_after, opponent=change.opponent,
                    opponent_rating=change.opponent_rating, score=change.score, k=change.k,
                    period_games=len(group), period_name=names.get(change.period, ""))
            # The word "provisional" beside the figures follows the stored change, as the chart's points do.
            result.append(replace(explained, provisional=change.provisional))
        if not any(c.provisional for c in group) and unrated:
            first_games = []  # established: the engine empties its first games
        i = j
    return result


# -- why a game is unrated ---------------------------------------------------------------

#: Every way a game ends unrated, in one place: league.ratings.selectors.game_rating_note
#: finds which applies from the game and its pairing; these are its words.
UNRATED_WORDS = {
    "aborted": "the game was aborted before it began, and an aborted game is never rated.",
    "withdrawal": "{player} withdrew from the tournament, so the game was decided by forfeit, "
                  "and a forfeit is not rated (as FIDE rates no forfeits).",
    "no-show": "{player} did not show up, so the game was decided by forfeit, "
               "and a forfeit is not rated (as FIDE rates no forfeits).",
    "unplayed": "a tournament game that ended before any move is scored as a forfeit, "
                "and a forfeit is not rated (as FIDE rates no forfeits).",
    "resigned-unplayed": "{player} resigned before any move, and the section scores a game that ended before "
                         "any move as a forfeit (+ and − in its crosstable, no game played); "
                         "a forfeit is not rated (as FIDE rates no forfeits).",
    "forfeit": "it was decided by forfeit, and a forfeit is not rated (as FIDE rates no forfeits).",
    "unrated-section": "a game of an unrated tournament section, so it counts for no rating.",
    "computer": "a game against the computer is never rated.",
    "lesson": "a lesson is practice, and practice is never rated.",
    "casual": "a casual game (it was created without the Rated box), so it counts for no rating.",
}


def unrated_words(why: str, *, player: str = "") -> str:
    """The game page's line for an unrated game: "Unrated: " and its reason (``why``, a key
    of UNRATED_WORDS; ``player``, who withdrew or did not show up, if known)."""
    if why in ("withdrawal", "no-show") and not player:
        why = "forfeit"
    return "Unrated: " + UNRATED_WORDS[why].format(player=player)
