"""Smoke run of ``benchmarks/recall_latency.py`` at a tiny size (2k memories, 200 users).

Exercises the real machinery end to end (bulk load into a SQLite file, recall with a
precomputed query vector, the per-stage breakdown, observe with the rule extractor and
the hashing embedder, the markdown/JSON report) without any timing assertion: the
numbers depend on the machine and its load.
"""

from __future__ import annotations

import importlib.util
import json
import sqlite3
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np
import pytest

_BENCH = Path(__file__).resolve().parents[2] / "benchmarks"


def _load(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, _BENCH / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


bench = _load("recall_latency")

SIZE, USERS, QUERIES = 2000, 200, 10


@pytest.fixture(scope="module")
def run(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict[str, Any], str, Path]:
    workdir = tmp_path_factory.mktemp("recall_latency")
    out = workdir / "report"
    report = bench.main(
        [
            f"--sizes={SIZE}",
            f"--users={USERS}",
            f"--queries={QUERIES}",
            "--observe-turns=12",
            "--embedders=hashing",
            f"--dir={workdir}",
            f"--out={out}",
        ]
    )
    return report, out.with_suffix(".md").read_text("utf-8"), workdir


def test_prints_the_tables(run: tuple[dict[str, Any], str, Path], capsys: Any) -> None:
    _, md, _ = run
    for heading in (
        "## Recall",
        "## Observe",
        "## Where recall time goes",
        "## Query embedding alone",
        "## Targets",
    ):
        assert heading in md
    assert "| 2,000 | 10.0 |" in md  # size and memories per user
    assert "| precomputed |" in md
    assert "| 2,000 | hashing |" in md
    assert "cProfile of warm recalls" in md
    assert "Load average at start" in md
    assert "noise floor at start" in md


def test_report_counts_and_json(run: tuple[dict[str, Any], str, Path]) -> None:
    report, _, workdir = run
    (size,) = report["sizes"]
    assert size["size"] == SIZE and size["per_user"] == 10.0
    rec = size["recall"]["precomputed"]
    assert rec["cold"]["n"] == QUERIES and rec["warm"]["n"] == QUERIES
    assert rec["cold"]["p50"] <= rec["cold"]["p95"] <= rec["cold"]["p99"]
    assert 0.0 < rec["hit_rate"] <= 1.0
    obs = size["observe"]["hashing"]
    assert obs["latency"]["n"] == 12 and obs["throughput_per_s"] > 0
    assert obs["changes"] > 12  # every turn is at least an episode; some write memories
    assert len(report["verdicts"]) == 3  # cold + warm recall, observe
    assert report["embed_only"]["hashing"]["wall"]["n"] == QUERIES
    short, long = report["noise_floor_end"]
    assert 0 < short["cpu"]["p50"] < long["cpu"]["p50"]
    saved = json.loads((workdir / "report.json").read_text("utf-8"))
    assert saved["sizes"][0]["recall"]["precomputed"]["cold"]["n"] == QUERIES


def test_breakdown_times_every_stage(run: tuple[dict[str, Any], str, Path]) -> None:
    report, _, _ = run
    bd = report["sizes"][0]["breakdown"]
    for phase in ("cold", "warm"):
        stages = bd[phase]
        for label in (
            "records.lexical_search",
            "vectors.search",
            "embedder.embed",
            # the one records read; the hard-constraint read happens only when an
            # inference is a candidate, so it is not required here
            "records.find (the one read: hits + structured records)",
            "total",
        ):
            assert label in stages, (phase, label)
        parts = sum(v["mean_ms"] for k, v in stages.items() if k != "total")
        assert parts == pytest.approx(stages["total"]["mean_ms"], rel=1e-6)
    assert "recall" in bd["cprofile_tottime"]


def test_bulk_load_is_a_realistic_mix(run: tuple[dict[str, Any], str, Path]) -> None:
    _, _, workdir = run
    (db,) = workdir.glob(f"recall_{SIZE}_{USERS}_hashing.db")
    with sqlite3.connect(db) as conn:
        kinds = dict(
            conn.execute(
                "SELECT kind, COUNT(*) FROM records WHERE user_id LIKE 'user-%' GROUP BY kind"
            ).fetchall()
        )
        users = conn.execute(
            "SELECT COUNT(DISTINCT user_id) FROM records WHERE user_id LIKE 'user-%'"
        ).fetchone()[0]
        superseded = conn.execute(
            "SELECT COUNT(*) FROM records WHERE status = 'superseded' AND user_id LIKE 'user-%'"
        ).fetchone()[0]
        vectors = conn.execute(
            "SELECT COUNT(*) FROM vectors WHERE user_id LIKE 'user-%'"
        ).fetchone()[0]
        reads = conn.execute("SELECT COUNT(*) FROM audit WHERE action = 'read'").fetchone()[0]
    assert sum(kinds.values()) == SIZE and users == USERS
    assert kinds["episode"] == SIZE * 7 // 10  # 10 per user: 3 entity rows + 7 turns
    assert {"preference", "fact", "constraint"} <= set(kinds)
    assert superseded == USERS  # one older version per user
    assert vectors == SIZE - superseded  # only active records are indexed
    assert reads > 0  # recalls that found something wrote a read audit entry


def test_precomputed_embedder_is_a_lookup() -> None:
    inner = bench.make_embedder("hashing")
    pre = bench.PrecomputedEmbedder(inner)
    pre.prime(["allergies", "contact"])
    got = pre.embed(["contact", "allergies"])
    assert got.shape == (2, bench.DIM) and pre.misses == 0
    np.testing.assert_allclose(got[0], inner.embed(["contact"])[0])
    pre.embed(["not primed"])
    assert pre.misses == 1


def test_percentiles() -> None:
    p = bench.percentiles([0.001 * i for i in range(1, 101)])
    assert p["n"] == 100 and p["p50"] == pytest.approx(50.5) and p["p95"] == pytest.approx(96)
