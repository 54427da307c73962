"""Input validation at the public entry points: bad input fails fast with a typed error.

Nothing reaches a store before it passes here, so a rejected call changes nothing.
"""

from __future__ import annotations

import math
from datetime import datetime
from typing import Any

from .clock import as_utc
from .entities import Kind, Scope, Source
from .errors import InvalidInputError, TextTooLargeError
from .ids import check_encodable, check_id, check_optional_id

__all__ = [
    "check_count",
    "check_datetime",
    "check_enum",
    "check_flag",
    "check_id",
    "check_key",
    "check_optional_id",
    "check_text",
    "check_value",
]

ROLES = frozenset({"user", "assistant", "system", "tool"})


def check_text(value: Any, what: str = "text", *, max_chars: int) -> str:
    """A non-blank string no longer than ``max_chars``, without NUL bytes or lone surrogates."""
    if not isinstance(value, str):
        raise InvalidInputError(f"{what} must be a str, got {type(value).__name__}")
    if not value.strip():
        raise InvalidInputError(f"{what} must not be empty")
    if len(value) > max_chars:
        raise TextTooLargeError(
            f"{what} is {len(value)} characters; the limit is {max_chars} "
            "(MemoryConfig.max_text_chars): split it into turns"
        )
    check_encodable(value, what, InvalidInputError)
    return value


def check_flag(value: Any, what: str) -> bool:
    """A ``bool`` (not a truthy string or number: ``"no"`` would read as yes).

    Raises:
        InvalidInputError: anything else.
    """
    if not isinstance(value, bool):
        raise InvalidInputError(f"{what} must be a bool, got {value!r}")
    return value


def check_count(value: Any, what: str, *, minimum: int | None = 1) -> int:
    """An ``int`` (never a ``bool``) of at least ``minimum`` (``None``: any integer).

    Raises:
        InvalidInputError: anything else.
    """
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidInputError(f"{what} must be an integer, got {value!r}")
    if minimum is not None and value < minimum:
        raise InvalidInputError(f"{what} must be at least {minimum}, got {value!r}")
    return value


def check_key(value: Any) -> str:
    """A memory key: non-empty, at most 200 characters, no NUL / line breaks."""
    key = check_id(value, "key", max_chars=200)
    return key.strip()


def check_value(value: Any, *, max_chars: int) -> str:
    """A memory value: str, int, float or bool, stored as text.

    Raises:
        InvalidInputError: another type, a non-finite float, an int too long to write as
            text (Python's 4,300-digit limit) or text that ``check_text`` refuses.
    """
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        if not math.isfinite(value):
            raise InvalidInputError(f"value must be a finite number, got {value!r}")
        return check_text(str(value), "value", max_chars=max_chars)
    if isinstance(value, int):
        try:
            text = str(value)
        except ValueError as exc:  # int -> str digit limit (sys.get_int_max_str_digits)
            raise InvalidInputError(f"value is an integer too large to store: {exc}") from exc
        return check_text(text, "value", max_chars=max_chars)
    return check_text(value, "value", max_chars=max_chars)


def check_datetime(value: Any, what: str = "at") -> datetime | None:
    if value is None:
        return None
    if not isinstance(value, datetime):
        raise InvalidInputError(f"{what} must be a datetime, got {type(value).__name__}")
    return as_utc(value)


def check_enum(value: Any, enum: type[Kind] | type[Source] | type[Scope], what: str) -> Any:
    try:
        return enum(value)
    except ValueError as exc:
        allowed = ", ".join(m.value for m in enum)
        raise InvalidInputError(f"{what} must be one of: {allowed}; got {value!r}") from exc


def check_role(value: Any) -> str:
    if value not in ROLES:
        raise InvalidInputError(f"role must be one of {sorted(ROLES)}, got {value!r}")
    return str(value)
