"""Execute notebooks/langchain.ipynb top to bottom with nbclient (the venv's kernel)."""

from __future__ import annotations

import os
from pathlib import Path

import nbformat
import pytest
from jupyter_client.kernelspec import KernelSpecManager, NoSuchKernel
from nbclient import NotebookClient

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOK = ROOT / "notebooks" / "langchain.ipynb"


def _kernel_name() -> str:
    """The "python3" kernel; its argv "python" resolves to this interpreter (the venv)."""
    try:
        KernelSpecManager().get_kernel_spec("python3")
    except NoSuchKernel:  # pragma: no cover - ipykernel ships the spec in the venv
        pytest.fail(
            "no python3 kernel spec: run `.venv/bin/python -m ipykernel install --sys-prefix`"
        )
    return "python3"


@pytest.mark.slow
def test_notebook_runs_top_to_bottom(monkeypatch: pytest.MonkeyPatch) -> None:
    nb = nbformat.read(NOTEBOOK, as_version=4)  # type: ignore[no-untyped-call]
    for cell in nb.cells:  # committed clean, no machine-specific paths
        if cell.cell_type == "code":
            assert cell.outputs == [] and cell.execution_count is None
        assert "/work/" not in cell.source and "/home/" not in cell.source
    monkeypatch.setenv(
        "PYTHONPATH", os.pathsep.join(p for p in (str(ROOT), os.environ.get("PYTHONPATH")) if p)
    )
    client = NotebookClient(
        nb,
        timeout=60,
        kernel_name=_kernel_name(),
        resources={"metadata": {"path": str(NOTEBOOK.parent)}},
    )
    client.execute()  # each cell is bounded by the client timeout
    errors = [
        out
        for cell in nb.cells
        if cell.cell_type == "code"
        for out in cell.outputs
        if out.get("output_type") == "error"
    ]
    assert not errors
    printed = "".join(
        out.get("text", "") for cell in nb.cells if cell.cell_type == "code" for out in cell.outputs
    )
    # 1. buffer: a new session still sees the preference said in the previous one
    assert 'taste.green_tea = "like"' in printed
    # 2. retriever: documents with score and provenance
    assert "contact.call = 'never'  score=" in printed
    # 2b. LCEL chat history: session s3 kept both turns; session s50's prompt recalls s3
    assert "session s3 turns: ['human', 'ai']" in printed
    prompt_lines = [ln for ln in printed.splitlines() if ln.startswith("PROMPT SYSTEM LINE:")]
    assert "peanuts" not in prompt_lines[0] and "peanuts" in prompt_lines[1]
    # 3. middleware: the block reached the model's system message; the turn was observed
    system = printed.split("SYSTEM MESSAGE SENT TO THE MODEL:")[1].split("AGENT:")[0]
    assert system.startswith("\nYou are a helpful cafe assistant.")
    assert 'contact.call = "never"' in system
    assert "'allergy.medication': 'penicillin'" in printed
    # 4. store: semantic search and e-mail ids mapped to dot-free labels
    assert "commute {'content': 'Grace cycles to work every day'}" in printed
    assert "grace@example%2Eorg" in printed
    notes = [ln for ln in printed.splitlines() if ln.startswith("- note = ")]
    assert notes and all("noted by the agent" in ln for ln in notes)
    assert "business rule" not in printed
    assert "parking expires: True" in printed
    # 5. memory tools: the agent saved a preference and found it again
    tool_result = printed.split("TOOL RESULT:")[1].splitlines()[0]
    assert "window" in tool_result
    assert "stored by the agent: agent" in printed
    # 6. LLM extractor
    assert "{'seat.flight': 'aisle'}" in printed
