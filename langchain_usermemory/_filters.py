"""Filters and namespace matching with the semantics of LangGraph's own stores."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from langgraph.store.base import MatchCondition

from shared_core import InvalidInputError

__all__ = ["matches", "ns_matches", "validate_filter"]


_OPERATORS = frozenset({"$eq", "$ne", "$gt", "$gte", "$lt", "$lte"})


def validate_filter(condition: Any) -> None:
    """Reject unknown ``$`` operators up front (even when nothing would be compared)."""
    if isinstance(condition, Mapping):
        for key, value in condition.items():
            if str(key).startswith("$") and key not in _OPERATORS:
                raise InvalidInputError(f"unsupported filter operator {key!r}")
            validate_filter(value)
    elif isinstance(condition, list | tuple):
        for value in condition:
            validate_filter(value)


def _number(value: Any) -> float | None:
    if isinstance(value, bool) or not isinstance(value, int | float | str):
        return None
    try:
        return float(value)
    except ValueError:
        return None


def _order(value: Any, operator: str, arg: Any) -> bool:
    a, b = _number(value), _number(arg)
    if a is None or b is None:
        return False
    if operator == "$gt":
        return a > b
    if operator == "$gte":
        return a >= b
    if operator == "$lt":
        return a < b
    return a <= b


def _compare(value: Any, condition: Any) -> bool:
    """JSONB-like comparison, as in LangGraph's ``InMemoryStore`` / ``PostgresStore``."""
    if isinstance(condition, Mapping):
        if any(str(k).startswith("$") for k in condition):
            results = []
            for operator, arg in condition.items():
                if operator == "$eq":
                    results.append(value == arg)
                elif operator == "$ne":
                    results.append(value != arg)
                elif operator in ("$gt", "$gte", "$lt", "$lte"):
                    results.append(_order(value, operator, arg))
                else:
                    raise InvalidInputError(f"unsupported filter operator {operator!r}")
            return all(results)
        return isinstance(value, Mapping) and all(
            _compare(value.get(k), v) for k, v in condition.items()
        )
    if isinstance(condition, list | tuple):
        return (
            isinstance(value, list | tuple)
            and len(value) == len(condition)
            and all(_compare(v, c) for v, c in zip(value, condition, strict=True))
        )
    return bool(value == condition)


def matches(value: Mapping[str, Any], flt: Mapping[str, Any] | None) -> bool:
    """Whether an item value passes a store ``filter`` (no filter passes everything).

    Args:
        value: the item's value.
        flt: ``{field: value | {"$op": value}}``.

    Returns:
        True when every field condition holds.
    """
    return not flt or all(_compare(value.get(k), v) for k, v in flt.items())


def ns_matches(condition: MatchCondition, namespace: tuple[str, ...]) -> bool:
    """Whether a namespace matches a prefix/suffix condition ("*" matches any label).

    Args:
        condition: the match condition.
        namespace: the namespace.

    Returns:
        True on a match.
    """
    path = tuple(condition.path)
    if len(path) > len(namespace):
        return False
    part = namespace[: len(path)] if condition.match_type == "prefix" else namespace[-len(path) :]
    if not path:
        return True
    return all(p == "*" or p == n for p, n in zip(path, part, strict=True))
