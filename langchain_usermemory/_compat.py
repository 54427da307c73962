"""Small helpers shared by the adapters: calling a sync or async core, reading ids.

The adapters accept either a :class:`shared_core.UserMemory` or a
:class:`shared_core.AsyncUserMemory` and call it through the core's one bridge,
:class:`shared_core.CoreBridge`: async entry points await the async core natively and
run a sync core in a worker thread; sync entry points call the sync core (or the async
core's sync twin) directly.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from langchain_core.messages import BaseMessage
from pydantic import ValidationError

from shared_core import CoreBridge, InvalidIdError, InvalidInputError, check_id

__all__ = [
    "acall",
    "call",
    "first_given",
    "init_checked",
    "input_text",
    "lookup",
    "message_text",
    "require_id",
]


def call(memory: Any, method: str, /, *args: Any, **kwargs: Any) -> Any:
    """Call ``memory.<method>`` from synchronous code (through :class:`shared_core.CoreBridge`).

    Args:
        memory: a ``UserMemory`` or an ``AsyncUserMemory`` (its sync twin is used).
        method: the core method name ("recall", "observe", ...).
        *args: positional arguments for the method.
        **kwargs: keyword arguments for the method.

    Returns:
        Whatever the core method returns.
    """
    return CoreBridge(memory).call(method, *args, **kwargs)


async def acall(memory: Any, method: str, /, *args: Any, **kwargs: Any) -> Any:
    """Call ``memory.<method>`` from async code: natively if it is async, else in a thread.

    Args:
        memory: a ``UserMemory`` or ``AsyncUserMemory``.
        method: the core method name.
        *args: positional arguments for the method.
        **kwargs: keyword arguments for the method.

    Returns:
        Whatever the core method returns.
    """
    return await CoreBridge(memory).acall(method, *args, **kwargs)


def lookup(source: Any, name: str) -> Any:
    """Read ``name`` from a mapping, a dataclass / pydantic object, or ``None``.

    Args:
        source: where to look (``runtime.context``, a config section, ...).
        name: the field or key name.

    Returns:
        The value, or ``None`` when absent.
    """
    if source is None:
        return None
    if isinstance(source, Mapping):
        return source.get(name)
    return getattr(source, name, None)


def first_given(*values: Any) -> Any:
    """The first value that is not ``None`` (``""`` counts as given).

    Ids are resolved with this rather than ``a or b``: an explicit but empty or
    wrong id must be rejected, not silently replaced by a default user's id.

    Args:
        *values: candidates, most specific first.

    Returns:
        The first non-``None`` value, or ``None``.
    """
    return next((v for v in values if v is not None), None)


def require_id(value: Any, what: str) -> str:
    """The core's :func:`shared_core.check_id`, with a hint where to give a missing id.

    Args:
        value: the candidate id.
        what: what the id is ("user_id"), for the message.

    Returns:
        The id.

    Raises:
        InvalidIdError: the id is missing, empty, not a string or not a valid id.
    """
    if value is None:
        raise InvalidIdError(
            f"{what} is required; set it on the adapter or pass it in the run config / context"
        )
    return check_id(value, what)


def init_checked(model: Any, init: Callable[..., None], data: Mapping[str, Any]) -> None:
    """Build a pydantic adapter model: ``init(**data)``, with a pydantic
    ``ValidationError`` raised as ``InvalidInputError`` (a ``ValueError``).

    Args:
        model: the model being built (its class names the error).
        init: the pydantic ``__init__`` (``super().__init__``).
        data: the keyword arguments.
    """
    try:
        init(**data)
    except ValidationError as exc:
        raise InvalidInputError(f"invalid {type(model).__name__} arguments: {exc}") from exc


def message_text(message: BaseMessage) -> str:
    """The plain text of a message (text content blocks only), stripped."""
    return str(message.text).strip()


def input_text(inputs: Mapping[str, Any], key: str | None, exclude: list[str]) -> str:
    """The single prompt input of a chain call.

    Args:
        inputs: the chain inputs.
        key: the configured input key, or ``None`` to infer the only remaining key.
        exclude: memory variables (and "stop") that are not the prompt input.

    Returns:
        The input as text.

    Raises:
        InvalidInputError: the input key cannot be determined or is missing.
    """
    if key is None:
        keys = [k for k in inputs if k not in exclude and k != "stop"]
        if len(keys) != 1:
            raise InvalidInputError(
                f"one input key expected, got {sorted(keys)}; set input_key on the memory"
            )
        key = keys[0]
    if key not in inputs:
        raise InvalidInputError(f"input key {key!r} missing from chain inputs {sorted(inputs)}")
    value = inputs[key]
    if isinstance(value, BaseMessage):
        return message_text(value)
    if not isinstance(value, str):
        # str(None) / str(b"...") / str({...}) would be observed as if the user said it
        raise InvalidInputError(
            f"chain input {key!r} must be a str or a message, got {type(value).__name__}"
        )
    return value
