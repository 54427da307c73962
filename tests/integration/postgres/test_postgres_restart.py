"""``postgresql://`` keeps dense vectors across a process restart (pgvector registered as
the scheme's vector index), and says loudly when it cannot (no ``vector`` extension)."""

from __future__ import annotations

import logging
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from shared_core import UserMemory
from shared_core.embed import HashingEmbedder
from shared_core.storage.pgvector import PgVectorIndex
from shared_core.storage.vectors import SqliteVectorIndex

pytestmark = pytest.mark.integration

ROOT = Path(__file__).resolve().parents[3]
WRITER = textwrap.dedent(
    """
    import sys
    from shared_core import UserMemory
    from shared_core.embed import HashingEmbedder
    with UserMemory(sys.argv[1], embedder=HashingEmbedder()) as mem:
        mem.observe("restart-user", "I'm allergic to penicillin.", system_context="health")
        mem.observe("restart-user", "I live in Quetzalburg.")
        print(type(mem.vectors).__name__)
    """
)


def _with_schema(url: str, schema: str) -> str:
    return f"{url}{'&' if '?' in url else '?'}schema={schema}"


def test_dense_recall_finds_what_another_process_wrote(
    pgvector_url: str, pgvector_schema: str
) -> None:
    url = _with_schema(pgvector_url, pgvector_schema)
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        [sys.executable, "-c", WRITER, url],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    assert done.stdout.strip() == "PgVectorIndex"  # the writer process has exited
    with UserMemory(url, embedder=HashingEmbedder()) as mem:
        assert isinstance(mem.vectors, PgVectorIndex)
        assert mem.vectors.ids_for_user("restart-user")
        hits = mem.recall("restart-user", "penicillin allergy", system_context="health", k=1)
        assert hits and hits[0].record.key == "allergy.medication"
        assert "dense" in hits[0].matched_by


def test_without_pgvector_the_in_process_fallback_is_logged(
    pg_url: str, pg_schema: str, caplog: pytest.LogCaptureFixture
) -> None:
    with (
        caplog.at_level(logging.WARNING),
        UserMemory(_with_schema(pg_url, pg_schema), embedder=HashingEmbedder()) as mem,
    ):
        assert isinstance(mem.vectors, SqliteVectorIndex)
    assert any(
        "no pgvector extension" in r.getMessage() and "lost on restart" in r.getMessage()
        for r in caplog.records
    )
