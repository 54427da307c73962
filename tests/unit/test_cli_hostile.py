"""Hostile and bad input through the ``usermemory`` CLI.

Standard: a bad argument or a bad import line gets a clean ``Error:`` / ``line N:``
message and exit code 1 (2 for usage errors), never a traceback, and what is already
stored is kept. Known gaps in ``shared_core/cli/`` are pinned as strict xfails so they
flip to failures (and get un-marked) once fixed.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from shared_core import BackendError, UserMemory
from shared_core.cli import main
from shared_core.embed import HashingEmbedder
from shared_core.storage.sqlite import SqliteRecordStore

HOSTILE_USER = "'; DROP TABLE records;--"


@pytest.fixture
def runner(monkeypatch: pytest.MonkeyPatch) -> CliRunner:
    monkeypatch.setenv("USERMEMORY_EMBEDDER", "hashing")
    monkeypatch.delenv("USERMEMORY_URL", raising=False)
    return CliRunner()


@pytest.fixture
def db(tmp_path: Path) -> str:
    url = f"sqlite:///{tmp_path / 'cli.db'}"
    with UserMemory.from_url(url, embedder=HashingEmbedder()) as mem:
        mem.observe("u", "My budget is 5000.", session_id="s1")
        mem.observe(HOSTILE_USER, "I live in Oslo.", session_id="s1")
    return url


def profile(url: str, user_id: str) -> dict[str, str]:
    with UserMemory.from_url(url, embedder=HashingEmbedder()) as mem:
        return mem.profile(user_id)


def clean_failure(res: Result) -> None:
    """Exit 1 with a message, not an uncaught exception."""
    assert res.exit_code == 1, res.output
    assert isinstance(res.exception, SystemExit), repr(res.exception)
    assert "Traceback" not in res.output


def write_jsonl(path: Path, rows: list[Any]) -> Path:
    path.write_text(
        "\n".join(r if isinstance(r, str) else json.dumps(r) for r in rows) + "\n",
        encoding="utf-8",
    )
    return path


@pytest.mark.parametrize("uid", ["", "   ", "x" * 300, "a\nb", "nul\x00", "\udcff"])
@pytest.mark.parametrize(
    "command",
    [["inspect"], ["export"], ["forget", "--yes"], ["history", "{uid}", "budget.max"]],
)
def test_invalid_user_ids_are_clean_errors(
    runner: CliRunner, db: str, uid: str, command: list[str]
) -> None:
    args = [a.replace("{uid}", uid) for a in command] if "{uid}" in command else [*command, uid]
    res = runner.invoke(main, [*args, "--url", db])
    clean_failure(res)
    assert "InvalidIdError" in res.output
    assert profile(db, "u") == {"budget.max": "5000"}


def test_sql_metacharacter_ids_and_keys_are_plain_data(runner: CliRunner, db: str) -> None:
    res = runner.invoke(main, ["inspect", HOSTILE_USER, "--url", db])
    assert res.exit_code == 0 and "location.city = 'Oslo'" in res.output
    res = runner.invoke(main, ["history", "u", "budget%' OR 1=1 --", "--url", db])
    clean_failure(res)
    assert "no history" in res.output
    for wildcard in ("*", "%", "_", "u%", "?"):
        res = runner.invoke(main, ["forget", wildcard, "--yes", "--url", db])
        assert res.exit_code == 0 and "records.records: 0" in res.output
    assert profile(db, "u") == {"budget.max": "5000"}
    assert profile(db, HOSTILE_USER) == {"location.city": "Oslo"}
    res = runner.invoke(main, ["export", HOSTILE_USER, "--url", db])
    assert res.exit_code == 0 and json.loads(res.output)["user_id"] == HOSTILE_USER


def test_import_rejects_hostile_lines_and_keeps_the_good_ones(
    runner: CliRunner, db: str, tmp_path: Path
) -> None:
    rows: list[Any] = [
        {"user_id": "v", "text": "I live in Rome."},  # 1 good
        {"user_id": "v\u0000", "text": "hi"},  # 2 NUL id
        {"user_id": "v", "text": "lone \ud800"},  # 3 lone surrogate
        {"user_id": "v", "text": "x" * 1_000_000},  # 4 too large
        {"user_id": "v", "text": "I like tea.", "role": "wizard"},  # 5 bad role
        {"user_id": "v", "text": "I like tea.", "session_id": 5},  # 6 wrong type
        {"user_id": "v", "text": "I like tea.", "system_context": None},  # 7 wrong type
        {"user_id": "v", "text": "I like tea.", "at": "next tuesday"},  # 8 bad date
        {"user_id": ["v"], "text": "I like tea."},  # 9 wrong id type
        {"user_id": "v", "text": {"nested": "dict"}},  # 10 wrong text type
        '"just a string"',  # 11 not an object
        "{not json",  # 12
        {"user_id": HOSTILE_USER, "text": "My budget is 7000. '); DROP TABLE x;--"},  # 13 good
        {"user_id": "v", "text": "   "},  # 14 blank
    ]
    res = runner.invoke(
        main,
        [
            "import",
            str(write_jsonl(tmp_path / "t.jsonl", rows)),
            "--url",
            db,
            "--embedder",
            "hashing",
        ],
    )
    clean_failure(res)
    rejected = sorted(int(n) for n in re.findall(r"line (\d+): ", res.output))
    assert rejected == [2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 14], res.output
    assert "TextTooLargeError" in res.output and "InvalidIdError" in res.output
    assert "2 turns imported" in res.output and "12 lines rejected" in res.output
    assert profile(db, "v") == {"location.city": "Rome"}
    assert profile(db, HOSTILE_USER) == {"location.city": "Oslo", "budget.max": "7000"}
    assert profile(db, "u") == {"budget.max": "5000"}


def test_import_from_stdin_garbage(runner: CliRunner, db: str) -> None:
    res = runner.invoke(
        main, ["import", "-", "--url", db, "--embedder", "hashing"], input="\x00\x01garbage\n"
    )
    clean_failure(res)
    assert "line 1" in res.output
    res = runner.invoke(main, ["import", "-", "--url", db, "--embedder", "hashing"], input="")
    assert res.exit_code == 0 and "0 turns imported" in res.output
    assert profile(db, "u") == {"budget.max": "5000"}


@pytest.mark.parametrize(
    "export",
    [
        {"format": "usermemory.export/1", "user_id": "w", "records": None},
        {"format": "usermemory.export/1", "user_id": "w", "records": [{"id": 1}]},
        {"format": "usermemory.export/0", "user_id": "w", "records": []},
    ],
)
def test_import_malformed_export_is_a_clean_error(
    runner: CliRunner, db: str, tmp_path: Path, export: dict[str, Any]
) -> None:
    path = tmp_path / "dump.json"
    path.write_text(json.dumps(export), encoding="utf-8")
    res = runner.invoke(main, ["import", str(path), "--url", db])
    clean_failure(res)
    assert "InvalidInputError" in res.output
    assert profile(db, "w") == {} and profile(db, "u") == {"budget.max": "5000"}


def test_backend_failure_during_import_is_reported_and_loses_nothing(
    runner: CliRunner, db: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def boom(self: SqliteRecordStore, batch: Any) -> None:
        raise BackendError("disk full (injected)")

    monkeypatch.setattr(SqliteRecordStore, "apply", boom)
    rows = [{"user_id": "u", "text": "Actually my budget is at most 20000."}]
    res = runner.invoke(main, ["import", str(write_jsonl(tmp_path / "t.jsonl", rows)), "--url", db])
    clean_failure(res)
    assert "line 1: BackendError: disk full" in res.output
    monkeypatch.undo()
    assert profile(db, "u") == {"budget.max": "5000"}


def test_bad_urls_are_clean_errors(runner: CliRunner) -> None:
    for url in ("bogus://x", "redis://127.0.0.1:1/0", "sqlite://"):
        res = runner.invoke(main, ["inspect", "u", "--url", url])
        clean_failure(res)
        assert res.output.startswith("Error:")


def test_usage_errors_exit_2(runner: CliRunner, db: str, tmp_path: Path) -> None:
    assert runner.invoke(main, ["import", str(tmp_path / "missing.jsonl")]).exit_code == 2
    assert runner.invoke(main, ["import", str(tmp_path)]).exit_code == 2  # a directory
    assert runner.invoke(main, ["export", "u", "--url", db, "-o", str(tmp_path)]).exit_code == 2
    assert runner.invoke(main, ["demo", "--embedder", "gpt-9"]).exit_code == 2
    assert runner.invoke(main, ["inspect"]).exit_code == 2


# -- known gaps in shared_core/cli/ / import_user (reported, not fixed here) ---------


def test_import_non_utf8_file_is_a_clean_error(runner: CliRunner, db: str, tmp_path: Path) -> None:
    path = tmp_path / "latin1.jsonl"
    path.write_bytes(b'{"user_id": "u", "text": "caf\xe9"}\n')
    clean_failure(runner.invoke(main, ["import", str(path), "--url", db]))


def test_import_truncated_export_is_a_clean_error(
    runner: CliRunner, db: str, tmp_path: Path
) -> None:
    path = tmp_path / "dump.json"
    path.write_text('{"format": "usermemory.export/1", "user_id": "u", "records": [', "utf-8")
    clean_failure(runner.invoke(main, ["import", str(path), "--url", db]))


def test_import_export_without_user_id_is_a_clean_error(
    runner: CliRunner, db: str, tmp_path: Path
) -> None:
    path = tmp_path / "dump.json"
    path.write_text('{"format": "usermemory.export/1", "records": []}', "utf-8")
    clean_failure(runner.invoke(main, ["import", str(path), "--url", db]))


def test_import_deeply_nested_line_is_rejected(runner: CliRunner, db: str, tmp_path: Path) -> None:
    path = write_jsonl(tmp_path / "deep.jsonl", ["[" * 100_000 + "]" * 100_000])
    res = runner.invoke(main, ["import", str(path), "--url", db, "--embedder", "hashing"])
    clean_failure(res)
    assert "line 1" in res.output


def test_import_wrong_type_timestamp_is_rejected(
    runner: CliRunner, db: str, tmp_path: Path
) -> None:
    path = write_jsonl(
        tmp_path / "t.jsonl", [{"user_id": "z", "text": "I live in Oslo.", "at": 12}]
    )
    res = runner.invoke(main, ["import", str(path), "--url", db, "--embedder", "hashing"])
    clean_failure(res)
    assert profile(db, "z") == {}


def test_export_to_missing_directory_is_a_clean_error(
    runner: CliRunner, db: str, tmp_path: Path
) -> None:
    out = tmp_path / "missing" / "dump.json"
    clean_failure(runner.invoke(main, ["export", "u", "--url", db, "-o", str(out)]))
