"""The API's JSON parser: DRF's, with a nesting limit.

Python's ``json`` recurses once per level: a body nested about a thousand deep raises
``RecursionError`` (a 500 through DRF's parser), and shallower ones still cost every later
walk of the data a deep recursion. Nothing the API takes nests more than a few levels, so
bodies deeper than ``MAX_DEPTH`` are refused as ``400 json_too_deep``. Oversized bodies
are refused before parsing (``api.base.ApiView``, ``413 body_too_large``)."""

from __future__ import annotations

from typing import Any

from rest_framework.exceptions import ParseError
from rest_framework.parsers import JSONParser as DRFJSONParser

MAX_DEPTH = 32


def depth_exceeds(data: Any, limit: int) -> bool:
    """Whether ``data`` nests containers deeper than ``limit`` (iterative: no recursion)."""
    stack: list[tuple[Any, int]] = [(data, 0)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict):
            children: Any = item.values()
        elif isinstance(item, list):
            children = item
        else:
            continue
        if depth + 1 > limit:
            return True
        stack.extend((child, depth + 1) for child in children)
    return False


class JSONParser(DRFJSONParser):
    def parse(self, stream: Any, media_type: str | None = None, parser_context: Any = None) -> Any:
        try:
            data = super().parse(stream, media_type, parser_context)
        except RecursionError:
            raise _too_deep() from None
        if depth_exceeds(data, MAX_DEPTH):
            raise _too_deep()
        return data


class JSONTooDeep(ParseError):
    """``api.errors`` answers it as ``400 json_too_deep`` with ``extra.limit``."""

    default_detail = f"The JSON body nests deeper than {MAX_DEPTH} levels."
    limit = MAX_DEPTH


def _too_deep() -> JSONTooDeep:
    return JSONTooDeep()
