"""Smoke run of ``benchmarks/async_strategy.py`` at a tiny size (8 coroutines x 1 round).

Runs the real machinery (AsyncUserMemory on a throwaway PostgreSQL schema + Redis key
prefix, the hashing embedder) and checks the report's structure and that no call failed;
no timing assertion, the numbers depend on the machine and its load. Needs PostgreSQL and
Redis: fails under ``CI=true`` when they are unreachable, skips otherwise.
"""

from __future__ import annotations

import importlib.util
import os
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import psycopg
import pytest
import redis

_BENCH = Path(__file__).resolve().parents[2] / "benchmarks"
PG_URL = os.environ.get("USERMEMORY_TEST_PG_URL", "postgresql://postgres@127.0.0.1:5432/test")
REDIS_URL = os.environ.get("USERMEMORY_TEST_REDIS_URL", "redis://127.0.0.1:6379/0")
COROUTINES, ROUNDS = 8, 1


def _load(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, _BENCH / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def _servers_up() -> None:
    try:
        with psycopg.connect(PG_URL, connect_timeout=3) as conn:
            conn.execute("SELECT 1")
        client = redis.Redis.from_url(REDIS_URL, socket_connect_timeout=3)
        try:
            client.ping()
        finally:
            client.close()
    except (psycopg.Error, redis.RedisError) as exc:
        reason = f"PostgreSQL ({PG_URL}) and Redis ({REDIS_URL}) are needed: {exc}"
        if os.environ.get("CI") == "true":
            pytest.fail(reason)
        pytest.skip(reason)


@pytest.fixture(scope="module")
def report() -> dict[str, Any]:
    _servers_up()
    bench = _load("async_strategy")
    return dict(
        bench.main(
            [
                f"--pg-url={PG_URL}",
                f"--redis-url={REDIS_URL}",
                f"--coroutines={COROUTINES}",
                f"--rounds={ROUNDS}",
                "--pool-max=4",
            ]
        )
    )


def test_every_call_succeeds_and_is_counted(report: dict[str, Any]) -> None:
    assert report["workload"] == {
        "coroutines": COROUTINES,
        "rounds": ROUNDS,
        "embedder": "hashing",
        "pool_max": 4,
    }
    assert [row["strategy"] for row in report["rows"]] == ["thread"]
    row = report["rows"][0]
    assert row["errors"] == 0, row["first_error"]
    assert row["calls"] == COROUTINES * ROUNDS * 2  # one observe + one recall per round


def test_rates_and_percentiles_are_consistent(report: dict[str, Any]) -> None:
    row = report["rows"][0]
    assert row["wall_s"] > 0
    assert row["calls_per_s"] == pytest.approx(row["calls"] / row["wall_s"])
    assert 0 < row["p50_ms"] <= row["p95_ms"] <= row["p99_ms"]
    assert row["p99_ms"] <= row["wall_s"] * 1000  # no call outlasts the run


def test_leaves_nothing_behind(report: dict[str, Any]) -> None:
    row = report["rows"][0]
    with psycopg.connect(PG_URL) as conn:
        left = conn.execute(
            "SELECT count(*) FROM pg_namespace WHERE nspname = %s", (row["pg_schema"],)
        ).fetchone()
    assert left is not None and left[0] == 0
    client = redis.Redis.from_url(REDIS_URL)
    try:
        assert not list(client.scan_iter(match=f"{row['redis_prefix']}*", count=1000))
    finally:
        client.close()
