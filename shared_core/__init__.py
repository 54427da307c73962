"""UserMemory core: structured cross-session memory for LLM agents (framework-free)."""

from __future__ import annotations
