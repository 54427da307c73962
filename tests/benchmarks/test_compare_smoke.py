"""Smoke run of the side-by-side benchmark machinery (benchmarks/compare.py).

One English + one Chinese generated user x 20 sessions, the hashing embedder, every
system, the prompt-growth probe after sessions 1/10/20 and the scale section with 1,000
items. mem0 is not a project dependency: when ``mem0ai`` is not installed its row must
carry the import failure instead of numbers.
"""

from __future__ import annotations

import importlib.util
import json
import sys
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
compare = _load("compare")
common = sys.modules["peers.common"]
HAVE_MEM0 = importlib.util.find_spec("mem0") is not None


@pytest.fixture(scope="module")
def report() -> dict[str, Any]:
    import torch

    torch.set_num_threads(1)
    data = evalset.generate(7, users_en=1, users_zh=1, sessions=(20,))
    return compare.run(  # type: ignore[no-any-return]
        [*data["en"], *data["zh"]],
        embedder_name="hashing",
        scale_items=1000,
        scale_queries=25,
        growth_at=(1, 10, 20),
    )


def test_every_peer_that_can_run_produced_numbers(report: dict[str, Any]) -> None:
    systems = report["systems"]
    assert set(systems) == set(compare.SYSTEMS)
    for key, s in systems.items():
        if key == "mem0" and not HAVE_MEM0:
            assert "mem0" in s["error"], s
            continue
        assert "error" not in s, (key, s.get("error"))
        assert s["all"]["judged"] > 10
        assert s["all"]["accuracy"] is not None
        assert s["recall_ms_p95"] > 0 and s["observe_ms_mean"] > 0
        assert s["turns"] == report["turns"]
        assert set(s["growth"]) == {"1", "10", "20"}


def test_usermemory_leaks_nothing_and_stays_in_budget(report: dict[str, Any]) -> None:
    um = report["systems"]["usermemory"]
    assert um["leakage"] == 0, um["leak_examples"]
    assert um["tokens_max"] <= 400
    assert all(g["tokens_max"] <= 400 for g in um["growth"].values())
    native = um["all"]["native"]
    assert native["probes"] == report["probes"]
    assert native["accuracy"] >= 0.5 and native["stale_rate"] <= 0.05


def test_buffer_prompt_grows_with_sessions(report: dict[str, Any]) -> None:
    g = report["systems"]["buffer"]["growth"]
    assert g["1"]["tokens_mean"] < g["10"]["tokens_mean"] < g["20"]["tokens_mean"]
    um = report["systems"]["usermemory"]
    assert um["tokens_mean"] < report["systems"]["buffer"]["tokens_mean"]


def test_scale_section_and_report(report: dict[str, Any], tmp_path: Path) -> None:
    sc = report["scale"]
    assert sc["items"] == 1000
    assert "p95_ms" in sc["systems"]["usermemory"]
    assert sc["systems"]["usermemory"]["embed_calls_after_warmup"] == 0
    assert sc["fastest_peer"] in sc["systems"] and sc["ratio_p95"] > 0
    md = compare.render_markdown(report)
    for s in report["systems"].values():
        assert s["name"] in md
    assert "What could not run" in md and "FactExtractionMemoryBlock" in md
    (tmp_path / "compare.json").write_text(json.dumps(report, ensure_ascii=False))
    assert json.loads((tmp_path / "compare.json").read_text())["k"] == 3


# -- the text judge ----------------------------------------------------------------------
def _probe(key: str, values: list[str], stale: list[str]) -> dict[str, Any]:
    return {
        "key": key,
        "expected": {"values": values, "stale": stale, "false": [], "also_acceptable": []},
    }


def test_judge_current_before_stale_is_correct() -> None:
    p = _probe("contact.channel", ["email"], ["sms"])
    j = common.judge_text(p, "en", ["Please email me.", "SMS only, please."])
    assert j["correct"] and not j["stale"]


def test_judge_stale_first_is_stale_not_correct() -> None:
    p = _probe("contact.channel", ["email"], ["sms"])
    j = common.judge_text(p, "en", ["Please contact me by text.", "I prefer email."])
    assert j["stale"] and not j["correct"]
    assert common.judge_text(p, "en", ["texture"])["abstained"]  # whole words only


def test_judge_chinese_amounts_and_abstention() -> None:
    p = _probe("budget.max", ["5000"], ["3000"])
    assert common.judge_text(p, "zh", ["我的预算是五千左右。"])["correct"]
    none = _probe("location.city", [], ["beijing"])
    j = common.judge_text(none, "zh", ["我搬到北京了。"])
    assert j["stale"] and not j["abstained"]
    assert common.judge_text(none, "zh", ["今天天气不错。"])["abstained"]


def test_judge_skips_polarity_keys() -> None:
    j = common.judge_text(_probe("contact.call", ["never"], []), "en", ["never call me"])
    assert not j["judged"] and not j["correct"]
