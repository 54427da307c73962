"""Smoke run of the long-horizon evaluation set (benchmarks/evalset.py + evaluate.py).

3 English + 3 Chinese users x 20 sessions, hashing embedder, embedded SQLite. The floors
are the accuracies measured on this exact set (seed 7, 2026-12-02: en 0.79, zh 0.81; ~5 s
of CPU) minus a margin: record ids are random, so ties in ranking make runs differ by a
few points. They catch regressions, not the issue's targets (see the full run).
"""

from __future__ import annotations

import importlib.util
import sys
import time
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

_BENCH = Path(__file__).resolve().parents[2] / "benchmarks"


def _load(name: str) -> ModuleType:
    if str(_BENCH) not in sys.path:
        sys.path.insert(0, str(_BENCH))
    spec = importlib.util.spec_from_file_location(name, _BENCH / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


evalset = _load("evalset")
evaluate = _load("evaluate")

ACCURACY_FLOOR = {"en": 0.68, "zh": 0.7}


@pytest.fixture(scope="module")
def users() -> list[dict[str, Any]]:
    data = evalset.generate(7, users_en=3, users_zh=3, sessions=(20,))
    return [*data["en"], *data["zh"]]


@pytest.fixture(scope="module")
def run(
    users: list[dict[str, Any]], tmp_path_factory: pytest.TempPathFactory
) -> tuple[Any, dict[str, Any], float]:
    cpu = time.process_time()
    ev = evaluate.evaluate(
        users,
        embedder=evaluate.make_embedder("hashing"),
        embedder_name="hashing",
        db_path=tmp_path_factory.mktemp("evalset") / "eval.db",
    )
    return ev, evaluate.summarize(ev), time.process_time() - cpu


# -- the generator ------------------------------------------------------------------------
def test_generator_is_deterministic() -> None:
    a = evalset.generate(3, users_en=1, users_zh=1, sessions=(12,))
    b = evalset.generate(3, users_en=1, users_zh=1, sessions=(12,))
    c = evalset.generate(4, users_en=1, users_zh=1, sessions=(12,))
    assert a == b
    assert a != c


def test_users_have_sessions_probes_and_both_contexts(users: list[dict[str, Any]]) -> None:
    assert {u["lang"] for u in users} == {"en", "zh"}
    for u in users:
        assert len(u["sessions"]) == 20
        assert {s["system_context"] for s in u["sessions"]} <= {"support", "health"}
        assert u["probes"], u["user_id"]
        for p in u["probes"]:
            assert 1 <= p["after_session"] <= 20
            exp = p["expected"]
            if exp["values"]:
                assert exp["source_sessions"] and exp["source_dates"]
                assert all(s.startswith(u["user_id"]) for s in exp["source_sessions"])
            if p["category"] in ("never_said", "cross_context"):
                assert exp["values"] == []
    # Chinese users talk Chinese
    zh_text = "".join(
        t["text"] for u in users if u["lang"] == "zh" for s in u["sessions"] for t in s["turns"]
    )
    assert sum("\u4e00" <= ch <= "\u9fff" for ch in zh_text) > 500


def _state(*steps: tuple[str, ...]) -> Any:
    """Apply (op, value, day[, wording]) steps to a fresh slot."""
    from datetime import UTC, datetime, timedelta

    st = evalset.KeyState()
    start = datetime(2025, 1, 1, tzinfo=UTC)
    for op, value, day, *text in steps:
        at = start + timedelta(days=int(day))
        evalset.apply_effect(st, evalset.Effect("k", op, value), int(day), at, *text)
    return st


def test_ground_truth_change_supersedes_and_flip_needs_confirmation() -> None:
    st = _state(("declare", "sms", 1), ("change", "email", 30))
    assert st.values == ["email"] and st.stale == ["sms"] and not st.confirm_due
    st = _state(("declare", "sms", 1), ("flip", "email", 3))  # within a week, no marker
    assert st.values == ["email"] and st.confirm_due and st.pending_alt == ["sms"]
    st = _state(("declare", "sms", 1), ("flip", "email", 40))
    assert not st.confirm_due
    # against a rule worded "never" a question is due whatever its age ...
    st = _state(("declare", "never", 1, "Never call me."), ("flip", "allowed", 90, "Call me."))
    assert st.confirm_due and st.pending_alt == ["never"]
    st = _state(("declare", "never", 1, "永远不要给我打电话。"), ("flip", "allowed", 90))
    assert st.confirm_due
    # ... but "don't call me" weeks ago is simply superseded (no permanent wording)
    st = _state(("declare", "never", 1, "Don't call me."), ("flip", "allowed", 90))
    assert not st.confirm_due and st.values == ["allowed"]
    # restating with "never" wording makes the rule permanent
    st = _state(
        ("declare", "never", 1, "Don't call me."),
        ("restate", "never", 5, "From now on, never call me."),
        ("flip", "allowed", 90),
    )
    assert st.confirm_due


def test_ground_truth_value_said_again_after_it_was_forgotten_holds_again() -> None:
    st = _state(("declare", "diabetes", 1), ("negate", "diabetes", 5), ("restate", "diabetes", 9))
    assert st.values == ["diabetes"] and st.sessions == [9] and "diabetes" not in st.stale
    assert st.tags[-1] == "changed"
    st = _state(("declare", "diabetes", 1), ("negate", "diabetes", 5))
    assert st.values == [] and st.stale == ["diabetes"] and st.tags[-1] == "forgotten"


def test_ground_truth_jokes_negation_implicit() -> None:
    st = _state(("declare", "vegan", 1), ("joke", "halal", 2), ("distract", "keto", 3))
    assert st.values == ["vegan"] and st.false == ["halal", "keto"]
    st = _state(("declare", "vegan", 1), ("negate", "vegan", 5))
    assert st.values == [] and st.stale == ["vegan"] and st.ever_said
    st = _state(("implicit", "sms", 1), ("implicit", "sms", 2))
    assert st.values == []
    st = _state(("implicit", "sms", 1), ("implicit", "sms", 2), ("implicit", "sms", 3))
    assert st.values == ["sms"] and not st.explicit
    st = _state(("declare", "email", 1), *[("implicit", "sms", d) for d in (2, 3, 4)])
    assert st.values == ["email"]  # one-off requests do not beat a stated preference


# -- the evaluator ------------------------------------------------------------------------
def test_judge_reads_recall_and_context_lines() -> None:
    probe = {
        "key": "contact.channel",
        "expected": {
            "values": ["sms"],
            "stale": ["email"],
            "false": ["whatsapp"],
            "also_acceptable": [],
            "source_sessions": ["u_s003"],
            "source_dates": ["2026-04-12"],
            "confirm_due": False,
        },
    }
    ctx = (
        '### User memory\nPreferences and facts:\n- contact.channel = "SMS" '
        "(user said on 2026-04-12, session u_s003, confidence 0.95)\n### End of user memory"
    )
    j = evaluate.judge(probe, [], ctx)
    assert j["correct"] and j["context_correct"] and not j["recall_correct"]
    assert j["provenance_ok"] and not j["stale"] and not j["abstained"]
    stale_ctx = ctx.replace('"SMS"', '"email"')
    j = evaluate.judge(probe, [], stale_ctx)
    assert not j["correct"] and j["stale"]
    j = evaluate.judge(probe, [], "### User memory\n### End of user memory")
    assert j["abstained"] and not j["correct"]


def test_smoke_run_no_leakage_and_accuracy_floor(run: tuple[Any, dict[str, Any], float]) -> None:
    _ev, summary, cpu_seconds = run
    assert summary["probes"] > 200
    assert summary["leakage"]["total"] == 0, summary["leak_examples"]
    for lang, floor in ACCURACY_FLOOR.items():
        s = summary["langs"][lang]
        assert s["accuracy"] >= floor, (lang, s["accuracy"])
        assert s["abstention_rate"] >= 0.9, (lang, s["abstention_rate"])
        assert s["stale_rate"] <= 0.05, (lang, s["stale_rate"])
        assert s["provenance_accuracy"] >= 0.9, (lang, s["provenance_accuracy"])
        for cp, tok in s["tokens"].items():
            assert tok["max"] <= 400, (lang, cp, tok)
    assert cpu_seconds < 30, cpu_seconds


def test_smoke_run_hybrid_beats_bm25_only(run: tuple[Any, dict[str, Any], float]) -> None:
    _ev, summary, _ = run
    for lang in ("en", "zh"):
        abl = summary["langs"][lang]["ablation"]
        hybrid = abl["hybrid_pipeline"]["recall_at_k_accuracy"]
        assert hybrid >= abl["bm25_only"]["recall_at_k_accuracy"], (lang, abl)
        assert hybrid >= abl["dense_only"]["recall_at_k_accuracy"], (lang, abl)
        # the ablation path and the pipeline agree when every channel is on
        assert abs(abl["hybrid_channels"]["recall_at_k_accuracy"] - hybrid) <= 0.05, abl


def test_markdown_report_has_the_tables(run: tuple[Any, dict[str, Any], float]) -> None:
    md = evaluate.render_markdown(run[1])
    for needle in (
        "accuracy of current value",
        "stale-value rate",
        "provenance accuracy",
        "Ablation",
        "bm25_only",
        "dense_only",
        "By category",
        "leakage",
    ):
        assert needle in md
