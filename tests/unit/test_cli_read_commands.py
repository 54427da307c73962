"""CLI read commands: when a version was said, missing databases, embedder dimensions."""

from __future__ import annotations

import json
from datetime import datetime
from pathlib import Path

import pytest
from click.testing import CliRunner

from shared_core import UserMemory
from shared_core.cli import main
from shared_core.embed import HashingEmbedder


@pytest.fixture
def runner(monkeypatch: pytest.MonkeyPatch) -> CliRunner:
    monkeypatch.setenv("USERMEMORY_EMBEDDER", "hashing")
    return CliRunner()


def _fields(line: str) -> dict[str, str]:
    return dict(part.split("=", 1) for part in line.split() if "=" in part)


def test_history_shows_when_each_version_was_said_and_last_updated(
    runner: CliRunner, tmp_path: Path
) -> None:
    url = f"sqlite:///{tmp_path / 'h.db'}"
    with UserMemory.from_url(url, embedder=HashingEmbedder()) as mem:
        mem.observe(
            "u1",
            "My budget is 5000.",
            session_id="s1",
            at=datetime.fromisoformat("2026-04-20T09:30:00+00:00"),
        )
        mem.observe(
            "u1",
            "Actually, my budget is at most 20000 now.",
            session_id="s2",
            at=datetime.fromisoformat("2026-05-02T10:00:00+00:00"),
        )
    res = runner.invoke(main, ["history", "u1", "budget.max", "--url", url])
    assert res.exit_code == 0, res.output
    v1, v2 = (_fields(line) for line in res.output.strip().splitlines())
    assert v1["said"].startswith("2026-04-20")  # not the date it was superseded
    assert v1["updated"].startswith("2026-05-02")  # superseded by v2
    assert v2["said"].startswith("2026-05-02") and v2["updated"].startswith("2026-05-02")


@pytest.mark.parametrize(
    "command",
    [
        ["inspect", "u1"],
        ["history", "u1", "budget.max"],
        ["export", "u1"],
        ["forget", "u1", "--yes"],
    ],
)
def test_read_commands_refuse_a_missing_database(
    runner: CliRunner, tmp_path: Path, command: list[str]
) -> None:
    path = tmp_path / "typo.db"
    res = runner.invoke(main, [*command, "--url", f"sqlite:///{path}"])
    assert res.exit_code == 1
    assert str(path) in res.output
    assert "--create" in res.output or command[0] == "forget"  # nothing to erase there
    assert not path.exists()  # nothing was created


def test_create_flag_starts_an_empty_database(runner: CliRunner, tmp_path: Path) -> None:
    path = tmp_path / "new.db"
    res = runner.invoke(main, ["export", "u1", "--url", f"sqlite:///{path}", "--create"])
    assert res.exit_code == 0, res.output
    assert path.exists() and json.loads(res.output)["records"] == []


def test_default_store_path_is_checked_too(
    runner: CliRunner, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "env.db"
    monkeypatch.setenv("USERMEMORY_URL", f"sqlite:///{path}")
    res = runner.invoke(main, ["inspect", "u1"])
    assert res.exit_code == 1 and str(path) in res.output
    assert not path.exists()


def test_import_with_an_embedder_of_another_dimension_is_an_error(
    runner: CliRunner, tmp_path: Path
) -> None:
    url = f"sqlite:///{tmp_path / 'dim.db'}"
    with UserMemory.from_url(url, embedder=HashingEmbedder(dimension=64)) as mem:
        mem.observe("u1", "I live in Berlin.")
    turns = tmp_path / "turns.jsonl"
    turns.write_text(json.dumps({"user_id": "u2", "text": "I live in Oslo."}) + "\n", "utf-8")
    res = runner.invoke(main, ["import", str(turns), "--url", url, "--embedder", "hashing"])
    assert res.exit_code == 1
    assert "64" in res.output and "256" in res.output and "embedder" in res.output
    with UserMemory.from_url(url, embedder=HashingEmbedder(dimension=64)) as mem:
        assert mem.profile("u2") == {}  # nothing imported half-way
        assert mem.profile("u1") == {"location.city": "Berlin"}
