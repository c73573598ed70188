"""Hand-written reads with model instances out, as the ORM would give them, for the few
reads every page, move or websocket connect makes (writes go through the ORM).

Why: on those paths Django's query compiler, not the database, was the cost (a
select_related over five tables took 3.5-5.0 ms of CPU to compile and read, 0.17 ms
so): figures beside each use (games/sql.py, accounts/backends.py, accounts/sessions.py,
accounts/notices.py, moderation/watching.py, league/competitions/places.py) and in
docs/benchmarks-live.md. The SQL is plain enough
for PostgreSQL and SQLite alike; the values go through the same converters the ORM
applies, so what comes out equals what the ORM returns (tests compare them)."""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.db import DEFAULT_DB_ALIAS, connections
from django.db.models import Model
from django.db.models.sql import Query


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


def table(model: type[Model]) -> str:
    return connections[DEFAULT_DB_ALIAS].ops.quote_name(model._meta.db_table)


def select(shapes: Sequence[Shape]) -> str:
    return ", ".join(shape.select() for shape in shapes)
