"""Hand-written SQL for the reads every move and every websocket connect make, with
model instances out, as the ORM would give them.

Why: on the live path Django's query compiler, not the database, was the cost. A game
locked with its rules took 1.15 ms of CPU through the ORM and 0.2 ms by hand; a move
and a connect each read the game, its seats and its moves (docs/benchmarks-live.md).
The SQL is plain enough for PostgreSQL and SQLite alike; the values go through the
same converters the ORM applies, so what comes out equals what the ORM returns (tests
compare them field by field).
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from django.db import DEFAULT_DB_ALIAS, connections
from django.db.models import Field, Model
from django.db.models.sql import Query

from accounts.models import Profile, User

from .models import Game, Match, Move, PrivateNote, RuleSet, Seat


@dataclass(frozen=True)
class Shape:
    """One model's part of a row: its table alias and the fields selected (all its
    concrete fields unless named; the rest load on first use, as with ``only()``)."""

    model: type[Model]
    alias: str
    only: tuple[str, ...] = ()

    @functools.cached_property
    def fields(self) -> list[Any]:
        fields = self.model._meta.concrete_fields
        return [f for f in fields if f.attname in self.only] if self.only else list(fields)

    @functools.cached_property
    def attnames(self) -> list[str]:
        return [f.attname for f in self.fields]

    @functools.cached_property
    def pk_index(self) -> int:
        return self.fields.index(self.model._meta.pk)

    @functools.cached_property
    def columns(self) -> list[Any]:
        return [f.get_col(self.alias) for f in self.fields]

    def select(self) -> str:
        quote = connections[DEFAULT_DB_ALIAS].ops.quote_name
        return ", ".join(f"{self.alias}.{quote(f.column)}" for f in self.fields)


def fetch(sql: str, params: Sequence[Any], shapes: Sequence[Shape]) -> list[list[Any]]:
    """The rows of ``sql``, whose select list is each shape's ``select()`` in turn, as
    one model instance per shape (None where a LEFT JOIN found no row)."""
    connection = connections[DEFAULT_DB_ALIAS]
    # The converters the ORM itself applies (JSON text, SQLite's dates and booleans).
    compiler = connection.ops.compiler("SQLCompiler")(Query(shapes[0].model), connection, DEFAULT_DB_ALIAS)
    converters = compiler.get_converters([column for shape in shapes for column in shape.columns])
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        rows = cursor.fetchall()
    if converters:
        rows = list(compiler.apply_converters(rows, converters))
    out = []
    for row in rows:
        instances, start = [], 0
        for shape in shapes:
            end = start + len(shape.attnames)
            values = row[start:end]
            start = end
            instances.append(
                None if values[shape.pk_index] is None else shape.model.from_db(DEFAULT_DB_ALIAS, shape.attnames, values)
            )
        out.append(instances)
    return out


M = TypeVar("M", bound=Model)


def concrete_field(model: type[Model], name: str) -> Field[Any, Any]:
    """A field with a column: the only kind these statements read or write."""
    field = model._meta.get_field(name)
    assert isinstance(field, Field)
    return field


def table(model: type[Model]) -> str:
    return connections[DEFAULT_DB_ALIAS].ops.quote_name(model._meta.db_table)


def select(shapes: Sequence[Shape]) -> str:
    return ", ".join(shape.select() for shape in shapes)


_GAME = (Shape(Game, "g"), Shape(RuleSet, "r"), Shape(Match, "m"))
_SEAT = (
    Shape(Seat, "s"),
    Shape(User, "u", ("id", "username", "is_active")),
    Shape(Profile, "p", ("id", "user_id", "display_name")),
)
_MOVE = (Shape(Move, "mv"),)
_LARGEST_ID = 2**63 - 1  # BigAutoField
_PROFILE_OF_USER = User.profile.related  # the OneToOneRel, as User._meta.get_field("profile")


# The statements, written once per process (one database per process).


@functools.cache
def _game_sql(lock: bool, skip_locked: bool) -> str:
    features = connections[DEFAULT_DB_ALIAS].features
    lock_clause = ""
    if lock and features.has_select_for_update:
        lock_clause = " FOR UPDATE OF g" if features.has_select_for_update_of else " FOR UPDATE"
        if skip_locked and features.has_select_for_update_skip_locked:
            lock_clause += " SKIP LOCKED"
    return (
        f"SELECT {select(_GAME)} FROM {table(Game)} g"
        f" JOIN {table(RuleSet)} r ON r.id = g.rule_set_id"
        f" LEFT JOIN {table(Match)} m ON m.id = g.match_id"
        f" WHERE g.id = %s{lock_clause}"
    )


@functools.cache
def _seats_sql() -> str:
    return (
        f"SELECT {select(_SEAT)} FROM {table(Seat)} s"
        f" LEFT JOIN {table(User)} u ON u.id = s.user_id"
        f" LEFT JOIN {table(Profile)} p ON p.user_id = s.user_id"
        f" WHERE s.game_id = %s ORDER BY s.number"
    )


@functools.cache
def _moves_sql() -> str:
    return f"SELECT {select(_MOVE)} FROM {table(Move)} mv WHERE mv.game_id = %s ORDER BY mv.ply"


def game(game_id: int, *, lock: bool = False, skip_locked: bool = False) -> Game | None:
    """The game with its rules, match and seats (``seats_in_hand``, with users and
    profiles), in two queries; ``lock``: the game row locked for the transaction (only
    that row: every game of a house-rule set shares its RuleSet row); ``skip_locked``:
    None if another transaction holds that lock, rather than waiting for it."""
    if not 0 < game_id <= _LARGEST_ID:
        return None  # no such row; the database would refuse the number itself
    rows = fetch(_game_sql(lock, skip_locked), [game_id], _GAME)
    if not rows:
        return None
    found, rule_set, match = rows[0]
    found.rule_set = rule_set
    found.match = match
    found.seats_in_hand = seats(game_id)
    for seat in found.seats_in_hand:
        seat.game = found  # as a prefetch leaves it: the seat's game without a query
    return found


def seats(game_id: int) -> list[Seat]:
    """A game's seats in order, each with its user and the user's profile."""
    out = []
    for seat, user, profile in fetch(_seats_sql(), [game_id], _SEAT):
        if user is not None:
            # As select_related leaves it: a user without a profile reads None, no query.
            _PROFILE_OF_USER.set_cached_value(user, profile)
            seat.user = user
        out.append(seat)
    return out


def moves(game_id: int) -> list[Move]:
    """A game's move log, in order."""
    return [move for (move,) in fetch(_moves_sql(), [game_id], _MOVE)]


# -- writes ---------------------------------------------------------------------------------
# The two writes of every move, by hand for the same reason as the reads. Values go
# through each field's own pre_save and get_db_prep_save, as Model.save() does them.
# Model signals are not sent: no receiver listens to Move, Game or Observer (a test
# holds that).


@functools.cache
def _insert_sql(model: type[Model], columns: tuple[str, ...], ignore_conflicts: bool) -> str:
    connection = connections[DEFAULT_DB_ALIAS]
    quote = connection.ops.quote_name
    conflicts = " ON CONFLICT DO NOTHING" if ignore_conflicts else ""
    returning = f" RETURNING {quote(model._meta.pk.column)}" if connection.features.can_return_columns_from_insert else ""
    return (
        f"INSERT INTO {table(model)} ({', '.join(quote(c) for c in columns)})"
        f" VALUES ({', '.join(['%s'] * len(columns))}){conflicts}{returning}"
    )


def insert(instance: M, *, ignore_conflicts: bool = False) -> M:
    """INSERT a new ``instance`` (every concrete field but its auto primary key) and
    give it its primary key: ``Model.save()`` of a new row, minus signals. With
    ``ignore_conflicts``, a row that breaks a unique constraint is not inserted (and the
    instance gets no primary key), as ``bulk_create(ignore_conflicts=True)``."""
    connection = connections[DEFAULT_DB_ALIAS]
    meta = instance._meta
    fields = [f for f in meta.concrete_fields if f is not meta.auto_field]
    values = [f.get_db_prep_save(f.pre_save(instance, True), connection) for f in fields]
    statement = _insert_sql(type(instance), tuple(f.column for f in fields), ignore_conflicts)
    with connection.cursor() as cursor:
        cursor.execute(statement, values)
        if connection.features.can_return_columns_from_insert:
            row = cursor.fetchone()
            pk = row[0] if row else None
        else:
            pk = cursor.lastrowid if cursor.rowcount else None
    if pk is not None:
        setattr(instance, meta.pk.attname, pk)
        instance._state.adding = False
        instance._state.db = DEFAULT_DB_ALIAS
    return instance


@functools.cache
def _count_sql(model: type[Model], column: str) -> str:
    return f"SELECT COUNT(*) FROM {table(model)} WHERE {connections[DEFAULT_DB_ALIAS].ops.quote_name(column)} = %s"


def count(model: type[Model], field_name: str, value: Any) -> int:
    """How many rows of ``model`` have ``field_name`` = ``value``."""
    with connections[DEFAULT_DB_ALIAS].cursor() as cursor:
        cursor.execute(_count_sql(model, concrete_field(model, field_name).column), [value])
        return int(cursor.fetchone()[0])


@functools.cache
def _delete_sql(model: type[Model], column: str) -> str:
    return f"DELETE FROM {table(model)} WHERE {connections[DEFAULT_DB_ALIAS].ops.quote_name(column)} = %s"


def delete(model: type[Model], field_name: str, value: Any) -> None:
    """DELETE the rows of ``model`` with ``field_name`` = ``value``; for models nothing
    refers to (no cascades to follow) and no receiver listens to."""
    with connections[DEFAULT_DB_ALIAS].cursor() as cursor:
        cursor.execute(_delete_sql(model, concrete_field(model, field_name).column), [value])


@functools.cache
def _update_sql(model: type[Model], columns: tuple[str, ...]) -> str:
    quote = connections[DEFAULT_DB_ALIAS].ops.quote_name
    assignments = ", ".join(f"{quote(c)} = %s" for c in columns)
    return f"UPDATE {table(model)} SET {assignments} WHERE {quote(model._meta.pk.column)} = %s"


def update(instance: Model, field_names: Sequence[str]) -> None:
    """UPDATE the named fields of a stored ``instance``: ``save(update_fields=...)``,
    minus signals."""
    connection = connections[DEFAULT_DB_ALIAS]
    fields = [concrete_field(type(instance), name) for name in field_names]
    values = [f.get_db_prep_save(f.pre_save(instance, False), connection) for f in fields]
    with connection.cursor() as cursor:
        cursor.execute(_update_sql(type(instance), tuple(f.column for f in fields)), [*values, instance.pk])


@functools.cache
def _note_sql() -> str:
    return f"SELECT text FROM {table(PrivateNote)} WHERE game_id = %s AND author_id = %s"


def note_text(game_id: int, author_id: int) -> str:
    """A player's private notes on a game ("" when none)."""
    with connections[DEFAULT_DB_ALIAS].cursor() as cursor:
        cursor.execute(_note_sql(), [game_id, author_id])
        row = cursor.fetchone()
    return row[0] if row else ""
