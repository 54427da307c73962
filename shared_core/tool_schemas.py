"""The memory tools' argument schemas, one pydantic model per tool, for both adapters.

LangChain (``StructuredTool(args_schema=...)``) and LlamaIndex
(``FunctionTool(fn_schema=...)``) both take a pydantic v2 model, so one model per tool
serves both. It lists only what the model fills: the user is never an argument (the
adapters bind it). Descriptions come from :data:`shared_core.MEMORY_TOOL_FIELDS`.

Needs pydantic, which either adapter extra installs; ``import shared_core`` does not load
this module (``shared_core.ManageMemoryArgs`` imports it on first use).
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

from .memory_tools import MEMORY_TOOL_FIELDS

__all__ = ["ManageMemoryArgs", "SearchMemoryArgs"]


class ManageMemoryArgs(BaseModel):
    """What the model fills to manage one memory (never the user)."""

    action: Literal["create", "update", "delete"] = Field(description=MEMORY_TOOL_FIELDS["action"])
    key: str = Field(description=MEMORY_TOOL_FIELDS["key"])
    value: str | None = Field(default=None, description=MEMORY_TOOL_FIELDS["value"])


class SearchMemoryArgs(BaseModel):
    """What the model fills to search (never the user)."""

    query: str = Field(description=MEMORY_TOOL_FIELDS["query"])
    limit: int = Field(default=5, description=MEMORY_TOOL_FIELDS["limit"])
