"""README.md is executable documentation: every ```python block runs, and the commands
CI runs are the ones the README gives."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text(encoding="utf-8")
_BLOCK = re.compile(
    r"(<!-- not-run: (?P<why>[^>]*) -->\s*)?(<!-- needs: (?P<needs>[^>]*) -->\s*)?"
    r"```python\n(?P<code>.*?)```",
    re.S,
)
_SERVERS = {"postgres": ("127.0.0.1", 5432), "redis": ("127.0.0.1", 6379)}


def _reachable(host: str, port: int) -> bool:
    import socket

    try:
        with socket.create_connection((host, port), timeout=2):
            return True
    except OSError:
        return False


def _blocks() -> list[tuple[str, str, str | None, str]]:
    out = []
    for m in _BLOCK.finditer(README):
        line = README[: m.start()].count("\n") + 1
        out.append((f"README.md:{line}", m.group("code"), m.group("why"), m.group("needs") or ""))
    return out


BLOCKS = _blocks()


def _drop_schemas(code: str) -> None:
    """A README block names a fixed PostgreSQL schema; start it empty so a schema left by an
    older or newer checkout (another migration history) cannot fail the example."""
    import psycopg
    from psycopg import sql

    for url, schema in re.findall(r'"(postgresql://[^"?]*)\?[^"]*schema=(\w+)', code):
        with psycopg.connect(url, autocommit=True) as conn:
            conn.execute(sql.SQL("DROP SCHEMA IF EXISTS {} CASCADE").format(sql.Identifier(schema)))


def test_readme_has_examples():
    assert len(BLOCKS) >= 5


@pytest.mark.parametrize(("where", "code", "why", "needs"), BLOCKS, ids=[b[0] for b in BLOCKS])
def test_readme_python_block_runs(where, code, why, needs, tmp_path):
    if why:
        pytest.skip(f"{where} not run: {why}")
    for server in needs.split():
        if not _reachable(*_SERVERS[server]):
            msg = f"{where} needs {server} on {_SERVERS[server]}"
            if os.environ.get("CI") == "true":
                pytest.fail(msg)
            pytest.skip(msg)
    if "postgres" in needs.split():
        _drop_schemas(code)
    env = {
        **os.environ,
        "USERMEMORY_EMBEDDER": "hashing",
        "PYTHONPATH": str(ROOT),
        "USERMEMORY_URL": f"sqlite:///{tmp_path / 'readme.db'}",
    }
    proc = subprocess.run(
        [sys.executable, "-c", code],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0, f"{where} failed:\n{proc.stderr[-3000:]}"


def _command_after(heading: str) -> str:
    section = README.split(heading, 1)[1]
    m = re.search(r"```bash\n(.*?)```", section, re.S)
    assert m, f"no bash block after {heading!r}"
    return m.group(1).strip()


def test_ci_runs_the_readme_commands():
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    setup = _command_after("## Setup")
    test = _command_after("## Run the tests")
    assert setup in ci, "the README's setup command must appear verbatim in .ci/run"
    assert test in ci, "the README's test command must appear verbatim in .ci/run"
