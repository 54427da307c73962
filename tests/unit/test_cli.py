"""The usermemory CLI: every command, its exit codes and --help."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from shared_core.cli import main

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def runner(monkeypatch):
    monkeypatch.setenv("USERMEMORY_EMBEDDER", "hashing")
    return CliRunner()


@pytest.fixture
def db(tmp_path):
    return f"sqlite:///{tmp_path / 'cli.db'}"


def test_demo_prints_session_50_recall_and_context(runner):
    res = runner.invoke(main, ["demo", "--embedder", "hashing"])
    assert res.exit_code == 0, res.output
    out = res.output
    assert "Session 50" in out and "contact.call" in out and "2026-04-12" in out
    assert "session s03" in out
    assert "### User memory" in out
    assert "ConversationBufferMemory" in out


def test_demo_json_is_machine_readable(runner):
    res = runner.invoke(main, ["demo", "--embedder", "hashing", "--json"])
    assert res.exit_code == 0
    data = json.loads(res.stdout)
    keys = {r["record"]["key"] for r in data["recalled"]}
    assert keys & {"contact.call", "contact.channel"}
    assert data["context_tokens"] <= 400 < data["buffer_memory_tokens"]


def test_import_inspect_history_export_forget_round_trip(runner, db, tmp_path):
    turns = tmp_path / "turns.jsonl"
    rows = [
        {
            "user_id": "u1",
            "text": "My budget is 5000.",
            "session_id": "s1",
            "at": "2026-04-12T09:30:00+00:00",
        },
        {
            "user_id": "u1",
            "text": "Actually, my budget is at most 20000 now.",
            "session_id": "s2",
            "at": "2026-05-12T09:30:00+00:00",
        },
        {"user_id": "u2", "text": "I live in Berlin."},
    ]
    turns.write_text("\n".join(json.dumps(r) for r in rows) + "\n", encoding="utf-8")
    res = runner.invoke(main, ["import", str(turns), "--url", db, "--embedder", "hashing"])
    assert res.exit_code == 0, res.output
    assert "3 turns imported" in res.output

    res = runner.invoke(main, ["inspect", "u1", "--url", db])
    assert res.exit_code == 0 and "budget.max" in res.output and "20000" in res.output

    res = runner.invoke(main, ["history", "u1", "budget.max", "--url", db])
    assert res.exit_code == 0
    lines = res.output.strip().splitlines()
    assert lines[0].startswith("v1 superseded") and lines[1].startswith("v2 active")
    assert "session=s1" in lines[0]

    out = tmp_path / "dump.json"
    res = runner.invoke(main, ["export", "u1", "--url", db, "-o", str(out)])
    assert res.exit_code == 0
    dump = json.loads(out.read_text(encoding="utf-8"))
    assert dump["user_id"] == "u1" and len(dump["records"]) >= 2

    res = runner.invoke(main, ["forget", "u1", "--yes", "--url", db])
    assert res.exit_code == 0 and "vectors" in res.output
    res = runner.invoke(main, ["inspect", "u1", "--url", db])
    assert res.exit_code == 1 and "no memory stored" in res.output

    res = runner.invoke(main, ["import", str(out), "--url", db])  # restore the export
    assert res.exit_code == 0 and "restored" in res.output
    res = runner.invoke(main, ["inspect", "u1", "--url", db])
    assert res.exit_code == 0 and "20000" in res.output


def test_import_reports_bad_lines_and_exits_1(runner, db, tmp_path):
    f = tmp_path / "bad.jsonl"
    f.write_text(
        '{"user_id": "u", "text": "I live in Oslo."}\nnot json\n{"user_id": "", "text": "x"}\n'
        '{"user_id": "u", "text": ""}\n[1, 2]\n',
        encoding="utf-8",
    )
    res = runner.invoke(main, ["import", str(f), "--url", db, "--embedder", "hashing"])
    assert res.exit_code == 1
    assert "line 2" in res.output and "line 3" in res.output and "line 4" in res.output
    assert "1 turns imported" in res.output


def test_errors_and_usage_exit_codes(runner, db):
    assert runner.invoke(main, ["history", "nobody", "k", "--url", db]).exit_code == 1
    assert runner.invoke(main, ["inspect", "u", "--url", "bogus://x"]).exit_code == 1
    assert runner.invoke(main, ["frobnicate"]).exit_code == 2
    assert runner.invoke(main, ["history", "only-user"]).exit_code == 2
    res = runner.invoke(main, ["forget", "u", "--url", db], input="n\n")
    assert res.exit_code == 1  # aborted at the confirmation


@pytest.mark.parametrize(
    "cmd",
    [[], ["demo"], ["inspect"], ["history"], ["export"], ["forget"], ["import"], ["warmup"]],
)
def test_help_everywhere(runner, cmd):
    res = runner.invoke(main, [*cmd, "--help"])
    assert res.exit_code == 0 and "Usage:" in res.output


def test_warmup_reports_the_embedder_and_its_timing(runner):
    res = runner.invoke(main, ["warmup", "--embedder", "hashing"])
    assert res.exit_code == 0, res.output
    assert "embedder: hashing-256" in res.output
    assert "one query:" in res.output and "model:" not in res.output
    bad = runner.invoke(main, ["warmup", "--embedder", "bogus; rm -rf /"])
    assert bad.exit_code == 2 and "Invalid value" in bad.output


@pytest.mark.embeddings
@pytest.mark.slow  # exports the model to ONNX from scratch (~12 s)
def test_warmup_exports_onnx_into_the_cache_dir(monkeypatch, tmp_path):
    """The default (auto) embedder is MiniLM through ONNX; warmup does the one-time export."""
    monkeypatch.delenv("USERMEMORY_EMBEDDER", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    res = CliRunner().invoke(main, ["warmup"])
    assert res.exit_code == 0, res.output
    assert "embedder: onnx:sentence-transformers/all-MiniLM-L6-v2" in res.output
    model_dir = Path(res.output.split("model: ", 1)[1].splitlines()[0])
    assert model_dir.is_relative_to(tmp_path)
    assert (model_dir / "model.onnx").is_file() and (model_dir / "meta.json").is_file()
    again = CliRunner().invoke(main, ["warmup"])  # reuses the export
    assert again.exit_code == 0 and f"model: {model_dir}" in again.output


def test_console_script_starts_without_heavy_imports():
    code = (
        "import sys; from shared_core.cli import main; "
        "sys.argv=['usermemory','--help']\n"
        "try:\n main()\nexcept SystemExit as e:\n assert e.code == 0\n"
        "assert 'torch' not in sys.modules and 'sentence_transformers' not in sys.modules"
    )
    proc = subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"},
    )
    assert proc.returncode == 0, proc.stderr
    assert "demo" in proc.stdout
