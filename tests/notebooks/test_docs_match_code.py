"""The docs describe the code as it is: every adapter entry point, the default embedder,
and what may run concurrently (the README blocks themselves run in tests/docs)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text(encoding="utf-8")

LANGCHAIN_ENTRY_POINTS = [
    "UserMemoryBuffer",
    "UserMemoryRetriever",
    "UserMemoryChatHistory",
    "UserMemoryMiddleware",
    "UserMemoryState",
    "UserMemoryStore",
    "UserMemoryEmbeddings",
    "LangChainEmbedder",
    "LangChainExtractor",
    "create_memory_tools",
    "resolve_user_id",
    "user_namespace",
]
LLAMAINDEX_ENTRY_POINTS = [
    "UserChatMemory",
    "UserMemoryBlock",
    "UserMemoryRetriever",
    "LlamaIndexExtractor",
    "LlamaIndexEmbedder",
    "create_memory_tools",
]


def _section(heading: str) -> str:
    start = README.index(heading)
    level = heading.split(" ")[0]
    rest = README[start + len(heading) :]
    # headings outside code blocks only (a "# comment" in a block is not one)
    prose = re.sub(r"```.*?```", lambda m: " " * len(m.group()), rest, flags=re.S)
    end = re.search(rf"^#{{1,{len(level)}}} ", prose, re.M)
    return rest[: end.start()] if end else rest


def _python_blocks(text: str) -> str:
    return "\n".join(re.findall(r"```python\n(.*?)```", text, re.S))


@pytest.mark.parametrize(
    ("heading", "module", "names"),
    [
        ("## Use with LangChain", "langchain_usermemory", LANGCHAIN_ENTRY_POINTS),
        ("## Use with LlamaIndex", "llama_index_usermemory", LLAMAINDEX_ENTRY_POINTS),
    ],
)
def test_every_adapter_entry_point_is_documented_in_its_section(
    heading: str, module: str, names: list[str]
) -> None:
    package = pytest.importorskip(module)
    section = _section(heading)
    for name in names:
        assert name in package.__all__, name
        assert f"`{name}" in section or name in _python_blocks(section), f"{name} undocumented"


def test_the_new_pieces_have_runnable_examples() -> None:
    code = _python_blocks(README)
    for piece in (
        "observe_messages(",
        "UserMemoryChatHistory(",
        "RunnableWithMessageHistory(",
        "create_memory_tools(",
        "ttl=",
        "UserMemoryEmbeddings(",
        "ThreadPoolExecutor(",
    ):
        assert piece in code, piece


def test_readme_has_a_concurrency_section_per_backend() -> None:
    section = _section("### Concurrency")
    for backend in ("SQLite", "PostgreSQL", "Redis", "AsyncUserMemory"):
        assert backend in section, backend


def test_quickstart_names_the_embedder_that_actually_runs() -> None:
    nb = json.loads((ROOT / "notebooks" / "quickstart.ipynb").read_text(encoding="utf-8"))
    text = "\n".join("".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "markdown")
    default = text[text.index("all-MiniLM-L6-v2") :][:200]
    assert "ONNX" in default  # the default embedder runs through onnxruntime
    assert not default.startswith("all-MiniLM-L6-v2** through sentence-transformers")
