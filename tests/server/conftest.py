"""Fixtures for the memory server: a real app on real SQLite stores, served by uvicorn on
loopback where a test needs a network client (the SDK's MCP client, selenium, httpx)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient
from server_support import Server, make_server

from shared_core.server import background_server


@pytest.fixture
def server(tmp_path) -> Iterator[Server]:
    srv = make_server(tmp_path)
    try:
        yield srv
    finally:
        srv.keys.close()
        srv.mem.close()


@pytest.fixture
def http(server) -> Iterator[TestClient]:
    """An in-process client of the app (runs its lifespan)."""
    with TestClient(server.app) as client:
        yield client


@pytest.fixture
def live(server) -> Iterator[Server]:
    """The same app served by uvicorn on a free loopback port."""
    with background_server(server.app) as running:
        server.url = running.url
        yield server
