"""The recall benchmark's generated probes point at the turns that state the probed key
(not at every statement that shares the session), and a run over them produces ranks for
every system. Recall figures are the benchmark's output, not a test floor."""

from __future__ import annotations

import importlib
import sys
from datetime import UTC, datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "benchmarks"))
mbr = importlib.import_module("memorybank_recall")
evalset = importlib.import_module("evalset")

from shared_core import MemoryConfig, UserMemory  # noqa: E402
from shared_core.embed import HashingEmbedder  # noqa: E402


def test_generated_turns_name_the_key_they_state() -> None:
    data = evalset.generate(seed=7, users_en=1, users_zh=1, sessions=(50,))
    for users in data.values():
        for user in users:
            keyed = {
                (s["session_id"], t["key"])
                for s in user["sessions"]
                for t in s["turns"]
                if t.get("key")
            }
            assert keyed
            for s in user["sessions"]:
                for t in s["turns"]:
                    assert not t.get("key") or t["role"] == "user"
            for p in user["probes"]:
                for sid in p["expected"]["source_sessions"]:
                    assert (sid, p["key"]) in keyed, (p["id"], sid)


def test_generated_rows_have_key_evidence_and_ranks(tmp_path: Path) -> None:
    clock = mbr.FakeClock(datetime(2025, 1, 1, tzinfo=UTC))
    emb = HashingEmbedder()
    mem = UserMemory(
        f"sqlite:///{tmp_path}/mb.db", clock=clock, embedder=emb, config=MemoryConfig()
    )
    try:
        rows = mbr.run_generated(mem, clock, emb.embed, 1, 1, 400)
    finally:
        mem.close()
    assert {r.lang for r in rows} == {"en", "zh"}
    for r in rows:
        n = len(r.ranks["bm25"])
        assert n >= 1  # every probe has at least one evidence turn
        assert all(len(v) == n for v in r.ranks.values())
        assert set(r.ranks) == {"bm25", "dense", "recall", "context"}
        assert r.context_tokens <= 400
