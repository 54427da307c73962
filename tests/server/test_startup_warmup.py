"""The server loads jieba's dictionary at start-up, off the event loop, so the first request
with Chinese text does not pay ~1 s for it. Run in a fresh interpreter: the test process has
usually loaded jieba already."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

_SCRIPT = """
import json, sys, time
from fastapi.testclient import TestClient
from shared_core import UserMemory
from shared_core.embed import HashingEmbedder
from shared_core.server import KeyStore, create_app
from shared_core.storage import lexical

before = lexical.jieba_loaded()
mem = UserMemory("sqlite:///:memory:", embedder=HashingEmbedder())
keys = KeyStore("sqlite:///:memory:")
with TestClient(create_app(mem, keys=keys)) as client:
    deadline = time.monotonic() + 30
    while not lexical.jieba_loaded() and time.monotonic() < deadline:
        time.sleep(0.05)
    during = lexical.jieba_loaded()
    health = client.get("/healthz").status_code
print(json.dumps({"before": before, "during": during, "health": health}))
"""


def test_jieba_is_loaded_at_start_up_without_a_chinese_request() -> None:
    out = subprocess.run(
        [sys.executable, "-c", _SCRIPT],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    got = json.loads(out.stdout.strip().splitlines()[-1])
    assert got["before"] is False  # nothing loads it at import
    assert got["during"] is True  # the start-up did, with no request at all
    assert got["health"] == 200
