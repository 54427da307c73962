"""Namespaces of :class:`~langchain_usermemory.store.UserMemoryStore`: which user a
LangGraph namespace addresses, and back (one label per user id, so no label can reach
another user)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from urllib.parse import quote

from langgraph.store.base import InvalidNamespaceError

from shared_core import InvalidInputError

__all__ = ["StoreNamespaceError", "label_user", "user_label", "user_namespace"]

_SAFE = "@+-_~!$&'()*,;="


class StoreNamespaceError(InvalidInputError, InvalidNamespaceError):
    """A namespace that cannot address a user's memory (too short, bad label)."""


def user_label(user_id: str) -> str:
    """The namespace label for ``user_id`` (no "." so LangGraph accepts it).

    Args:
        user_id: the core user id (e.g. an e-mail address).

    Returns:
        ``user_id`` with "%" and "." %-escaped.
    """
    return user_id.replace("%", "%25").replace(".", "%2E")


_LABEL_ESCAPE = re.compile(r"%(25|2E)")


def label_user(label: str) -> str:
    """Inverse of :func:`user_label` (only its two escapes, ``%25`` and ``%2E``, decode).

    Every user id has exactly one label, so a raw label such as ``"%61lice"`` stays the
    user ``"%61lice"`` and can never address the user ``"alice"``.

    Args:
        label: a namespace label.

    Returns:
        The core user id.
    """
    return _LABEL_ESCAPE.sub(lambda m: "%" if m.group(1) == "25" else ".", label)


def _label_to_user(label: str) -> str:
    """The user a label addresses; a label :func:`user_label` cannot produce is refused."""
    user_id = label_user(label)
    if user_label(user_id) != label:
        raise StoreNamespaceError(
            f"namespace label {label!r} is not a user label (a '%' must be escaped as "
            f"'%25'); build namespaces with user_namespace(user_id, ...)"
        )
    return user_id


def user_namespace(user_id: str, *rest: str, prefix: Sequence[str] = ("users",)) -> tuple[str, ...]:
    """The namespace of ``user_id``'s items: ``(*prefix, user_label(user_id), *rest)``.

    Args:
        user_id: the core user id.
        *rest: sub-namespace labels (e.g. "memories").
        prefix: the labels before the user (default ``("users",)``).

    Returns:
        The namespace tuple.
    """
    return (*prefix, user_label(user_id), *rest)


def _enc(part: str) -> str:
    return quote(part, safe=_SAFE).replace(".", "%2E")
