"""Execute notebooks/benchmarks.ipynb with nbclient and check what it prints and plots.

The kernel setup, execution and common checks are the ones of ``test_notebooks_core.py``
(imported, not copied): this interpreter's kernel spec in a temporary ``JUPYTER_PATH``,
``MPLBACKEND=Agg``, the repository root on ``PYTHONPATH``, no stderr, no torch import.

Every number the notebook prints from ``benchmarks/results/*.json`` is compared with the
JSON files read here, so a notebook that plots the wrong field fails. The live cell is
checked against an independent in-process run of the same benchmark machinery.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from tests.notebooks.test_notebooks_core import (
    NOTEBOOKS,
    ROOT,
    Executed,
    _common_checks,
    _execute,
    _png_size,
    _read_notebook,
    kernel_name,  # noqa: F401  (the session fixture, reused)
)

pytestmark = pytest.mark.slow

RESULTS = ROOT / "benchmarks" / "results"
NOTEBOOK = "benchmarks.ipynb"
# record ids are random, so ranking ties make two runs of the same set differ a little
LIVE_ACCURACY_TOLERANCE = 0.05


def _json(name: str) -> Any:
    path = RESULTS / name
    return json.loads(path.read_text("utf-8")) if path.is_file() else None


def _rows(out: str, tag: str) -> list[list[str]]:
    """The whitespace-split fields of every ``TAG ...`` line, without header lines."""
    rows = []
    for line in out.splitlines():
        if line.startswith(tag + " "):
            fields = line.split()[1:]
            if fields and fields[0] not in ("system", "embedder", "memories"):
                rows.append(fields)
    return rows


def _num(text: str) -> float | None:
    return None if text == "n/a" else float(text)


def _close(shown: str, want: float | None, tol: float) -> bool:
    got = _num(shown)
    if want is None or got is None:
        return got is None and want is None
    return abs(got - want) <= tol


@pytest.fixture(scope="module")
def run(kernel_name: str) -> Executed:  # noqa: F811  (the imported fixture)
    with pytest.MonkeyPatch.context() as mp:
        return _execute(NOTEBOOK, kernel_name, mp)


def test_runs_clean_fast_and_plots_six_figures(run: Executed) -> None:
    _common_checks(run)  # < 60 s, nothing on stderr, torch never imported
    assert len(run.images) >= 5
    assert len(run.images) == 6  # accuracy, tokens, latency, ablation, sizes, live
    for png in run.images:
        width, height = _png_size(png)
        assert width >= 600 and height >= 250 and len(png) > 10_000


def test_compare_numbers_match_compare_json(run: Executed) -> None:
    compare = _json("compare.json")
    ran = {k: s for k, s in compare["systems"].items() if "error" not in s}
    out = run.stdout
    assert f"{compare['probes']} probes" in out

    header = next(line for line in out.splitlines() if line.startswith("COMPARE system"))
    columns = header.split()[2:-1]  # acc_en stale_en acc_zh stale_zh
    assert columns and len(columns) % 2 == 0
    rows = {r[0]: r[1 : 1 + len(columns)] for r in _rows(out, "COMPARE")}
    assert set(rows) == set(ran)
    for key, values in rows.items():
        for col, shown in zip(columns, values, strict=True):
            metric, lang = col.rsplit("_", 1)
            field = {"acc": "accuracy", "stale": "stale_rate"}[metric]
            want = ran[key]["langs"].get(lang, {}).get(field)
            assert _close(shown, want, 5e-5), (key, col, shown, want)
    for key, s in compare["systems"].items():
        if "error" in s:
            assert f"NOT RUN {key}: " in out

    native = re.findall(
        r"^NATIVE usermemory (\w+) accuracy (\S+) stale (\S+) abstention (\S+)$", out, re.M
    )
    assert native
    for lang, acc, stale, abst in native:
        want = ran["usermemory"]["langs"][lang]["native"]
        assert _close(acc, want["accuracy"], 5e-5)
        assert _close(stale, want["stale_rate"], 5e-5)
        assert _close(abst, want["abstention"], 5e-5)

    growth = {r[0]: r[1:] for r in _rows(out, "GROWTH")}
    assert set(growth) == set(ran)
    sessions = [str(n) for n in compare["growth_at"]]
    for key, values in growth.items():
        for n, shown in zip(sessions, values, strict=True):
            want = ran[key].get("growth", {}).get(n, {}).get("tokens_mean")
            assert _close(shown, want, 1e-9), (key, n)
    if "usermemory" in growth and "buffer" in growth:  # the story the plot tells
        last = sessions[-1]
        assert ran["buffer"]["growth"][last]["tokens_mean"] > 2 * float(growth["usermemory"][-1])

    latency = {r[0]: r[1:] for r in _rows(out, "LATENCY")}
    assert set(latency) == set(ran)
    for key, (p50, p95) in latency.items():
        assert _close(p50, ran[key]["recall_ms_p50"], 5e-4)
        assert _close(p95, ran[key]["recall_ms_p95"], 5e-4)

    scale = compare.get("scale")
    if scale:
        shown_scale = {r[0]: r[1:] for r in _rows(out, "SCALE") if r[0] != "items"}
        timed = {k: s for k, s in scale["systems"].items() if "p50_ms" in s}
        assert set(shown_scale) == set(timed)
        for key, (p50, p95) in shown_scale.items():
            assert _close(p50, timed[key]["p50_ms"], 5e-4)
            assert _close(p95, timed[key]["p95_ms"], 5e-4)
        assert f"SCALE items {scale['items']} users {scale['users']}" in out


def test_ablation_numbers_match_every_evalset_file(run: Executed) -> None:
    present = {n: d for n in ("onnx", "minilm", "hashing") if (d := _json(f"evalset_{n}.json"))}
    assert present, "no evalset_*.json results"
    out = run.stdout

    evals = re.findall(
        r"^EVAL (\w+)\s+(\w+) accuracy (\S+) stale (\S+) provenance (\S+) abstention (\S+)$",
        out,
        re.M,
    )
    assert {(e[0], e[1]) for e in evals} == {
        (n, lang) for n, d in present.items() for lang in d["langs"]
    }
    for name, lang, acc, stale, prov, abst in evals:
        want = present[name]["langs"][lang]
        assert _close(acc, want["accuracy"], 5e-5)
        assert _close(stale, want["stale_rate"], 5e-5)
        assert _close(prov, want["provenance_accuracy"], 5e-5)
        assert _close(abst, want["abstention_rate"], 5e-5)

    rows = _rows(out, "ABLATION")
    expected = {
        (n, lang, channel)
        for n, d in present.items()
        for lang, r in d["langs"].items()
        for channel in r.get("ablation", {})
    }
    assert {(r[0], r[1], r[2]) for r in rows} == expected
    assert any(r[2] == "bm25_only" for r in rows) and any(r[2] == "dense_only" for r in rows)
    for name, lang, channel, acc, abst in rows:
        want = present[name]["langs"][lang]["ablation"][channel]
        assert _close(acc, want["recall_at_k_accuracy"], 5e-5), (name, lang, channel)
        assert _close(abst, want["abstention_rate"], 5e-5), (name, lang, channel)


def test_latency_vs_size_matches_recall_latency_json(run: Executed) -> None:
    latency = _json("recall_latency.json")
    if latency is None:
        pytest.skip("benchmarks/results/recall_latency.json is not there")
    rows = _rows(run.stdout, "SIZE")
    expected = {(s["size"], mode): r for s in latency["sizes"] for mode, r in s["recall"].items()}
    assert {(int(r[0]), r[1]) for r in rows} == set(expected)
    for size, mode, cold50, cold95, warm50, warm95 in rows:
        want = expected[(int(size), mode)]
        assert _close(cold50, want["cold"]["p50"], 5e-3)
        assert _close(cold95, want["cold"]["p95"], 5e-3)
        assert _close(warm50, want["warm"]["p50"], 5e-3)
        assert _close(warm95, want["warm"]["p95"], 5e-3)
    shown = re.findall(r"^VERDICT (.*)$", run.stdout, re.M)
    assert shown == latency.get("verdicts", [])


def test_live_run_reproduces_an_independent_run(run: Executed) -> None:
    from benchmarks import compare as compare_bench
    from benchmarks import evalset
    from benchmarks import evaluate as evaluate_bench
    from benchmarks.evalset_report import summarize
    from benchmarks.peers.systems import BufferPeer
    from shared_core.embed import HashingEmbedder

    out = run.stdout
    m = re.search(
        r"^LIVE set: seed (\d+), (\d+) en \+ (\d+) zh users, (\d+) sessions each, "
        r"(\d+) turns, (\d+) probes$",
        out,
        re.M,
    )
    assert m is not None
    seed, n_en, n_zh, sessions, turns, probes = map(int, m.groups())
    data = evalset.generate(seed, users_en=n_en, users_zh=n_zh, sessions=(sessions,))
    users = [*data["en"], *data["zh"]]
    ref = summarize(
        evaluate_bench.evaluate(users, embedder=HashingEmbedder(), embedder_name="hashing", k=3)
    )
    assert (turns, probes) == (ref["turns"], ref["probes"])

    live = re.findall(r"^LIVE (en|zh) accuracy (\S+) stale (\S+) provenance (\S+)", out, re.M)
    assert {x[0] for x in live} == set(ref["langs"])
    for lang, acc, stale, prov in live:
        want = ref["langs"][lang]
        assert _close(acc, want["accuracy"], LIVE_ACCURACY_TOLERANCE), lang
        assert _close(stale, want["stale_rate"], LIVE_ACCURACY_TOLERANCE), lang
        assert _close(prov, want["provenance_accuracy"], LIVE_ACCURACY_TOLERANCE), lang

    ablation: dict[str, dict[str, float | None]] = {}
    for lang, channel, acc in re.findall(r"^LIVE_ABLATION (\w+) (\w+)\s+(\S+)$", out, re.M):
        ablation.setdefault(lang, {})[channel] = _num(acc)
        want = ref["langs"][lang]["ablation"][channel]["recall_at_k_accuracy"]
        assert _close(acc, want, LIVE_ACCURACY_TOLERANCE), (lang, channel)
    assert set(ablation) == set(ref["langs"])
    for lang, accs in ablation.items():  # fusing the channels beats lexical or dense alone
        hybrid = accs["hybrid_pipeline"]
        assert hybrid is not None
        assert hybrid > (accs["bm25_only"] or 0) and hybrid > (accs["dense_only"] or 0), lang

    growth = {
        name.strip(): {int(n): int(t) for n, t in re.findall(r"s(\d+)=(\d+)", pts)}
        for name, pts in re.findall(r"^LIVE_GROWTH (.+?)\s+(s\d+=.*)$", out, re.M)
    }
    buffer = BufferPeer()
    try:
        want = compare_bench.replay(buffer, users[:1], k=3, growth_at=sorted(growth[buffer.name]))
    finally:
        buffer.close()
    assert growth[buffer.name] == {int(n): pts[0][0] for n, pts in want["growth"].items()}
    um = growth["UserMemory"]
    assert len(um) == len(growth[buffer.name]) >= 3
    assert max(um.values()) <= 400  # the context() token budget
    last = max(um)
    assert growth[buffer.name][last] > 2 * um[last]


@pytest.mark.parametrize("cwd", ["notebooks", "."])
def test_results_folder_is_found_from_notebooks_or_repo_root(
    cwd: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    nb = _read_notebook(NOTEBOOKS / NOTEBOOK, as_version=4)
    first = next(c for c in nb.cells if c.cell_type == "code")
    monkeypatch.chdir(ROOT / cwd)
    namespace: dict[str, Any] = {}
    exec(compile(first.source, "benchmarks.ipynb[first cell]", "exec"), namespace)
    assert Path(namespace["RESULTS"]) == RESULTS
    assert namespace["compare"] == _json("compare.json")
    assert namespace["latency"] == _json("recall_latency.json")
