"""Model instances read by one hand-written statement, for the hot paths of every request.

The ORM compiles a queryset each time it runs: about 0.6 ms of CPU for a one-row lookup
on this project's machine, against 0.1 ms for the same statement sent as text and the
row turned into the model by ``Model.from_db`` (``bench.api_load``'s profile, issue 30).
A command or a state read makes two or three such lookups (the token's user, the table's
open takeback request, a seat's sealed pass), so the ORM's compiling was about a third of
what a command or a read cost the server (in-process CPU, docs/benchmarks.md). The
instances are the ORM's own (``from_db``): whatever reads them afterwards cannot tell.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import cache
from typing import Any, TypeVar

from django.db import connections, models

M = TypeVar("M", bound=models.Model)

Converter = Callable[[Any, Any, Any], Any]


@cache
def _columns(
    model: type[models.Model], using: str
) -> tuple[str, tuple[str, ...], tuple[tuple[int, models.Field[Any, Any], Converter], ...]]:
    fields = model._meta.concrete_fields
    quoted = ", ".join(f'"{field.column}"' for field in fields)
    # the converters the ORM would apply (a JSONField's text parsed, say)
    converters = tuple(
        (index, field, converter)
        for index, field in enumerate(fields)
        for converter in field.get_db_converters(connections[using])
    )
    return quoted, tuple(field.attname for field in fields), converters


def select(model: type[M], where: str, params: Sequence[Any], *, using: str = "default") -> list[M]:
    """``SELECT <every column> FROM <the model's table> <where>``: ``where`` is the rest of
    the statement (conditions, order, limit) with ``%s`` placeholders for ``params``."""
    quoted, names, converters = _columns(model, using)
    table = model._meta.db_table
    sql = f'SELECT {quoted} FROM "{table}" {where}'  # noqa: S608 - the model's own names
    connection = connections[using]
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        rows = cursor.fetchall()
    found = []
    for row in rows:
        values = list(row)
        for index, field, converter in converters:
            values[index] = converter(values[index], field, connection)
        found.append(model.from_db(using, names, values))
    return found


def select_one(
    model: type[M], where: str, params: Sequence[Any], *, using: str = "default"
) -> M | None:
    """The first row of ``select`` (``where`` should end in its own ``LIMIT 1``)."""
    found = select(model, where, params, using=using)
    return found[0] if found else None
