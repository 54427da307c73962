"""Run the server: in the foreground (``usermemory serve``) or in a background thread."""

from __future__ import annotations

import contextlib
import socket
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from ..errors import BackendUnavailableError

__all__ = ["RunningServer", "background_server", "serve"]


def serve(app: Any, *, host: str = "127.0.0.1", port: int = 8765, log_level: str = "info") -> None:
    """Serve ``app`` with uvicorn until interrupted."""
    import uvicorn

    uvicorn.run(
        app,
        host=host,
        port=port,
        log_level=log_level,
        server_header=False,
        timeout_keep_alive=15,  # longer than clients' usual 5 s pool expiry: no reuse race
    )


@dataclass(frozen=True, slots=True)
class RunningServer:
    url: str
    host: str
    port: int


def _free_port(host: str) -> int:
    with socket.socket() as s:
        s.bind((host, 0))
        return int(s.getsockname()[1])


@contextlib.contextmanager
def background_server(
    app: Any, *, host: str = "127.0.0.1", port: int = 0, timeout: float = 30.0
) -> Iterator[RunningServer]:
    """Run ``app`` under uvicorn in a daemon thread for the ``with`` block (tests, notebooks).

    Yields a :class:`RunningServer` whose ``url`` is ready to take requests.
    """
    import uvicorn

    port = port or _free_port(host)
    config = uvicorn.Config(
        app, host=host, port=port, log_level="warning", server_header=False, lifespan="on"
    )
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, name="usermemory-server", daemon=True)
    thread.start()
    deadline = time.monotonic() + timeout
    while not server.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            server.should_exit = True
            raise BackendUnavailableError(f"the server did not start on {host}:{port}")
        time.sleep(0.02)
    try:
        yield RunningServer(f"http://{host}:{port}", host, port)
    finally:
        server.should_exit = True
        thread.join(timeout=timeout)
