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
"""

from __future__ import annotations

from dataclasses import dataclass, field

RESULTS = frozenset("10=+-WDLHFUZ ")
COLOURS = frozenset("wb- ")
BYES = frozenset("HFUZ ")
_ROUND_AT = 89  # 0-based start of round 1's block "  oooo c r" (its opponent in FIDE's columns 92-95)


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
    line = (f"001 {p.number:>4} {p.sex[:1]:1}{p.title[:3]:>3} {p.name[:33]:<33} {rating} {p.federation[:3]:<3} "
            f"{p.fide_id[:11]:>11} {p.birth[:10]:<10} {p.points:>4.1f} {p.rank:>4}")
    for game in p.rounds:
        opponent = f"{game.opponent:>4}" if game.opponent is not None else "0000"
        line += f"  {opponent} {game.colour} {game.result}"
    return line.rstrip()


def write(tournament: Tournament) -> str:
    lines = [f"{tag} {text}".rstrip() for tag, text in tournament.headers]
    lines += [_player_line(p) for p in tournament.players]
    return "\n".join(lines) + "\n"


def _number(text: str, what: str, where: str) -> int:
    text = text.strip()
    if not text.isdigit():
        raise TrfError(f"{where}: the {what} must be a number, not {text!r}.")
    return int(text)


def _read_player(line: str, where: str) -> Player:
    if len(line) < 8:
        raise TrfError(f"{where}: a player line holds at least the start number (columns 5-8).")
    padded = line.ljust(max(89, len(line)))
    rating = padded[48:52].strip()
    points = padded[80:84].strip()
    try:
        points_value = float(points) if points else 0.0
    except ValueError:
        raise TrfError(f"{where}: the points (columns 81-84) must be a number like 2.5, not {points!r}.") from None
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


def round_pairings(tournament: Tournament, number: int) -> list[tuple[int, int | None]]:
    """Round ``number``'s pairings as (moves first, moves second) start numbers, (n, None)
    for the pairing-allocated bye (U). Refuses (TrfError) what does not pair every player
    once: one-sided or mismatched pairings, colours that do not differ, absences."""
    pairs: list[tuple[int, int | None]] = []
    by_number = {p.number: p for p in tournament.players}
    done: set[int] = set()
    byes = 0
    for player in tournament.players:
        if len(player.rounds) < number:
            raise TrfError(f"Start number {player.number} has no round {number}: every player is paired or "
                           "has the bye.")
        game = player.rounds[number - 1]
        if player.number in done:
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
