"""Writes for house-rule sets: the only code that creates or revises a RuleSet.

A set is never edited in place: a revision is a new version of its family, so games
already started keep the rules they began with (games/ownership.py says who may revise).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NamedTuple

from django.db import IntegrityError, transaction

from accounts import lookalikes
from accounts.errors import ServiceError
from accounts.models import User

from . import ownership
from .models import RuleSet
from .rules import RuleError, get_variant

#: The longest clock or no-show grace period a rule set may have: 366 days.
MAX_RULE_SECONDS = 366 * 24 * 3600
#: The shortest no-show grace. Decision: 30 s, time to come to the board from the
#: pairing's notice; with 0 every game of the set was forfeited at once.
MIN_NO_SHOW_SECONDS = 30


class Bounds(NamedTuple):
    """A number field's range and what a value outside it (or no whole number) is told."""

    least: int
    most: int
    refusal: str


#: A rule set's number fields. The service's check and the admin form's fields read the
#: same entry, so a bad number gets these words wherever it is typed, not Django's
#: "Ensure this value is greater than or equal to 0.", which names neither field nor range.
NUMBER_FIELDS: dict[str, Bounds] = {
    "match_games": Bounds(1, 99, "A match has from 1 to 99 games."),
    "seconds_per_move": Bounds(1, MAX_RULE_SECONDS, (
        f"The seconds per move is a whole number of seconds from 1 to {MAX_RULE_SECONDS:,} (366 days), "
        "or empty for no limit per move.")),
    "seconds_per_game": Bounds(1, MAX_RULE_SECONDS, (
        f"The seconds per game is a whole number of seconds from 1 to {MAX_RULE_SECONDS:,} (366 days), "
        "or empty for no game clock.")),
    "no_show_seconds": Bounds(MIN_NO_SHOW_SECONDS, MAX_RULE_SECONDS, (
        f"The no-show grace period is a whole number of seconds from {MIN_NO_SHOW_SECONDS} to "
        f"{MAX_RULE_SECONDS:,} (366 days): at least {MIN_NO_SHOW_SECONDS} seconds, or every game would be "
        "forfeited before anyone could move.")),
}


def _within(value: Any, bounds: Bounds) -> bool:
    return not isinstance(value, bool) and isinstance(value, int) and bounds.least <= value <= bounds.most


def validate_rule_options(*, variant: str, options: Mapping[str, Any] | None) -> dict[str, Any]:
    """The options with defaults filled in; ServiceError with the engine's message if bad."""
    try:
        return get_variant(variant).validate_options(options)
    except RuleError as err:
        raise ServiceError(err.code, err.message) from err


@transaction.atomic
def create_rule_set(
    *,
    name: str,
    variant: str,
    options: Mapping[str, Any] | None = None,
    decider: str = RuleSet.Decider.CHALLENGER,
    seconds_per_move: int | None = None,
    seconds_per_game: int | None = None,
    no_show_seconds: int = 300,
    match_format: str = RuleSet.MatchFormat.SINGLE,
    match_games: int = 1,
    next_first: str = RuleSet.NextFirst.LOSER,
    created_by: User | None = None,
    is_standard: bool = False,
    for_lessons: bool = False,
) -> RuleSet:
    """A new set, kept by ``created_by`` (None: the platform's; games/ownership.py).
    ``is_standard`` only from standard_rule_set."""
    _check_name(name)
    _check_match_fields(variant, match_format, match_games, next_first)
    _check_play_fields(decider, seconds_per_move, seconds_per_game, no_show_seconds)
    return RuleSet.objects.create(
        name=name,
        variant=variant,
        options=validate_rule_options(variant=variant, options=options),
        decider=decider,
        seconds_per_move=seconds_per_move,
        seconds_per_game=seconds_per_game,
        no_show_seconds=no_show_seconds,
        match_format=match_format,
        match_games=match_games,
        next_first=next_first,
        created_by=created_by,
        is_standard=is_standard,
        for_lessons=for_lessons,
    )


def _check_name(name: str) -> None:
    """A set's name is shown in lobbies, forms and game pages: nothing hidden in it, and
    no letter of another script passing for a Latin one ("A h\u043euse" with a Cyrillic
    "\u043e" listed beside the club's "A house": an outside probe, 2026-12-01)."""
    lookalikes.refuse_hidden(name, what="house-rule set")
    if lookalikes.look_alike(name):
        raise ServiceError("bad-name", f"A house-rule set's name {lookalikes.MIXED_SCRIPTS}")


def _check_play_fields(
    decider: str, seconds_per_move: int | None, seconds_per_game: int | None, no_show_seconds: int
) -> None:
    if decider not in RuleSet.Decider.values:
        raise ServiceError("bad-decider", f"Player One is decided by one of: {', '.join(RuleSet.Decider.values)}.")
    clocks = {"no_show_seconds": no_show_seconds, "seconds_per_move": seconds_per_move,
              "seconds_per_game": seconds_per_game}
    for name, value in clocks.items():
        if value is None and name != "no_show_seconds":
            continue  # no limit per move, or no game clock
        if not _within(value, NUMBER_FIELDS[name]):  # our own bound, well inside the integer column
            raise ServiceError("bad-time-control", NUMBER_FIELDS[name].refusal)


def _check_match_fields(variant: str, match_format: str, match_games: int, next_first: str) -> None:
    if match_format not in RuleSet.MatchFormat.values:
        raise ServiceError("bad-match-rules", f"A match is one of: {', '.join(RuleSet.MatchFormat.values)}.")
    if match_format == RuleSet.MatchFormat.OFFICIAL and variant != "t-tic-t-tac-toe":
        raise ServiceError("bad-match-rules", "The official match (preliminaries and five games) is T-Tic-T-Tac-Toe's.")
    if not _within(match_games, NUMBER_FIELDS["match_games"]):
        raise ServiceError("bad-match-rules", NUMBER_FIELDS["match_games"].refusal)
    if next_first not in RuleSet.NextFirst.values:
        raise ServiceError("bad-match-rules", f"Who goes first next is one of: {', '.join(RuleSet.NextFirst.values)}.")


@transaction.atomic
def revise_rule_set(*, rule_set: RuleSet, created_by: User | None = None, **changes: Any) -> RuleSet:
    """A new version of the set; games already started keep the version they used.

    Only who the permission "games.revise_ruleset" allows (games/ownership.py):
    ``created_by`` None is the platform itself (a command). Every revision is told to
    the recorders (the audit log) in this transaction.
    """
    current = RuleSet.objects.select_for_update().filter(family=rule_set.family).order_by("-version").first()
    assert current is not None
    keeper = ownership.keeper_of(current)
    if created_by is not None and not ownership.may_revise(current, created_by):
        raise ServiceError(keeper.refusal.code, keeper.refusal.message)
    fields = {
        "name": current.name,
        "variant": current.variant,
        "options": current.options,
        "decider": current.decider,
        "seconds_per_move": current.seconds_per_move,
        "seconds_per_game": current.seconds_per_game,
        "no_show_seconds": current.no_show_seconds,
        "match_format": current.match_format,
        "match_games": current.match_games,
        "next_first": current.next_first,
    }
    unknown = set(changes) - set(fields)
    if unknown:
        raise ServiceError("bad-field", f"A rule set has no field {sorted(unknown)[0]!r}.")
    fields.update(changes)
    _check_name(fields["name"])
    if fields["variant"] != current.variant:
        # Games, sections and the standard set of each variant rely on it.
        raise ServiceError("variant-fixed", "A rule set keeps its variant; create a new set for another one.")
    _check_match_fields(fields["variant"], fields["match_format"], fields["match_games"], fields["next_first"])
    _check_play_fields(fields["decider"], fields["seconds_per_move"], fields["seconds_per_game"],
                       fields["no_show_seconds"])
    fields["options"] = validate_rule_options(variant=fields["variant"], options=fields["options"])
    RuleSet.objects.filter(family=current.family).update(is_current=False)
    revised = RuleSet.objects.create(
        family=current.family, version=current.version + 1, created_by=created_by, is_current=True,
        is_standard=current.is_standard, **fields
    )
    ownership.revised(current, revised, created_by, keeper)
    return revised


def standard_rule_set(variant: str) -> RuleSet:
    """The variant's standard rules (the text's own), with the variant's default clock,
    created on first use. Found by its mark, never by its name: anyone may call a set of
    theirs "Standard classic". Sets made before the defaults were revised to them by
    migration games 0004."""
    try:
        engine = get_variant(variant)
    except RuleError as err:
        raise ServiceError(err.code, err.message) from err
    rule_set = RuleSet.objects.filter(is_standard=True, variant=variant, is_current=True).first()
    if rule_set is not None:
        return rule_set
    try:
        with transaction.atomic():
            return create_rule_set(
                name=f"Standard {variant}", variant=variant, is_standard=True,
                seconds_per_move=engine.default_seconds_per_move, seconds_per_game=engine.default_seconds_per_game,
            )
    except IntegrityError:  # another request made it first (one current standard set per variant)
        return RuleSet.objects.get(is_standard=True, variant=variant, is_current=True)
