"""The UserMemory server: REST API, MCP server, the ``/me`` page and Python clients.

Install with ``pip install "usermemory[server]"``. Nothing here is imported by
``import shared_core``; the names below load their module on first use::

    from shared_core.server import create_app, UserMemoryClient, KeyStore
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .app import ServerSettings, create_app
    from .auth import KeyStore, Principal
    from .client import AsyncUserMemoryClient, UserMemoryClient
    from .mcp import build_mcp
    from .run import background_server, serve

__all__ = [
    "AsyncUserMemoryClient",
    "KeyStore",
    "Principal",
    "ServerSettings",
    "UserMemoryClient",
    "background_server",
    "build_mcp",
    "create_app",
    "serve",
]

_WHERE = {
    "AsyncUserMemoryClient": "client",
    "UserMemoryClient": "client",
    "KeyStore": "auth",
    "Principal": "auth",
    "ServerSettings": "app",
    "create_app": "app",
    "build_mcp": "mcp",
    "background_server": "run",
    "serve": "run",
}


def __getattr__(name: str) -> Any:
    mod = _WHERE.get(name)
    if mod is None:
        raise AttributeError(f"module 'shared_core.server' has no attribute {name!r}")
    try:
        module = importlib.import_module(f".{mod}", __name__)
    except ImportError as exc:
        from ..errors import MissingDependencyError

        missing = getattr(exc, "name", None) or "fastapi"
        raise MissingDependencyError(missing.split(".")[0], "server") from exc
    return getattr(module, name)
