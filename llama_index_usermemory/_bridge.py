"""The core's :class:`~shared_core.CoreBridge` (sync and async callers alike) and id checks.

LlamaIndex calls memories from both worlds: ``SimpleChatEngine.chat`` calls the sync
``get``/``put``, ``achat`` and the agent workflows call the async twins, and in Jupyter
the sync methods run *inside* a running event loop. :class:`shared_core.CoreBridge` (the
one bridge both adapters use) makes every combination safe.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from shared_core import CoreBridge, InvalidInputError, check_id, run_sync

__all__ = ["CoreBridge", "check_ids", "run_sync"]


def check_ids(data: Mapping[str, Any], names: tuple[str, ...]) -> None:
    """Raise unless ``memory`` is given and each present ``data[name]`` passes
    :func:`shared_core.check_id`.

    Args:
        data: constructor keyword arguments.
        names: the id fields to check (``user_id`` is required when listed).

    Raises:
        InvalidInputError: a missing ``user_id`` or ``memory``.
        InvalidIdError: an id that is not a valid id (empty, not a string, ...).
    """
    if "user_id" in names and "user_id" not in data:
        raise InvalidInputError("user_id is required")
    if data.get("memory") is None:
        raise InvalidInputError("memory= (a UserMemory or AsyncUserMemory) is required")
    for name in names:
        if name in data:
            check_id(data[name], name)
