"""The MemoryBank extraction benchmark's labels are well formed and point at real user
turns, and a run on a few users produces a well-formed report whose stored records join
the labels by their identifying fields. Precision is not asserted here: the numbers are
the benchmark's output, not a test floor. The label checks need the public data beside
the checkout (``../shared/data/memorybank``) or in ``$MEMORYBANK_DATA`` and are skipped
without it; the report's structure is checked on that data or, without it, on a small
dialogue file in MemoryBank's format written here."""

from __future__ import annotations

import importlib
import json
import os
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "benchmarks"))
mbx = importlib.import_module("memorybank_extraction")

_CANDIDATES = [
    Path(os.environ["MEMORYBANK_DATA"]) if os.environ.get("MEMORYBANK_DATA") else None,
    ROOT.parent / "shared" / "data" / "memorybank",
]
DATA = next((p for p in _CANDIDATES if p and (p / "memory_bank_en.json").is_file()), None)
needs_data = pytest.mark.skipif(DATA is None, reason="MemoryBank data not found")
USERS = 2


def _label_rows() -> list[dict[str, Any]]:
    text = mbx.LABEL_FILE.read_text("utf-8")
    return [json.loads(line) for line in text.splitlines() if line.strip()]


def test_label_file_is_well_formed() -> None:
    rows = _label_rows()
    assert rows
    fields = {"lang", "user", "date", "turn", "key", "value", "label", "reason"}
    for row in rows:
        assert fields <= set(row)
        assert row["lang"] in mbx.LANGS
        assert row["label"] in mbx.LABELS
        assert row["reason"].strip()
        assert isinstance(row["turn"], int) and row["turn"] >= 0
    ids = [mbx.record_id(r) for r in rows]
    assert len(ids) == len(set(ids))
    assert mbx.load_labels(mbx.LABEL_FILE).keys() == set(ids)


@needs_data
def test_labels_point_at_real_user_turns() -> None:
    assert DATA is not None
    for lang in mbx.LANGS:
        dialogues = mbx.load_dialogues(DATA, lang)
        user_turns = {(name, t.date, t.index) for name, turns in dialogues.items() for t in turns}
        for row in _label_rows():
            if row["lang"] == lang:
                assert (row["user"], row["date"], row["turn"]) in user_turns


#: Two users per language in MemoryBank's shape (name -> {"history": {date: [turns]}}),
#: written for this test: statements the extractor stores and small talk it must not.
_OWN_DIALOGUES = {
    "en": {
        "Ada": {
            "2023-05-01": [
                ("Hi, I'm Ada. I'm allergic to peanuts.", "Thanks, Ada, I'll remember that."),
                ("What a rainy day it is.", "It is! Stay dry."),
            ],
            "2023-05-02": [("I live in Leeds and I love jazz.", "Leeds has a great jazz scene.")],
        },
        "Ben": {"2023-05-01": [("Please keep your answers short.", "Sure, I will.")]},
    },
    "zh": {
        "小王": {
            "2023-05-01": [("我对海鲜过敏。", "好的，我记住了。"), ("今天好热啊。", "是啊。")]
        },
        "小李": {"2023-05-02": [("我住在杭州，喜欢喝龙井。", "杭州的龙井很有名。")]},
    },
}


def _own_data(root: Path) -> Path:
    for lang, users in _OWN_DIALOGUES.items():
        raw = {
            name: {
                "name": name,
                "history": {
                    day: [{"query": q, "response": a} for q, a in turns]
                    for day, turns in days.items()
                },
            }
            for name, days in users.items()
        }
        (root / f"memory_bank_{mbx.LANGS[lang]}.json").write_text(
            json.dumps(raw, ensure_ascii=False), "utf-8"
        )
    return root


@pytest.fixture(scope="module")
def report(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    data = DATA if DATA is not None else _own_data(tmp_path_factory.mktemp("mbx_data"))
    out = tmp_path_factory.mktemp("mbx")
    assert mbx.main(["--data", str(data), "--users", str(USERS), "--out", str(out)]) == 0
    assert (out / "memorybank_extraction.md").is_file()
    data: dict[str, Any] = json.loads((out / "memorybank_extraction.json").read_text("utf-8"))
    return data


def test_report_structure(report: dict[str, Any]) -> None:
    assert report["meta"]["users"] == {lang: USERS for lang in mbx.LANGS}
    assert set(report["summary"]) == set(mbx.LANGS)
    for lang, s in report["summary"].items():
        assert s["user_turns"] > 0
        recs = [r for r in report["records"] if r["lang"] == lang]
        assert s["records"] == len(recs)
        assert s["labelled"] + s["unlabelled"] == s["records"]
        assert s["correct"] <= s["labelled"]
        assert sum(f["labelled"] for f in s["families"].values()) == s["labelled"]
        assert s["per_100_user_turns"] == round(100 * len(recs) / s["user_turns"], 1)
    assert {r["lang"] for r in report["records"]} == set(mbx.LANGS)  # both stored some
    for r in report["records"]:
        assert r["kind"] != "episode"
        assert r["role"] == "user" and "text" not in r
        assert 0 < r["confidence"] <= 1


@needs_data
def test_stored_records_join_labels_by_identifying_fields(report: dict[str, Any]) -> None:
    labels = mbx.load_labels(mbx.LABEL_FILE)
    joined = [r for r in report["records"] if mbx.record_id(r) in labels]
    assert joined, "no stored record of the first users matches a label"
    for r in joined:
        assert r["label"] == labels[mbx.record_id(r)]["label"]
    names = {r["user"] for r in report["records"]}
    in_scope = [rid for rid in labels if rid[1] in names]
    stored = {mbx.record_id(r) for r in report["records"]}
    dropped = sum(rid not in stored for rid in in_scope)
    assert dropped == sum(s["dropped"] for s in report["summary"].values())
