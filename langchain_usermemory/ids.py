"""Which user a LangChain / LangGraph call is about: one resolution order everywhere.

Every LangChain entry point (retriever, chat history, middleware, memory tools) finds
the user id the same way; the first place that holds one wins:

1. an explicit per-call value (``retriever.invoke(q, user_id=...)``, a chat history's
   ``user_id``);
2. ``config["configurable"]["user_id"]`` (``RunnableWithMessageHistory``, graphs);
3. ``config["metadata"]["user_id"]``;
4. the LangGraph runtime context (``agent.invoke(..., context=Ctx(user_id=...))``,
   any object or mapping with a ``user_id``);
5. the ``user_id`` the adapter was built with (a default for single-user apps).

A value that is given but empty or not a string is an error
(:class:`~shared_core.errors.InvalidIdError`), never a reason to fall through to the
next place: a request must not silently read another user's memory. The session id
is found the same way under ``session_id``, with the graph's ``thread_id`` after it.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

from langchain_core.runnables.config import RunnableConfig, ensure_config, var_child_runnable_config
from langgraph.runtime import Runtime

from ._compat import first_given, lookup, require_id

__all__ = ["resolve_session_id", "resolve_user_id", "run_config", "using_config"]

# the config of the current retriever / tool call (set by the adapters' invoke wrappers)
run_config: ContextVar[RunnableConfig | None] = ContextVar("usermemory_run_config", default=None)


@contextmanager
def using_config(config: RunnableConfig | None) -> Iterator[None]:
    """Make ``config`` (completed by ``ensure_config``) the current call's config."""
    token = run_config.set(ensure_config(config))
    try:
        yield
    finally:
        run_config.reset(token)


def _config(config: Mapping[str, Any] | None) -> Mapping[str, Any]:
    if config is not None:
        return config
    return run_config.get() or var_child_runnable_config.get() or {}


def _section(config: Mapping[str, Any], name: str) -> Mapping[str, Any]:
    section = config.get(name)
    return section if isinstance(section, Mapping) else {}


def _runtime_context(config: Mapping[str, Any], runtime: Any) -> Any:
    if runtime is not None:
        return getattr(runtime, "context", None)
    # LangGraph keeps the run's Runtime in the configurable section
    for value in _section(config, "configurable").values():
        if isinstance(value, Runtime):
            return value.context
    return None


def _find(
    name: str,
    explicit: Any,
    config: Mapping[str, Any] | None,
    runtime: Any,
    default: Any,
) -> Any:
    cfg = _config(config)
    return first_given(
        explicit,
        _section(cfg, "configurable").get(name),
        _section(cfg, "metadata").get(name),
        lookup(_runtime_context(cfg, runtime), name),
        default,
    )


def resolve_user_id(
    explicit: Any = None,
    *,
    config: Mapping[str, Any] | None = None,
    runtime: Any = None,
    default: Any = None,
) -> str:
    """The user id of a call, in the module's documented order.

    Args:
        explicit: a per-call value (``None`` when not given).
        config: the run's ``RunnableConfig`` (default: the one of the current run).
        runtime: a LangGraph ``Runtime`` / ``ToolRuntime`` (its ``context``).
        default: the id the adapter was built with.

    Returns:
        The user id.

    Raises:
        InvalidIdError: no place holds a user id, or the first one found is empty or
            not a string.
    """
    return require_id(_find("user_id", explicit, config, runtime, default), "user_id")


def resolve_session_id(
    explicit: Any = None,
    *,
    config: Mapping[str, Any] | None = None,
    runtime: Any = None,
    default: Any = None,
) -> str | None:
    """The session id of a call (same order; then the graph's ``thread_id``), or ``None``.

    Args:
        explicit: a per-call value.
        config: the run's ``RunnableConfig`` (default: the current run's).
        runtime: a LangGraph ``Runtime`` / ``ToolRuntime``.
        default: the adapter's session id.

    Returns:
        The session id, or ``None`` when nothing names one.
    """
    found = _find("session_id", explicit, config, runtime, None)
    if found is None:
        found = _section(_config(config), "configurable").get("thread_id")
    found = first_given(found, default)
    return None if found is None else require_id(str(found), "session_id")
