"""Fixtures of the extraction tests."""

from __future__ import annotations

import pytest


@pytest.fixture
def rules_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    """Read turns with the rules alone: the learned statement gate off
    (``MemoryConfig.statement_gate = 0``, through the environment ``UserMemory`` reads).

    For a rule family whose wordings the gate scores low: the test pins the rules'
    reading, and ``benchmarks/statement_gate.py`` measures what the gate costs."""
    monkeypatch.setenv("USERMEMORY_STATEMENT_GATE", "0")
