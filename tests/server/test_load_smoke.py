"""A few seconds of ``benchmarks/server_load.py`` against the real PostgreSQL and Redis:
the load command runs end to end with zero errors and no lost writes. (The 50-client,
30-second figures in the README come from running the command itself.)"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.integration


def _need(host: str, port: int, what: str) -> None:
    try:
        with socket.create_connection((host, port), timeout=2):
            return
    except OSError:
        msg = f"{what} is not reachable on {host}:{port}"
        if os.environ.get("CI") == "true":
            pytest.fail(msg)
        pytest.skip(msg)


def test_server_load_smoke(tmp_path):
    _need("127.0.0.1", 5432, "PostgreSQL")
    _need("127.0.0.1", 6379, "Redis")
    out = tmp_path / "load.json"
    proc = subprocess.run(
        [
            sys.executable,
            str(ROOT / "benchmarks" / "server_load.py"),
            "--clients",
            "4",
            "--duration",
            "3",
            "--out",
            str(out),
        ],
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
        timeout=240,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    result = json.loads(out.read_text())
    assert result["errors"] == 0 and result["users_with_lost_writes"] == 0
    assert result["writes_acknowledged"] >= 4
    assert result["ops"]["observe"]["count"] > 0 and result["ops"]["context"]["count"] > 0
    assert result["ops"]["observe"]["p95_ms"] >= result["ops"]["observe"]["p50_ms"] > 0
    assert "throughput" in proc.stdout and "p95" in proc.stdout
