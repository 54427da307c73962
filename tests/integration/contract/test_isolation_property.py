"""Property-based isolation on a small budget (issue 16): random observe / remember /
forget_key / forget / reads across users and contexts, on the embedded SQLite store and on
Redis + PostgreSQL, with zero leaks. ``python benchmarks/isolation.py --ops 10000`` runs
the same machine at full size and prints the numbers."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

_BENCH = Path(__file__).resolve().parents[3] / "benchmarks" / "isolation.py"

pytestmark = pytest.mark.integration


def _load() -> ModuleType:
    spec = importlib.util.spec_from_file_location("isolation_bench", _BENCH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["isolation_bench"] = module
    spec.loader.exec_module(module)
    return module


bench = _load()


@pytest.mark.parametrize("backend", ["sqlite", "redis_pg"])
def test_random_operations_never_leak(
    backend: str, pg_url: str, redis_url: str, tmp_path: Path
) -> None:
    with bench.open_backend(backend, pg_url=pg_url, redis_url=redis_url, workdir=tmp_path) as mem:
        tally = bench.run(mem, ops=150, steps=30)
    assert tally.ops >= 150
    assert tally.reads > 0
    assert tally.leaks == []
