"""Import hygiene: the core never imports LlamaIndex; the adapters need only the extra."""

from __future__ import annotations

import subprocess
import sys


def run(code: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=False
    )


def test_importing_shared_core_does_not_import_llama_index() -> None:
    proc = run(
        "import sys, shared_core\n"
        "from shared_core import UserMemory, AsyncUserMemory\n"
        "bad = [m for m in sys.modules if m.startswith('llama_index')]\n"
        "assert not bad, bad\n"
    )
    assert proc.returncode == 0, proc.stderr


def test_adapters_import_without_torch_or_langchain() -> None:
    proc = run(
        "import sys, llama_index_usermemory\n"
        "heavy = ('torch', 'sentence_transformers', 'langchain_core')\n"
        "bad = [m for m in heavy if m in sys.modules]\n"
        "assert not bad, bad\n"
    )
    assert proc.returncode == 0, proc.stderr
