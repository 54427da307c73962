"""The ``usermemory`` command line.

``usermemory demo`` runs the 50-session support scenario on the embedded default (no
server, no LLM, no network). ``inspect``, ``history``, ``export``, ``forget`` and
``import`` work on any store URL (``--url`` or ``USERMEMORY_URL``). ``warmup`` prepares
the default embedder ahead of time (the one-time ONNX export, e.g. in a Docker build).
``serve``, ``mcp`` and ``keys`` run and administer the memory server (``[server]`` extra).

Exit codes: 0 success, 1 a UserMemory error (bad input, backend failure), 2 usage error.
Heavy modules (sentence-transformers, torch) are imported only when an embedding is
computed, never at start-up.

Modules: :mod:`.common` (the ``main`` group, shared options, opening a store),
:mod:`.demo` (``demo``, ``warmup``), :mod:`.records` (the commands on one user's memory)
and :mod:`.server` (``serve``, ``mcp``, ``keys``).
"""

from __future__ import annotations

from . import demo, records, server  # noqa: F401  (each registers its commands on main)
from .common import main

__all__ = ["main"]
