"""Helpers shared by the server tests (imported as ``server_support``)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from shared_core import UserMemory
from shared_core.embed import HashingEmbedder
from shared_core.server import KeyStore, ServerSettings, create_app


@dataclass
class Server:
    app: Any
    mem: UserMemory
    keys: KeyStore
    url: str = ""

    def key(self, tenant: str, contexts: tuple[str, ...] = ("*",)) -> tuple[str, str]:
        """(key id, plain key) of a new key for ``tenant``."""
        key, plain = self.keys.create_key(tenant, name="test", contexts=contexts)
        return key.id, plain


def make_server(tmp_path, **settings) -> Server:
    mem = UserMemory(f"sqlite:///{tmp_path / 'memory.db'}", embedder=HashingEmbedder())
    keys = KeyStore(f"sqlite:///{tmp_path / 'keys.db'}")
    app = create_app(mem, keys=keys, settings=ServerSettings(**settings))
    return Server(app=app, mem=mem, keys=keys)


def auth(plain: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {plain}"}
