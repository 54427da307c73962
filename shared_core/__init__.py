"""UserMemory core: structured cross-session memory for LLM agents (framework-free).

Import cost is kept low: no framework, driver, torch or sentence-transformers module is
imported here; they load lazily inside the backend or embedder that needs them.
"""

from __future__ import annotations

from importlib.metadata import PackageNotFoundError, version
from typing import TYPE_CHECKING, Any

from .aio import AsyncUserMemory, CoreBridge, run_sync
from .clock import Clock, FakeClock, SystemClock, as_utc
from .config import DecayPolicy, MemoryConfig, PiiMode
from .embed import CachingEmbedder, multilingual_flag
from .entities import (
    AuditEntry,
    Candidate,
    Change,
    ChangeAction,
    Conflict,
    Intent,
    Kind,
    MemoryRecord,
    Provenance,
    Scope,
    ScoredMemory,
    SessionTurn,
    Source,
    Status,
    Turn,
    UserState,
)
from .errors import (
    BackendError,
    BackendUnavailableError,
    ConfigError,
    ConflictError,
    ExtractionError,
    InvalidIdError,
    InvalidInputError,
    MemoryDisabledError,
    MissingDependencyError,
    NotFoundError,
    TextTooLargeError,
    UnknownBackendError,
    UserErasedError,
    UserMemoryError,
)
from .ids import check_id
from .ingest.extract import RuleExtractor
from .ingest.lexicon import canonical_value
from .llm import (
    EXTRACTION_PROMPT,
    Embedder,
    Extractor,
    LlmExtraction,
    extraction_inputs,
    extraction_schema,
)
from .memory_tools import (
    MANAGE_MEMORY_DESCRIPTION,
    MANAGE_MEMORY_NAME,
    MEMORY_TOOL_FIELDS,
    SEARCH_MEMORY_DESCRIPTION,
    SEARCH_MEMORY_NAME,
    MemoryToolCall,
    MemoryTools,
    manage_memory_call,
    manage_memory_outcome,
    search_memory_call,
    search_memory_outcome,
)
from .pipeline import UserMemory
from .plan import CoreCall, Plan, arun_plan, core_call, run_plan
from .readable import key_label, memory_line, value_text
from .recall.fuse import RetrievalConfig
from .recall.inject import ContextTemplates
from .recall.retrieve import Candidates
from .storage.protocols import RecordFilter, WriteBatch
from .tokens import count_tokens, truncate_to_tokens
from .validate import check_count, check_text

if TYPE_CHECKING:
    from .tool_schemas import ManageMemoryArgs as ManageMemoryArgs
    from .tool_schemas import SearchMemoryArgs as SearchMemoryArgs

# the tools' pydantic argument schemas load on first use (pydantic comes with either
# adapter's extra); not in __all__, so ``from shared_core import *`` never needs pydantic
_LAZY = {"ManageMemoryArgs": "tool_schemas", "SearchMemoryArgs": "tool_schemas"}


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        from importlib import import_module

        return getattr(import_module(f".{_LAZY[name]}", __name__), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


try:
    __version__ = version("usermemory")
except PackageNotFoundError:  # running from a source checkout
    __version__ = "0.0.0"

__all__ = [
    "EXTRACTION_PROMPT",
    "MANAGE_MEMORY_DESCRIPTION",
    "MANAGE_MEMORY_NAME",
    "MEMORY_TOOL_FIELDS",
    "SEARCH_MEMORY_DESCRIPTION",
    "SEARCH_MEMORY_NAME",
    "AsyncUserMemory",
    "AuditEntry",
    "BackendError",
    "BackendUnavailableError",
    "CachingEmbedder",
    "Candidate",
    "Candidates",
    "Change",
    "ChangeAction",
    "Clock",
    "ConfigError",
    "Conflict",
    "ConflictError",
    "ContextTemplates",
    "CoreBridge",
    "CoreCall",
    "DecayPolicy",
    "Embedder",
    "ExtractionError",
    "Extractor",
    "FakeClock",
    "Intent",
    "InvalidIdError",
    "InvalidInputError",
    "Kind",
    "LlmExtraction",
    "MemoryConfig",
    "MemoryDisabledError",
    "MemoryRecord",
    "MemoryToolCall",
    "MemoryTools",
    "MissingDependencyError",
    "NotFoundError",
    "PiiMode",
    "Plan",
    "Provenance",
    "RecordFilter",
    "RetrievalConfig",
    "RuleExtractor",
    "Scope",
    "ScoredMemory",
    "SessionTurn",
    "Source",
    "Status",
    "SystemClock",
    "TextTooLargeError",
    "Turn",
    "UnknownBackendError",
    "UserErasedError",
    "UserMemory",
    "UserMemoryError",
    "UserState",
    "WriteBatch",
    "__version__",
    "arun_plan",
    "as_utc",
    "canonical_value",
    "check_count",
    "check_id",
    "check_text",
    "core_call",
    "count_tokens",
    "extraction_inputs",
    "extraction_schema",
    "key_label",
    "manage_memory_call",
    "manage_memory_outcome",
    "memory_line",
    "multilingual_flag",
    "run_plan",
    "run_sync",
    "search_memory_call",
    "search_memory_outcome",
    "truncate_to_tokens",
    "value_text",
]
