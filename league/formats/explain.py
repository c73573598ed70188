"""Why a pairing is what it is: reasons as codes and data, and the one function that
puts them into words.

The pairers (swiss.py, arena.py) return, with each pair, the ``Reason``s they acted on;
a knockout's reason is its seed path, read from the bracket (``seed_path``). A reason
names players only through ``players`` (ids), so the Django side can store user ids and
``text`` can say them with the names of today. Pure: no Django.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from .bracket import Knockout, Match, Source


@dataclass(frozen=True)
class Reason:
    code: str
    players: tuple[Hashable, ...] = ()
    data: Mapping[str, Any] = field(default_factory=dict)

    def as_dict(self, ids: Mapping[Hashable, Any] | None = None) -> dict[str, Any]:
        """The stored form (JSON), players mapped through ``ids`` when given."""
        players = [ids[p] if ids is not None else p for p in self.players]
        return {"code": self.code, "players": players, "data": dict(self.data)}


def _points(value: float) -> str:
    return f"{value:g} point" + ("" if value == 1 else "s")


def _rounds(rounds: Sequence[int]) -> str:
    if len(rounds) == 1:
        return f"round {rounds[0]}"
    return "rounds " + ", ".join(str(r) for r in rounds[:-1]) + f" and {rounds[-1]}"


def _history(name: str, firsts: Sequence[int], seconds: Sequence[int]) -> str:
    """"Ana moved second in rounds 2 and 3 and first in round 1"."""
    parts = []
    if seconds:
        parts.append(f"second in {_rounds(seconds)}")
    if firsts:
        parts.append(f"first in {_rounds(firsts)}")
    return f"{name} moved " + " and ".join(parts) if parts else f"{name} has not played yet"


_FLOAT_WHY = {
    "odd": "the {group}-point group had an odd number",
    "rematch": "to avoid a rematch with {other}",
    "first-move": "to avoid a first-move clash with {other}",
    "others": "so that the rest of the group could be paired",
}
_STRENGTH = {3: "an absolute", 2: "a strong", 1: "a mild"}


def text(reason: Mapping[str, Any], names: Mapping[Any, str]) -> str:
    """A stored reason (``Reason.as_dict``) in words, players said by ``names``."""
    code, data = reason["code"], reason.get("data", {})
    who = [names.get(p, str(p)) for p in reason.get("players", [])]
    virtual = " (pairing scores: points plus the virtual points of an accelerated round)" if data.get("virtual") else ""
    if code == "score-group":
        return f"Both on {_points(data['points'])}{virtual}."
    if code == "float":
        why = _FLOAT_WHY[data["why"]].format(group=f"{data['from']:g}", other=who[2] if len(who) > 2 else "")
        return f"{who[0]} floated down from {_points(data['from'])} to meet {who[1]} on {data['to']:g}{virtual}: {why}."
    if code == "first-move":
        return _first_move_text(who, data)
    if code == "first-move-relaxed":
        return "The first-move rule was relaxed: no other pairing was possible."
    if code == "met-by-forfeit":
        return (f"{who[0]} and {who[1]} met in {_rounds(data['rounds'])} only by forfeit: no game was played, "
                "so they may be paired again.")
    if code == "rematch":
        return f"{who[0]} and {who[1]} meet again: no other pairing was possible."
    if code == "bye":
        if data["rule"] == "lowest-eligible":
            had = "a bye or a win by forfeit" if data.get("forfeits") else "a bye"
            return (f"{who[0]} has the bye: every player ranked below {who[0]} has had {had} and may not have it "
                    f"again; {who[0]} is the lowest ranked who may.")
        why = {"lowest": "lowest ranked in the lowest score group who has not had one",
               "again": "everyone has had one; lowest ranked",
               "moved-up": "the players below could not all be paired otherwise",
               "fewest-unplayed": f"{who[1] if len(who) > 1 else ''}, ranked below, has played fewer games (has had "
                                  "more rounds without a game), and the bye goes to whoever has had the fewest",
               "group": "the rest of the lowest score group pairs better without them than without a lower-ranked "
                        "player (fewer first-move clashes or floats)"}[data["rule"]]
        return f"{who[0]} has the bye: {why}."
    if code == "arena":
        return _arena_text(who, data)
    if code == "arena-first-move":
        f1, f2 = data["firsts"]
        g1, g2 = data["games"]
        return f"{who[0]} moves first: {who[0]} has moved first in {f1} of {g1} games, {who[1]} in {f2} of {g2}."
    if code == "seed-path":
        return _seed_path_text(data)
    if code == "berger":
        group = f" of group {data['group']}" if data.get("group") else ""
        if len(who) < 2:
            return f"{who[0]} has the bye in round {data['round']}{group}: an odd number of players (Berger table)."
        return (f"Round {data['round']} of the Berger table{group}, fixed at the start: seed {data['seeds'][0]} v "
                f"seed {data['seeds'][1]}; everyone meets everyone, and who moves first alternates.")
    if code == "arbiter":
        return "Pairings set by the arbiter."
    return str(code)  # a code this version does not know: shown as it is


def in_words(reasons: Sequence[Mapping[str, Any]], names: Mapping[Any, str]) -> list[dict[str, str]]:
    """Stored reasons as the pages and the API show them: [{code, text}]."""
    return [{"code": reason["code"], "text": text(reason, names)} for reason in reasons]


def _first_move_text(who: list[str], data: Mapping[str, Any]) -> str:
    first, second = who[0], who[1]
    rule = data["rule"]
    (x1, x2), (o1, o2) = data["x"], data["o"]
    if rule == "initial":
        higher = who[data["higher"]]
        side = "first" if data["initial"] == "w" else "second"
        other = "second" if side == "first" else "first"
        moves = "first" if data["higher"] == 0 else f"second, and {first} moves first"
        # "Number" said in words: a player took it for the board (a walkthrough).
        return (f"Neither has played yet, so the first move goes by starting number: the players are numbered 1, 2, "
                f"3 ... in seed order (the highest rated first, then the unrated in the order they entered), which is not "
                f"the board number. In each pair the "
                f"higher-ranked player moves {side} if their number is odd and {other} if it is even; {higher} is "
                f"the higher-ranked here, number {data['rank']}, so moves {moves}.")
    if rule == "board":
        return (f"{first} moves first: in the first round the higher-ranked player moves first on odd boards "
                f"and second on even ones (board {data['board']}).")
    if rule == "preferences":
        wanted = [name for name, wants in zip((first, second), data["prefers"], strict=True) if wants]
        said = [f"{first} moves first and {second} second, as "
                + ("both preferred" if len(wanted) == 2 else f"{wanted[0]} preferred" if wanted else "it fell")]
        if data["prefers"][0]:
            said.append(f"{_history(first, x1, o1)} ({_STRENGTH[data['strength'][0]]} preference for first)")
        if data["prefers"][1]:
            said.append(f"{_history(second, x2, o2)} ({_STRENGTH[data['strength'][1]]} preference for second)")
        return "; ".join(said) + "."
    side = "first" if data["side"] == "first" else "second"
    winner = who[data["winner"]]
    xs, os = (x1, o1) if data["winner"] == 0 else (x2, o2)
    if rule == "stronger":
        return (f"Both preferred to move {side}; {winner} had the stronger claim: {_history(winner, xs, os)} "
                f"({_STRENGTH[data['strength'][data['winner']]]} preference). {first} moves first.")
    if rule == "alternate":
        return (f"Both preferred to move {side}; they last moved differently in round {data['round']}, so {winner} "
                f"gets it this time. {first} moves first.")
    return (f"Both preferred to move {side} with the same history; {winner} has the higher rank, so gets it. "
            f"{first} moves first.")


def _arena_text(who: list[str], data: Mapping[str, Any]) -> str:
    p1, p2 = data["points"]
    said = [f"Paired as both became free; closest in score ({who[0]} {p1:g}, {who[1]} {p2:g})"]
    if data.get("balanced"):
        said[0] = (f"Paired as both became free; among the nearest in score ({who[0]} {p1:g}, {who[1]} {p2:g}), "
                   "the one who best balances first moves")
    if data.get("rematch"):
        said.append("a rematch of their last game: nobody else was free")
    elif data.get("skipped"):
        said.append(f"not {who[0]}'s last opponent ({who[2]}, skipped)")
    else:
        said.append("not the last opponent")
    return "; ".join(said) + "."


def _seed_path_text(data: Mapping[str, Any]) -> str:
    a, b = data["seeds"]
    said = f"Seed {a} v seed {b}, {data['stage']}"
    after = data.get("next")
    if data["stage"] == "third-place match":
        return said + "; the winner places third."
    if after is None and data["stage"].startswith("match for places "):  # the last match for two places
        best = data["stage"].removeprefix("match for places ").split("-")[0]
        return f"{said}; the winner takes place {best}."
    if after is None and data["stage"] == "consolation match":
        return said + "; the winner wins the consolation bracket."
    if after is None:
        return said + "; the winner takes the title."
    return f"{said}; the winner meets {after}."


# -- knockouts: the seed path ---------------------------------------------------------


def stage_name(bracket: Knockout, match: Match) -> str:
    """"round of 8", "semi-final", "final", "losers' round 2", "grand final"..."""
    if match.bracket == "placement" and match.places is not None:
        best, worst = match.places
        return "third-place match" if match.places == (3, 4) else f"match for places {best}-{worst}"
    if match.bracket == "consolation":
        return "consolation match"
    if match.bracket == "final":
        return "grand final"
    if match.bracket == "reset":
        return "grand final reset"
    if match.bracket == "losers":
        return f"losers' round {match.round}"
    last = max(m.round for m in bracket.matches if m.bracket == "winners")
    double = any(m.bracket == "final" for m in bracket.matches)
    left = last - match.round
    name = ("final", "semi-final", "quarter-final")[left] if left < 3 else f"round of {2 ** (left + 1)}"
    return f"winners' {name}" if double else name


def _seeds_from(bracket: Knockout, source: Source, depth: int = 0) -> list[int]:
    """The seeds who can still come through a source (winners only; losers are not followed)."""
    kind, ref = source
    if kind == "seed":
        return [ref] if ref <= bracket.n else []
    if kind != "winner" or depth > 12:
        return []
    match = bracket.matches[ref]
    if match.decided:
        return [match.winner] if match.winner is not None else []
    return [s for src in match.sources for s in _seeds_from(bracket, src, depth + 1)]


def _describe(bracket: Knockout, source: Source) -> str:
    kind, ref = source
    if kind == "seed":
        return f"seed {ref}"
    match = bracket.matches[ref]
    if match.decided and (match.winner if kind == "winner" else match.loser) is not None:
        return f"seed {match.winner if kind == 'winner' else match.loser}"
    if kind == "loser":
        return f"the loser of the {stage_name(bracket, match)}"
    if all(p is not None for p in match.players):
        return f"the winner of seed {match.players[0]} v seed {match.players[1]}"
    seeds = sorted(_seeds_from(bracket, source))
    if seeds and len(seeds) <= 4:
        return "the winner from seeds " + ", ".join(str(s) for s in seeds)
    return f"the winner of the {stage_name(bracket, match)}"


def seed_path(bracket: Knockout, match: Match) -> Reason:
    """Where a knockout match stands and leads: its seeds, its stage, whom its winner meets."""
    a, b = match.players
    following = None
    for other in bracket.matches:
        for slot, source in enumerate(other.sources):
            if source == ("winner", match.id) and other.bracket != "reset":
                following = _describe(bracket, other.sources[1 - slot])
                if other.bracket == "final":
                    following = f"{following} in the grand final"
    return Reason("seed-path", (), {"seeds": [a, b], "stage": stage_name(bracket, match), "next": following})
