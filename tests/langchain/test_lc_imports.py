"""Import hygiene: the core never imports LangChain; the adapters never load torch eagerly."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

CHECK = """
import json, sys
{body}
heavy = ("torch", "sentence_transformers", "langchain", "langchain_core", "langchain_classic",
         "langgraph", "transformers")
print(json.dumps(sorted(m for m in sys.modules if m.split(".")[0] in heavy)))
"""


ROOT = Path(__file__).resolve().parents[2]


def loaded_after(body: str) -> set[str]:
    """Run ``body`` in a fresh interpreter; return the heavy top-level packages it loaded."""
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join(p for p in (str(ROOT), os.environ.get("PYTHONPATH")) if p),
    }
    out = subprocess.run(
        [sys.executable, "-c", CHECK.format(body=body)],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
        env=env,
        cwd=ROOT,
    )
    assert out.returncode == 0, out.stderr
    return {m.split(".")[0] for m in json.loads(out.stdout.strip().splitlines()[-1])}


def test_importing_shared_core_never_imports_langchain() -> None:
    loaded = loaded_after(
        "import shared_core\nfrom shared_core import UserMemory, AsyncUserMemory\n"
        "from shared_core.embed import HashingEmbedder\n"
        "m = UserMemory.from_url('sqlite:///:memory:', embedder=HashingEmbedder())\n"
        "m.remember('u', 'k', 'v', source='admin_set')\nm.close()"
    )
    assert not loaded & {"langchain", "langchain_core", "langchain_classic", "langgraph"}


def test_importing_the_adapters_does_not_load_torch() -> None:
    loaded = loaded_after(
        "import langchain_usermemory as lu\n"
        "from langchain_usermemory import (UserMemoryBuffer, UserMemoryRetriever,\n"
        "    UserMemoryMiddleware, UserMemoryStore, LangChainExtractor, LangChainEmbedder)\n"
        "from shared_core import UserMemory\n"
        "m = UserMemory.from_url('sqlite:///:memory:')\n"
        "b = UserMemoryBuffer(memory=m, user_id='u')\n"
        "r = UserMemoryRetriever(memory=m, user_id='u')\n"
        "s = UserMemoryStore(m)\n"
        "mw = UserMemoryMiddleware(m)\n"
        "m.close()"
    )
    assert "langchain_classic" in loaded and "langgraph" in loaded  # the adapters did load
    assert "torch" not in loaded and "sentence_transformers" not in loaded


def test_bare_package_import_is_lazy() -> None:
    loaded = loaded_after("import langchain_usermemory")
    assert not loaded & {"torch", "langchain_classic", "langgraph", "langchain"}
