"""Execute notebooks/quickstart.ipynb and notebooks/memory_dynamics.ipynb with nbclient.

The kernel is *this* interpreter: a session fixture writes a kernel spec whose argv is
``sys.executable -m ipykernel_launcher`` into a temporary ``JUPYTER_PATH`` directory, so the
tests work in a fresh clone after ``pip install -e ".[all,test]"`` with no manual step and
never pick up some other Python's ``python3`` kernel. The repository root goes on the
kernel's ``PYTHONPATH`` so the packages import even without an editable install.

What is printed is checked against an independent in-process replay of the same story and
against the decay formula, so a notebook that runs but shows wrong numbers fails.
"""

from __future__ import annotations

import ast
import base64
import math
import os
import re
import struct
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import nbformat
import pytest
from ipykernel.kernelspec import write_kernel_spec
from nbclient import NotebookClient

from shared_core import FakeClock, MemoryConfig, UserMemory
from shared_core.demo import DEMO_USER, SESSION_50_QUERY, demo_sessions, session_date
from shared_core.embed import HashingEmbedder

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOKS = ROOT / "notebooks"
KERNEL_NAME = "usermemory-tests"
CELL_TIMEOUT_S = 120
_ABSOLUTE_PATH = re.compile(r"(/work/|/home/|/Users/|/tmp/|/root/|[A-Za-z]:\\\\)")
_TORCH_PROBE = 'import sys\nprint("TORCH_LOADED", "torch" in sys.modules)'

pytestmark = pytest.mark.slow

# nbformat is untyped; give its two entry points a type once.
_read_notebook: Callable[..., Any] = nbformat.read
_new_code_cell: Callable[..., Any] = nbformat.v4.new_code_cell


@dataclass
class Executed:
    nb: nbformat.NotebookNode
    stdout: str
    stderr: str
    images: list[bytes]


@pytest.fixture(scope="session")
def kernel_name(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A kernel spec for this interpreter, visible through a temporary JUPYTER_PATH."""
    jupyter_dir = tmp_path_factory.mktemp("jupyter")
    write_kernel_spec(
        path=jupyter_dir / "kernels" / KERNEL_NAME,
        overrides={"display_name": f"UserMemory tests ({sys.executable})"},
    )
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv(
            "JUPYTER_PATH",
            os.pathsep.join(p for p in (str(jupyter_dir), os.environ.get("JUPYTER_PATH")) if p),
        )
        yield KERNEL_NAME


def _assert_committed_clean(path: Path) -> nbformat.NotebookNode:
    nb: nbformat.NotebookNode = _read_notebook(path, as_version=4)
    nbformat.validate(nb)
    assert path.stat().st_size < 40_000, "commit the notebook with outputs cleared"
    for cell in nb.cells:
        if cell.cell_type == "code":
            assert cell.outputs == [], cell.source[:60]
            assert cell.execution_count is None, cell.source[:60]
        assert not _ABSOLUTE_PATH.search(cell.source), cell.source[:60]
    code = "\n".join(c.source for c in nb.cells if c.cell_type == "code")
    assert "HashingEmbedder()" in code  # fast and offline: no model weights are loaded
    return nb


def _execute(name: str, kernel: str, monkeypatch: pytest.MonkeyPatch) -> Executed:
    nb = _assert_committed_clean(NOTEBOOKS / name)
    nb.cells.append(_new_code_cell(_TORCH_PROBE))
    monkeypatch.setenv("MPLBACKEND", "Agg")
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setenv("TRANSFORMERS_OFFLINE", "1")
    monkeypatch.delenv("USERMEMORY_URL", raising=False)
    monkeypatch.setenv(
        "PYTHONPATH", os.pathsep.join(p for p in (str(ROOT), os.environ.get("PYTHONPATH")) if p)
    )
    client = NotebookClient(
        nb,
        timeout=CELL_TIMEOUT_S,
        kernel_name=kernel,
        resources={"metadata": {"path": str(NOTEBOOKS)}},
    )
    client.execute()  # each cell is bounded by CELL_TIMEOUT_S
    outputs = [out for cell in nb.cells if cell.cell_type == "code" for out in cell.outputs]
    assert not [o for o in outputs if o.output_type == "error"]
    stdout = "".join(o.text for o in outputs if o.output_type == "stream" and o.name == "stdout")
    stderr = "".join(o.text for o in outputs if o.output_type == "stream" and o.name == "stderr")
    images = [
        base64.b64decode(o.data["image/png"])
        for o in outputs
        if o.output_type in ("display_data", "execute_result") and "image/png" in o.data
    ]
    return Executed(nb, stdout, stderr, images)


def _common_checks(run: Executed) -> None:
    assert run.stderr == "", run.stderr  # no warnings, no log noise
    assert "TORCH_LOADED False" in run.stdout  # the hashing embedder never imports torch


def _replay() -> UserMemory:
    """The same story, in this process: the reference the notebooks' output must match."""
    clock = FakeClock(session_date(1))
    mem = UserMemory.from_url("sqlite:///:memory:", clock=clock, embedder=HashingEmbedder())
    for s in demo_sessions():
        s.play(mem, clock)
    clock.set(session_date(50))
    return mem


def _png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = struct.unpack(">II", data[16:24])
    return int(width), int(height)


def test_quickstart_tells_the_session_3_to_50_story(
    kernel_name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    run = _execute("quickstart.ipynb", kernel_name, monkeypatch)
    _common_checks(run)
    out = run.stdout

    # session 3 writes the preference and the hard rule
    assert "session 3 (2026-04-12): added: contact.channel='SMS'" in out
    assert "session 3 (2026-04-12): added: contact.call='never'" in out
    assert "ignored: taste.jazz (said as a joke)" in out

    # session 50: the same results, order and scores as an independent replay
    with _replay() as ref:
        expected = ref.recall(DEMO_USER, SESSION_50_QUERY, k=3, system_context="support")
        export_records = len(ref.export(DEMO_USER)["records"])
    assert expected, "the reference replay recalled nothing"
    recalled = re.findall(r"^RECALLED (\S+) = '([^']*)'\n\s+score ([\d.]+)", out, re.M)
    assert recalled == [(r.record.key, r.record.value, f"{r.score:.3f}") for r in expected]
    assert "said on 2026-04-12 in session s03" in out  # provenance of the session-3 statement
    assert "x decay" in out and "x relevance" in out

    # the context block: hard constraints with date and exception, within budget
    assert "Hard constraints (always obey):" in out
    assert "exception: contact.call.emergency" in out
    assert 'contact.channel = "SMS" (user said on 2026-04-12, session s03' in out
    m = re.search(r"context block: (\d+) tokens; the full 49-session chat history: (\d+)", out)
    assert m is not None
    block_tokens, buffer_tokens = int(m.group(1)), int(m.group(2))
    assert 0 < block_tokens <= 400 < buffer_tokens

    # profiles per context never mix
    assert "support: {" in out and "'contact.channel': 'SMS'" in out
    assert "health:  {'allergy.medication': 'cephalexin'}" in out

    # history keeps every version
    history = re.findall(r"^HISTORY (\S+) v(\d+) '([^']*)'\s+(\w+)", out, re.M)
    assert ("budget.max", "1", "5000", "superseded") in history
    assert ("budget.max", "2", "at most 20000", "active") in history
    assert ("allergy.medication", "1", "penicillin", "superseded") in history
    assert ("allergy.medication", "2", "cephalexin", "active") in history

    # the conflict is recorded and the exception shows in the context
    assert re.search(r"^CONFLICT contact\.call\.emergency detected 2026-07-29", out, re.M)

    # the hard constraint outranks the inferred interest
    assert "recommend.credit_cards = 'never'" in out
    assert "interest.credit_cards = " not in out  # never recalled nor rendered

    # export -> forget -> import round trip
    m = re.search(r"^EXPORT records: (\d+)$", out, re.M)
    assert m is not None and int(m.group(1)) == export_records
    m = re.search(r"^FORGET (\{.*\})$", out, re.M)
    assert m is not None
    report = ast.literal_eval(m.group(1))
    assert report["records.records"] == export_records and report["records.users"] == 1
    assert "after forget: users = [] | profile = {} | recall = []" in out
    assert f"IMPORT restored {export_records} records; contact.channel = SMS" in out


def test_memory_dynamics_plots_decay_timeline_and_scores(
    kernel_name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    run = _execute("memory_dynamics.ipynb", kernel_name, monkeypatch)
    _common_checks(run)
    out = run.stdout

    # four figures: decay curves, timeline, effective confidence, score components
    assert len(run.images) == 4
    for png in run.images:
        width, height = _png_size(png)
        assert width >= 600 and height >= 250 and len(png) > 10_000

    # the printed decay table matches the default config's formula
    config = MemoryConfig()
    header = re.search(r"^DECAY\s+age\(days\):((?:\s+\d+)+)$", out, re.M)
    assert header is not None
    ages = [float(a) for a in header.group(1).split()]
    rows = dict(re.findall(r"^DECAY (soft|explicit|hard|episode)\s+([\d. ]+)$", out, re.M))
    assert set(rows) == {"soft", "explicit", "hard", "episode"}
    for name, values in rows.items():
        policy = config.decay[name]
        for age, shown in zip(ages, values.split(), strict=True):
            tau = policy.tau_hours
            want = (
                1.0
                if tau is None
                else (policy.floor + (1 - policy.floor) * math.exp(-age * 24 / tau))
            )
            assert float(shown) == pytest.approx(want, abs=6e-4), (name, age)

    # when an inferred memory at the implicit cap fades under the fade threshold
    soft = config.decay["soft"]
    assert soft.tau_hours is not None
    hours = (
        math.floor(
            soft.tau_hours * math.log(config.implicit_confidence_cap / config.fade_threshold)
        )
        + 1
    )
    assert f"fades under the fade threshold ({config.fade_threshold}) after {hours} h" in out

    # the timeline is drawn from history() and the recorded conflicts
    timeline = re.findall(r"^TIMELINE (\S+) \[(\w+)\]\s+v(\d+) '([^']*)'\s+(\w+)", out, re.M)
    assert ("budget.max", "support", "1", "5000", "superseded") in timeline
    assert ("budget.max", "support", "2", "at most 20000", "active") in timeline
    assert ("allergy.medication", "health", "2", "cephalexin", "active") in timeline
    assert ("contact.channel", "support", "1", "SMS", "active") in timeline
    assert re.search(r"^CONFLICT contact\.call\.emergency at 2026-07-29", out, re.M)

    # session 3 still counts at session 50; the inferred interest has faded out
    assert re.search(
        r"^EFFECTIVE contact\.channel \[support\]\s+at session 50: "
        r"confidence 0\.950",
        out,
        re.M,
    )
    assert re.search(
        r"^EFFECTIVE interest\.credit_cards \[support\]\s+at session 50: "
        r"confidence 0\.000",
        out,
        re.M,
    )

    # score components: score = confidence x decay x relevance, best first
    scores = [
        (key, *map(float, nums.split()))
        for key, nums in re.findall(r"^SCORES (?!key)(\S+)\s+([\d. ]+)$", out, re.M)
    ]
    assert len(scores) >= 3
    for key, conf, dec, rel, score in scores:
        assert score == pytest.approx(conf * dec * rel, abs=3e-3), key
        assert 0 < score <= 1
    assert [s[-1] for s in scores] == sorted((s[-1] for s in scores), reverse=True)
    assert scores[0][0].startswith("contact.")
