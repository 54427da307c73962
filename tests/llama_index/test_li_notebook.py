"""Execute notebooks/llamaindex.ipynb top to bottom with nbclient (the venv's kernel)."""

from __future__ import annotations

import os
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOK = ROOT / "notebooks" / "llamaindex.ipynb"


@pytest.mark.slow
def test_notebook_runs_clean(monkeypatch: pytest.MonkeyPatch) -> None:
    nb = nbformat.read(NOTEBOOK, as_version=4)  # type: ignore[no-untyped-call]
    # Committed clean: no outputs, no execution counts, no absolute paths.
    for cell in nb.cells:
        if cell.cell_type == "code":
            assert cell.outputs == [] and cell.execution_count is None
        assert "/work/" not in cell.source and "/home/" not in cell.source
    # The kernel is this interpreter ("python" in a kernel spec resolves to sys.executable);
    # the repository root goes on its path so the packages import without installation.
    monkeypatch.setenv(
        "PYTHONPATH", os.pathsep.join(p for p in (str(ROOT), os.environ.get("PYTHONPATH")) if p)
    )
    monkeypatch.setenv("USERMEMORY_EMBEDDER", "hashing")
    client = NotebookClient(
        nb,
        timeout=60,
        kernel_name="python3",
        resources={"metadata": {"path": str(NOTEBOOK.parent)}},
    )
    client.execute()  # each cell is bounded by the client timeout
    printed = "".join(
        out.get("text", "") for cell in nb.cells if cell.cell_type == "code" for out in cell.outputs
    )
    assert "SMS" in printed
    assert "penicillin" in printed
    # memory tools: the agent saved a preference and found it again, as its own note
    assert "window" in printed.split("TOOL RESULT:")[1].splitlines()[0]
    assert "stored by the agent: agent" in printed
