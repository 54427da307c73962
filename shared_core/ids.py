"""Ids: the one check every id passes (at the API, in the stores, on import) and user hashing.

Every entry point validates ids with :func:`check_id`, so an id a store accepts is an id
the pipeline accepts and the reverse. Stores that key data by a hash of the user id
derive it from :func:`user_digest` (SHA-256 of the UTF-8 id), each in its own stored
format (a 16-byte prefix in SQLite, hex in PostgreSQL tombstones, a 32-hex-digit prefix
in Pinecone vector ids).
"""

from __future__ import annotations

import hashlib
import unicodedata
from typing import Any

from .errors import InvalidIdError, InvalidInputError
from .scripts import INVISIBLE_CATEGORIES

__all__ = ["check_encodable", "check_id", "check_optional_id", "user_digest"]


def check_encodable(s: str, what: str, error: type[InvalidInputError]) -> None:
    """Raise ``error`` when ``s`` holds a NUL byte or a lone surrogate."""
    if "\x00" in s:
        raise error(f"{what} contains a NUL byte")
    try:
        s.encode("utf-8")
    except UnicodeEncodeError as exc:
        raise error(f"{what} is not valid Unicode (lone surrogate at {exc.start})") from exc


def check_id(value: Any, what: str = "user_id", *, max_chars: int | None = None) -> str:
    """A non-empty id string (of at most ``max_chars`` characters when given), valid
    Unicode, without control, format or separator characters (line breaks, U+2028/U+2029,
    vertical tab, bidi controls, zero-width characters, BOM).

    Raises:
        InvalidIdError: any of the above does not hold.
    """
    if not isinstance(value, str):
        raise InvalidIdError(f"{what} must be a str, got {type(value).__name__}")
    if not value.strip():
        raise InvalidIdError(f"{what} must not be empty")
    if max_chars is not None and len(value) > max_chars:
        raise InvalidIdError(f"{what} is {len(value)} characters; the limit is {max_chars}")
    check_encodable(value, what, InvalidIdError)
    for c in value:
        if unicodedata.category(c) in INVISIBLE_CATEGORIES:  # never needed in an id
            kind = (
                "line breaks"
                if c in "\r\n"
                else f"U+{ord(c):04X} ({unicodedata.name(c, 'control')})"
            )
            raise InvalidIdError(f"{what} must not contain {kind}")
    return value


def check_optional_id(value: Any, what: str, *, max_chars: int | None = None) -> str | None:
    """``None``, or an id that passes :func:`check_id`."""
    return None if value is None else check_id(value, what, max_chars=max_chars)


def user_digest(user_id: str) -> bytes:
    """SHA-256 of the UTF-8 user id: what every store that hides raw user ids keys on.

    Raises:
        InvalidIdError: ``user_id`` is not valid Unicode (a lone surrogate).
    """
    try:
        return hashlib.sha256(user_id.encode("utf-8")).digest()
    except UnicodeEncodeError as exc:
        raise InvalidIdError("user id is not valid Unicode (lone surrogate)") from exc
