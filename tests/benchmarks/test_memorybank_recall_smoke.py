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


def _write_bank(d: Path) -> Path:
    """A MemoryBank-shaped folder (two users per language) and labels, written here."""
    import json

    bank = {
        "en": {
            "Ada": {
                "2023-04-27": [("I adopted a grey cat named Pixel.", "What a lovely name!")],
                "2023-04-28": [("Work was busy today.", "Take a rest tonight.")],
            },
            "Ben": {
                "2023-04-27": [("My sister runs a bakery in Leeds.", "Nice, what does she bake?")],
                "2023-04-28": [("Try the sourdough recipe.", "I recommend rye flour for it.")],
            },
        },
        "cn": {
            "小王": {"2023-04-27": [("我养了一只叫豆豆的狗。", "豆豆这个名字真可爱！")]},
            "小李": {"2023-04-28": [("我最近在学吉他。", "推荐你先练C和弦。")]},
        },
    }
    questions = {
        "en": {"Ada": ["What is my cat called?"], "Ben": ["What flour did you recommend?"]},
        "cn": {"小王": ["我的狗叫什么？"], "小李": ["你推荐我先练什么？"]},
    }
    for suffix, users in bank.items():
        raw = {
            name: {
                "history": {
                    date: [{"query": q, "response": a} for q, a in pairs]
                    for date, pairs in days.items()
                }
            }
            for name, days in users.items()
        }
        (d / f"memory_bank_{suffix}.json").write_text(json.dumps(raw), "utf-8")
        lines = [json.dumps({k: v}) for k, v in questions[suffix].items()]
        (d / f"probing_questions_{suffix}.jsonl").write_text("\n".join(lines), "utf-8")
    labels = [
        ("en", "Ada", "2023-04-27", 0, "user"),
        ("en", "Ben", "2023-04-28", 0, "assistant"),
        ("zh", "小王", "2023-04-27", 0, "user"),
        ("zh", "小李", "2023-04-28", 0, "assistant"),
    ]
    path = d / "labels.jsonl"
    path.write_text(
        "\n".join(
            json.dumps(
                {
                    "lang": lang,
                    "user": user,
                    "probe": 0,
                    "type": "what-I-said" if role == "user" else "what-you-said",
                    "answerable": True,
                    "evidence": [{"date": date, "turn": turn, "role": role}],
                }
            )
            for lang, user, date, turn, role in labels
        ),
        "utf-8",
    )
    return path


def test_merged_history_keeps_each_users_evidence_apart(tmp_path: Path) -> None:
    labels = _write_bank(tmp_path)
    clock = mbr.FakeClock(datetime(2023, 4, 27, tzinfo=UTC))
    emb = HashingEmbedder()
    mem = UserMemory(
        f"sqlite:///{tmp_path}/mb.db", clock=clock, embedder=emb, config=MemoryConfig()
    )
    try:
        rows = mbr.run_merged(tmp_path, labels, mem, clock, emb.embed, 400)
        # both people's dialogues went into one memory user per language
        assert len(mem.recall("merged-en", "cat Pixel", k=10)) >= 1
        assert mem.recall("Ada", "cat Pixel", k=10) == []
    finally:
        mem.close()
    assert sorted(r.ident for r in rows) == ["en/Ada/0", "en/Ben/0", "zh/小李/0", "zh/小王/0"]
    for r in rows:
        assert r.group == "merged"
        assert set(r.ranks) == {"bm25", "dense", "recall", "context"}
        assert len(r.ranks["bm25"]) == 1
    # the cat question finds Ada's turn (not a same-numbered turn of Ben's) in every list
    ada = next(r for r in rows if r.ident == "en/Ada/0")
    assert ada.ranks["bm25"] == [1]
    assert ada.ranks["recall"][0] is not None
