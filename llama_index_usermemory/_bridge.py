"""The core's :class:`~shared_core.CoreBridge` (sync and async callers alike) and id checks.

LlamaIndex calls memories from both worlds: ``SimpleChatEngine.chat`` calls the sync
``get``/``put``, ``achat`` and the agent workflows call the async twins, and in Jupyter
the sync methods run *inside* a running event loop. :class:`shared_core.CoreBridge` (the
one bridge both adapters use) makes every combination safe.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from llama_index.core.bridge.pydantic import ValidationError

from shared_core import CoreBridge, InvalidInputError, check_id, run_sync

__all__ = ["CoreBridge", "bridge_of", "check_ids", "init_checked", "run_sync"]


def init_checked(
    model: Any, init: Callable[..., None], data: Mapping[str, Any], ids: tuple[str, ...]
) -> None:
    """Build a pydantic adapter model: :func:`check_ids` first, then ``init(**data)``
    with a pydantic ``ValidationError`` raised as ``InvalidInputError`` (a ``ValueError``).

    Args:
        model: the model being built (its class names the error).
        init: the pydantic ``__init__`` (``super().__init__``).
        data: the keyword arguments.
        ids: the id fields to check.
    """
    check_ids(data, ids)
    try:
        init(**data)
    except ValidationError as exc:
        raise InvalidInputError(f"invalid {type(model).__name__} arguments: {exc}") from exc


def bridge_of(model: Any) -> CoreBridge:
    """The model's :class:`CoreBridge` over ``model.memory``, built on first use (pydantic
    copies such as ``model_copy`` skip ``__init__``, so it cannot be built there)."""
    if model._bridge is None:
        model._bridge = CoreBridge(model.memory)
    bridge: CoreBridge = model._bridge
    return bridge


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
