"""FIDE's Tournament Report File, TRF-16 (C.04 Annex 2): the interchange format pairing
checkers and tournament programs read. Pure: ``write(tournament) -> str`` and
``read(text) -> Tournament``; ``write(read(write(t))) == write(t)``.

Player lines ("001") are fixed columns: start number 5-8, sex 10, title 11-13, name
15-47, rating 49-52, federation 54-56, FIDE id 58-68, birth date 70-79, points 81-84,
rank 86-89, then one 10-column block per round from column 92: opponent's start number
(``0000``: none), colour (``w`` moves first, ``b`` second, ``-`` not paired) and the
result (``1 0 =`` over the board, ``+ -`` by forfeit, ``W D L`` unrated, ``H F U Z``
byes and absences, blank: not played yet, or for ``0000`` an absence like ``Z``).
Every other line (012 name, 042 start date, 062 players, XXR rounds, ``###`` comments...)
is kept as a header, in order.

Files written by other pairing programs read too: bare CR line endings (bbpPairings),
and the header lines of TRF-2026 and its predecessors that matter for pairing are
interpreted by ``declared``: total rounds (142, XXR), initial colour (152, XXC), the
point system (162, bbpPairings' BBW BBD BBL BBZ BBF BBU) and accelerated rounds (``XXA``
virtual points per player and round, or "192 FIDE_DUTCH_2025_BAKU" for the Baku method,
``league.formats.acceleration``). ``before_round`` gives the
tournament as it stood when a round was paired, which is what a pairer and a checker read.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from . import acceleration

RESULTS = frozenset("10=+-WDLHFUZ ")
COLOURS = frozenset("wb- ")
BYES = frozenset("HFUZ ")
ABSENCES = frozenset("HFZ ")  # with 0000: not paired that round, set before pairing (U is the pairer's bye)
_ROUND_AT = 89  # 0-based start of round 1's block "  oooo c r" (its opponent in FIDE's columns 92-95)
NAME_WIDTH = 33  # a player line's name: columns 15-47


class TrfError(ValueError):
    """A line that is not TRF-16; the message says which line and why."""


@dataclass
class Game:
    """One round of a player: ``opponent`` None for 0000 (a bye or an absence)."""

    opponent: int | None
    colour: str = "-"
    result: str = " "


@dataclass
class Player:
    number: int
    name: str = ""
    sex: str = ""
    title: str = ""
    rating: int | None = None
    federation: str = ""
    fide_id: str = ""
    birth: str = ""
    points: float = 0.0
    rank: int = 0
    rounds: list[Game] = field(default_factory=list)


@dataclass
class Tournament:
    headers: list[tuple[str, str]] = field(default_factory=list)  # (tag, text), in order
    players: list[Player] = field(default_factory=list)

    def header(self, tag: str) -> str | None:
        return next((text for t, text in self.headers if t == tag), None)


def _player_line(p: Player) -> str:
    rating = f"{p.rating:>4}" if p.rating else "    "
    line = (f"001 {p.number:>4} {p.sex[:1]:1}{p.title[:3]:>3} {p.name[:NAME_WIDTH]:<33} {rating} "
            f"{p.federation[:3]:<3} {p.fide_id[:11]:>11} {p.birth[:10]:<10} {p.points:>4.1f} {p.rank:>4}")
    for game in p.rounds:
        opponent = f"{game.opponent:>4}" if game.opponent is not None else "0000"
        line += f"  {opponent} {game.colour} {game.result}"
    return line.rstrip()


def name_in_field(name: str) -> str:
    """A name as a player line holds it: its first 33 characters (``write`` cuts it there)
    without the spaces around them (``read`` strips them)."""
    return name[:NAME_WIDTH].strip()


def same_name(in_file: str, ours: str) -> bool:
    """Whether a player line's name is ``ours``, compared only as far as the field holds
    and regardless of case: a name longer than 33 characters is cut in every TRF-16, the
    platform's own export included."""
    return name_in_field(in_file).casefold() == name_in_field(ours).casefold()


def write(tournament: Tournament) -> str:
    lines = [f"{tag} {text}".rstrip() for tag, text in tournament.headers]
    lines += [_player_line(p) for p in tournament.players]
    return "\n".join(lines) + "\n"


#: Numbers as a TRF writes them: ASCII digits only. (str.isdigit and float take other
#: scripts' digits too, a superscript or a full-width one, and float takes "nan" and "inf".)
_DIGITS = re.compile(r"[0-9]+")
_DECIMAL = re.compile(r"[0-9]+(\.[0-9]*)?|\.[0-9]+")


def _number(text: str, what: str, where: str) -> int:
    text = text.strip()
    if not _DIGITS.fullmatch(text):
        raise TrfError(f"{where}: the {what} must be a number, not {text!r}.")
    return int(text)


def _read_player(line: str, where: str) -> Player:
    if len(line) < 8:
        raise TrfError(f"{where}: a player line holds at least the start number (columns 5-8).")
    padded = line.ljust(max(89, len(line)))
    rating = padded[48:52].strip()
    points = padded[80:84].strip()
    if points and not _DECIMAL.fullmatch(points):
        raise TrfError(f"{where}: the points (columns 81-84) must be a number like 2.5, not {points!r}.")
    points_value = float(points) if points else 0.0
    player = Player(
        number=_number(padded[4:8], "start number (columns 5-8)", where),
        sex=padded[9].strip(), title=padded[10:13].strip(), name=padded[14:47].strip(),
        rating=_number(rating, "rating (columns 49-52)", where) if rating else None,
        federation=padded[53:56].strip(), fide_id=padded[57:68].strip(), birth=padded[69:79].strip(),
        points=points_value,
        rank=_number(padded[85:89], "rank (columns 86-89)", where) if padded[85:89].strip() else 0,
    )
    at = _ROUND_AT
    round_number = 1
    while at < len(line):
        block = line[at:at + 10].ljust(10)
        opponent, colour, result = block[2:6], block[7], block[9].upper()
        here = f"{where}, round {round_number}"
        if block[:2] != "  " or block[6] != " " or block[8] != " ":
            raise TrfError(f"{here}: a round is 10 columns, \"  oooo c r\" (columns {at + 1}-{at + 10}).")
        if colour not in COLOURS:
            raise TrfError(f"{here}: the colour must be w, b or -, not {colour!r}.")
        if result not in RESULTS:
            raise TrfError(f"{here}: unknown result {result!r} (1 0 = + - W D L H F U Z or blank).")
        number = 0 if not opponent.strip() else _number(opponent, "opponent's start number", here)
        player.rounds.append(Game(number or None, "-" if colour == " " else colour, result))
        at += 10
        round_number += 1
    return player


def read(text: str) -> Tournament:
    """The tournament in a TRF-16 text; ``TrfError`` says the first line that is not."""
    tournament = Tournament()
    seen: set[int] = set()
    for index, raw in enumerate(text.splitlines(), start=1):
        line = raw.rstrip("\r\n")
        if not line.strip():
            continue
        where = f"Line {index}"
        if line.startswith("001"):
            player = _read_player(line, where)
            if player.number in seen:
                raise TrfError(f"{where}: start number {player.number} appears twice.")
            seen.add(player.number)
            tournament.players.append(player)
        else:
            tag, _, rest = line.partition(" ")
            tournament.headers.append((tag, rest.rstrip()))
    for player in tournament.players:
        for round_number, game in enumerate(player.rounds, start=1):
            if game.opponent is not None and game.opponent not in seen:
                raise TrfError(f"Start number {player.number}, round {round_number}: opponent {game.opponent} "
                               "has no player line.")
    return tournament


def is_absence(game: Game) -> bool:
    """A round the player sat out by arrangement (H F Z, or 0000 with no result): the pairer
    leaves them out; the pairing-allocated bye (U) is the pairer's own output instead."""
    return game.opponent is None and game.result in ABSENCES


def round_pairings(tournament: Tournament, number: int, *,
                   skip_absent: bool = False) -> list[tuple[int, int | None]]:
    """Round ``number``'s pairings as (moves first, moves second) start numbers, (n, None)
    for the pairing-allocated bye (U). Refuses (TrfError) what does not pair every player
    once: one-sided or mismatched pairings, colours that do not differ, absences -- unless
    ``skip_absent``: then players absent that round (H F Z, see ``is_absence``, or no
    entry for it) are left out, as a pairer leaves them out."""
    pairs: list[tuple[int, int | None]] = []
    by_number = {p.number: p for p in tournament.players}
    done: set[int] = set()
    byes = 0
    for player in tournament.players:
        if len(player.rounds) < number:
            if skip_absent:
                continue
            raise TrfError(f"Start number {player.number} has no round {number}: every player is paired or "
                           "has the bye.")
        game = player.rounds[number - 1]
        if player.number in done or (skip_absent and is_absence(game)):
            continue
        if game.opponent is None:
            if game.result != "U":
                raise TrfError(f"Start number {player.number} is not paired in round {number} "
                               f"({game.result.strip() or 'absent'}): every player is paired or has the bye (U).")
            byes += 1
            if byes > 1:
                raise TrfError(f"Round {number} has more than one pairing-allocated bye (U).")
            pairs.append((player.number, None))
            done.add(player.number)
            continue
        other = by_number[game.opponent]
        back = other.rounds[number - 1] if len(other.rounds) >= number else None
        if back is None or back.opponent != player.number:
            raise TrfError(f"Round {number}: start number {player.number} meets {other.number}, but "
                           f"{other.number}'s line does not say so.")
        if {game.colour, back.colour} != {"w", "b"}:
            raise TrfError(f"Round {number}: {player.number} v {other.number} needs one w and one b.")
        pairs.append((player.number, other.number) if game.colour == "w" else (other.number, player.number))
        done.update((player.number, other.number))
    return pairs


POINTS = {"win": 1.0, "draw": 0.5, "loss": 0.0, "forfeit_loss": 0.0, "zero_bye": 0.0, "pab": 1.0}
"""FIDE's default point system; the keys are league.formats.dutch.Points' fields."""

_POINTS_BY_RESULT = {"1": "win", "+": "win", "W": "win", "F": "win", "=": "draw", "D": "draw", "H": "draw",
                     "0": "loss", "L": "loss", "-": "forfeit_loss", "Z": "zero_bye", " ": "zero_bye", "U": "pab"}
_BB_CODES = {"BBW": "win", "BBD": "draw", "BBL": "loss", "BBZ": "zero_bye", "BBF": "forfeit_loss", "BBU": "pab"}
_162_CODES = {"W": ("win",), "D": ("draw",), "L": ("loss",), "Z": ("zero_bye", "forfeit_loss"),
              "A": ("zero_bye", "forfeit_loss"), "P": ("pab",)}


@dataclass(frozen=True)
class Declared:
    """What a file says about the event beyond its games, defaults filled in."""

    rounds: int  # total rounds: XXR or 142, else the rounds the file holds
    initial_colour: str | None  # "w" or "b": the colour of the top player in round 1 (None: unknown)
    points: dict[str, float]  # as POINTS: 162 or BBW...BBU lines, else FIDE's default
    virtual_points: acceleration.VirtualPoints = field(default_factory=dict)  # XXA lines, or Baku by 192


def _header_number(text: str, tag: str) -> float:
    first = (text.split() or [""])[0]
    if not _DECIMAL.fullmatch(first):
        raise TrfError(f"The {tag} line needs a number, not {text.strip()!r}.")
    return float(first)


def _declared_points(tournament: Tournament) -> dict[str, float]:
    points = dict(POINTS)
    given: set[str] = set()
    for tag, text in tournament.headers:
        if tag in _BB_CODES:
            given.add(_BB_CODES[tag])
            points[_BB_CODES[tag]] = _header_number(text, tag)
        elif tag == "162":  # "162  W 3.0    D 1.0": a code letter and 4 columns of points, every 9 columns
            line = f"{tag} {text}"
            for at in range(5, len(line) - 4, 9):
                if line[at] not in _162_CODES:
                    raise TrfError(f"The 162 line has an unknown code {line[at]!r} (W D L Z A P).")
                for key in _162_CODES[line[at]]:
                    given.add(key)
                    points[key] = _header_number(line[at + 1:at + 5], tag)
    if "pab" not in given:
        points["pab"] = points["win"]  # the PAB is worth a win unless said otherwise
    return points


def _first_coloured_round(tournament: Tournament) -> int | None:
    return min((index for p in tournament.players for index, g in enumerate(p.rounds) if g.colour in "wb"),
               default=None)


def _inferred_initial_colour(tournament: Tournament) -> str | None:
    """bbpPairings' rule for files that do not say: in the first round with colours, the colour
    of the highest player paired in it or before, reversed if an odd number of players paired
    by then rank above them -- the side the top player got, with colours alternating down."""
    first = _first_coloured_round(tournament)
    if first is None:
        return None
    paired_above = 0
    for player in sorted(tournament.players, key=lambda p: p.number):
        taken_part = [g for g in player.rounds[:first + 1] if not is_absence(g)]
        if not taken_part:
            continue
        colour = player.rounds[first].colour if len(player.rounds) > first else "-"
        if colour in "wb":
            return colour if paired_above % 2 == 0 else {"w": "b", "b": "w"}[colour]
        paired_above += 1
    return None


_BAKU = frozenset({"FIDE_DUTCH_2025_BAKU", "FIDE_DUTCH_BAKU"})
_VIRTUAL_POINTS = re.compile(r"\d{1,2}(\.\d)?|\.\d", re.ASCII)  # a 4-column points field: no sign, nan or exponent


def _virtual_points(tournament: Tournament, rounds: int, points: dict[str, float]) -> acceleration.VirtualPoints:
    """``XXA NNNN pp.p pp.p ...``: a player's virtual points, round 1 first, one 4-column field
    every 5 columns from column 10 (blank: none). Without XXA lines, a 192 line naming a Baku
    system computes them (C.04.5.1)."""
    numbers = {p.number for p in tournament.players}
    virtual: acceleration.VirtualPoints = {}
    for tag, text in tournament.headers:
        if tag != "XXA":
            continue
        line = f"XXA {text}"
        if not _DIGITS.fullmatch(line[4:8].strip()) or line[8:9].strip():
            written = (line[4:].split() or [""])[0]
            raise TrfError(f"An XXA line's start number (columns 5-8) must be a whole number, not {written!r}.")
        number = int(line[4:8])
        if number not in numbers:
            raise TrfError(f"An XXA line names start number {number}, who has no player line.")
        if number in virtual:
            raise TrfError(f"Start number {number} has two XXA lines.")
        fields = [line[at:at + 4].strip() for at in range(9, len(line), 5)]
        if (tournament.header("XXR") or tournament.header("142")) and len(fields) > rounds:
            raise TrfError(f"The XXA line of start number {number} gives {len(fields)} rounds of virtual points; "
                           f"the event has {rounds} (XXR).")
        bad = next((f for f in fields if f and not _VIRTUAL_POINTS.fullmatch(f)), None)
        if bad is not None:
            raise TrfError(f"The XXA line of start number {number}: virtual points are written like 1.0 or 0.5 "
                           f"(0 to 99.9), not {bad!r}.")
        virtual[number] = tuple(float(f) if f else 0.0 for f in fields)
    if virtual or (tournament.header("192") or "").strip() not in _BAKU:
        return virtual
    order = sorted(numbers)
    round_one = {p.number for p in tournament.players if p.rounds and not is_absence(p.rounds[0])}
    return acceleration.baku(order, rounds, round_one=round_one or None, win=points["win"], draw=points["draw"])


def virtual_point_headers(virtual: Mapping[int, Sequence[float]]) -> list[tuple[str, str]]:
    """``XXA`` header lines for these virtual points, by start number."""
    return [("XXA", f"{number:>4}" + "".join(f" {p:>4.1f}" for p in virtual[number]))
            for number in sorted(virtual) if any(virtual[number])]


def declared(tournament: Tournament) -> Declared:
    """The total rounds, initial colour and point system the file gives, else the defaults
    (the rounds it holds; the colour inferred as bbpPairings does; FIDE's points)."""
    rounds = tournament.header("XXR") or tournament.header("142")
    colour: str | None = None
    xxc = (tournament.header("XXC") or "").split()
    if "white1" in xxc or tournament.header("152") == "W":
        colour = "w"
    elif "black1" in xxc or tournament.header("152") == "B":
        colour = "b"
    total = int(_header_number(rounds, "XXR")) if rounds else max((len(p.rounds) for p in tournament.players),
                                                                  default=0)
    points = _declared_points(tournament)
    return Declared(rounds=total, initial_colour=colour or _inferred_initial_colour(tournament), points=points,
                    virtual_points=_virtual_points(tournament, total, points))


def score(games: list[Game], points: dict[str, float] = POINTS) -> float:
    """The points of these games under ``points`` (as POINTS)."""
    return sum(points[_POINTS_BY_RESULT[g.result]] for g in games)


def before_round(tournament: Tournament, number: int) -> Tournament:
    """A copy as the tournament stood for pairing round ``number``: later rounds dropped,
    round ``number`` kept only for the players who sit it out (``is_absence``), points
    recounted. Total rounds and initial colour become header lines (XXR, XXC) when the file
    only implied them, so the copy pairs the same on its own (the last rounds and round 1
    depend on them)."""
    facts = declared(tournament)
    result = Tournament(headers=list(tournament.headers))
    if not (tournament.header("XXR") or tournament.header("142")):
        result.headers.append(("XXR", str(facts.rounds)))
    if facts.initial_colour and not (tournament.header("XXC") or tournament.header("152")):
        result.headers.append(("XXC", "white1" if facts.initial_colour == "w" else "black1"))
    for player in tournament.players:
        kept = copy.deepcopy(player)
        kept.rounds = kept.rounds[:number - 1]
        if len(player.rounds) >= number and is_absence(player.rounds[number - 1]):
            kept.rounds.append(copy.copy(player.rounds[number - 1]))
        kept.points = score(kept.rounds[:number - 1], facts.points)
        result.players.append(kept)
    return result


def next_round(tournament: Tournament) -> int:
    """The first round nobody has been paired in (absences set in advance do not count)."""
    return 1 + max((index for p in tournament.players for index, g in enumerate(p.rounds, start=1)
                    if not is_absence(g)), default=0)


def published_order(pairs: Sequence[tuple[int, int | None]], tournament: Tournament,
                    number: int) -> list[tuple[int, int | None]]:
    """(white, black) pairs in published board order (C.04.2): the bye last; then the higher
    player's score, the lower player's score, the higher player's start number; scores as
    before round ``number``."""
    points = declared(tournament).points
    before = {p.number: score(p.rounds[:number - 1], points) for p in tournament.players}

    def key(pair: tuple[int, int | None]) -> tuple[bool, float, float, int]:
        white, black = pair
        if black is None:
            return True, -before[white], 0.0, white
        higher, lower = sorted((white, black), key=lambda n: (-before[n], n))
        return False, -before[higher], -before[lower], higher

    return sorted(pairs, key=key)
