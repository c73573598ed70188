"""The time-control vocabulary: the one place that puts a rule set's clock into words
("1 min per move", "3 min per game", "No clock"), sorts it into a pace for the lobby's
filter, and says how long a game without a clock may sit idle (docs/game-page.md,
"Clocks"). The pages, notices, lobby and services all read it here.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db.models import Q

#: A per-move limit of at least an hour, or (without one) a game clock of at least a
#: day, is correspondence: a player may be away, so their turn is a notice.
CORRESPONDENCE_SECONDS_PER_MOVE = 60 * 60
CORRESPONDENCE_SECONDS_PER_GAME = 24 * 60 * 60
#: Up to this per move, or (without one) up to this per game, is a quick game.
QUICK_SECONDS_PER_MOVE = 60
QUICK_SECONDS_PER_GAME = 10 * 60

#: The lobby's pace filter: value -> what the filter bar shows (PACE_HELP says the bounds).
PACES = {"quick": "Quick", "long": "Longer", "correspondence": "Correspondence", "none": "No clock"}
PACE_HELP = ("Quick: up to 1 min per move or 10 min per game. Correspondence: an hour or more per move, "
             "or a day or more per game. Longer: in between.")


#: The units a length is said in, largest first: (seconds in one, singular, plural, short).
_UNITS = ((24 * 3600, "day", "days", ""), (3600, "hour", "hours", "h"), (60, "minute", "minutes", "min"),
          (1, "second", "seconds", "s"))


def duration_words(seconds: int, *, short: bool = False) -> str:
    """A length as people say it: "3 minutes", "10 seconds", "1 minute 30 seconds",
    "1 hour 30 minutes", "2 days" (not "180 s"). ``short``: a label's, where room is
    scarce (the lobby's clock column): "3 min", "1 h 30 min", "2 days"."""
    parts = []
    for size, one, many, abbreviation in _UNITS:
        count, seconds = divmod(seconds, size)
        if count:
            parts.append(f"{count} {abbreviation if short and abbreviation else one if count == 1 else many}")
    return " ".join(parts) or ("0 s" if short else "0 seconds")


def clock_text(ms: int) -> str:
    """A clock's face: "0:42", "12:05", "1:02:03", "2d 23:59" (static/js/game.js's clockText
    draws the same between frames)."""
    total = -(-max(ms, 0) // 1000)  # whole seconds, rounded up: 0:00 only once time is out
    days, rest = divmod(total, 24 * 3600)
    hours, rest = divmod(rest, 3600)
    minutes, secs = divmod(rest, 60)
    if days:
        return f"{days}d {hours:02d}:{minutes:02d}"
    if hours:
        return f"{hours}:{minutes:02d}:{secs:02d}"
    return f"{minutes}:{secs:02d}"


def label(seconds_per_move: int | None, seconds_per_game: int | None) -> str:
    """The short label of a clock: "1 min per move", "5 min per game, 30 s per move", "No clock"."""
    parts = []
    if seconds_per_game:
        parts.append(f"{duration_words(seconds_per_game, short=True)} per game")
    if seconds_per_move:
        parts.append(f"{duration_words(seconds_per_move, short=True)} per move")
    return ", ".join(parts) if parts else "No clock"


def label_of(rule_set: Any) -> str:
    """The label of a RuleSet (anything with the two clock fields)."""
    return label(rule_set.seconds_per_move, rule_set.seconds_per_game)


def pace(seconds_per_move: int | None, seconds_per_game: int | None) -> str:
    """The lobby filter's pace of a clock (a key of PACES). A per-move limit sets the
    pace when there is one: it is the nearer deadline on every turn."""
    if seconds_per_move:
        if seconds_per_move <= QUICK_SECONDS_PER_MOVE:
            return "quick"
        return "correspondence" if seconds_per_move >= CORRESPONDENCE_SECONDS_PER_MOVE else "long"
    if seconds_per_game:
        if seconds_per_game <= QUICK_SECONDS_PER_GAME:
            return "quick"
        return "correspondence" if seconds_per_game >= CORRESPONDENCE_SECONDS_PER_GAME else "long"
    return "none"


def pace_filter(key: str, prefix: str = "rule_set__") -> Q:
    """The rows (games by default) whose rule set has the pace ``key``, as ``pace`` sorts them."""
    per_move, per_game = f"{prefix}seconds_per_move", f"{prefix}seconds_per_game"
    no_move_limit = Q(**{f"{per_move}__isnull": True})
    bounds = {
        "quick": (Q(**{f"{per_move}__lte": QUICK_SECONDS_PER_MOVE}),
                  Q(**{f"{per_game}__lte": QUICK_SECONDS_PER_GAME})),
        "long": (Q(**{f"{per_move}__gt": QUICK_SECONDS_PER_MOVE, f"{per_move}__lt": CORRESPONDENCE_SECONDS_PER_MOVE}),
                 Q(**{f"{per_game}__gt": QUICK_SECONDS_PER_GAME, f"{per_game}__lt": CORRESPONDENCE_SECONDS_PER_GAME})),
        "correspondence": (Q(**{f"{per_move}__gte": CORRESPONDENCE_SECONDS_PER_MOVE}),
                           Q(**{f"{per_game}__gte": CORRESPONDENCE_SECONDS_PER_GAME})),
    }
    if key == "none":
        return no_move_limit & Q(**{f"{per_game}__isnull": True})
    by_move, by_game = bounds[key]
    return by_move | (no_move_limit & by_game)


def is_correspondence(rule_set: Any) -> bool:
    return pace(rule_set.seconds_per_move, rule_set.seconds_per_game) == "correspondence"


def idle_seconds() -> int:
    """How long a game without a clock may wait for a move before it ends as abandoned
    (settings.GAME_IDLE_SECONDS; docs/operations.md)."""
    return int(settings.GAME_IDLE_SECONDS)
