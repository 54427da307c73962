"""Helpers for the LlamaIndex adapter tests: recording mock LLMs and scenario data."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from typing import Any

from llama_index.core.base.llms.types import ChatMessage, ChatResponse, CompletionResponse
from llama_index.core.llms import MockFunctionCallingLLM, MockLLM
from llama_index.core.llms.callbacks import llm_chat_callback, llm_completion_callback
from pydantic import Field

from shared_core.clock import FakeClock

PREFERENCE = "I only accept SMS notifications, never call me."
START = datetime(2026, 3, 1, 9, 0, tzinfo=UTC)
FILLERS = (
    "What is the status of my order?",
    "Can you explain the invoice I got this month?",
    "How do I change the shipping address for the next delivery?",
    "Is the premium plan available in my region?",
    "My package arrived damaged, what can I do?",
)


def messages_text(messages: Sequence[ChatMessage]) -> str:
    """All text of a message list, one message per line."""
    return "\n".join(f"{m.role.value}: {m.content or ''}" for m in messages)


class RecordingLLM(MockLLM):
    """A ``MockLLM`` that records every message list / prompt it receives.

    ``max_tokens`` makes the reply a fixed "text text ..." instead of an echo of the
    prompt, so replies never smuggle the prompt back into memory.
    """

    inputs: list[str] = Field(default_factory=list, exclude=True)

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("max_tokens", 4)
        super().__init__(**kwargs)

    @llm_chat_callback()
    def chat(self, messages: Sequence[ChatMessage], **kwargs: Any) -> ChatResponse:
        self.inputs.append(messages_text(messages))
        response: ChatResponse = super().chat(messages, **kwargs)
        return response

    @llm_completion_callback()
    def complete(self, prompt: str, formatted: bool = False, **kwargs: Any) -> CompletionResponse:
        self.inputs.append(prompt)
        response: CompletionResponse = super().complete(prompt, formatted=formatted, **kwargs)
        return response

    @property
    def last_input(self) -> str:
        assert self.inputs, "the LLM was never called"
        return self.inputs[-1]


class RecordingFunctionLLM(MockFunctionCallingLLM):
    """A function-calling mock LLM (what ``FunctionAgent`` needs) that records inputs."""

    inputs: list[str] = Field(default_factory=list, exclude=True)

    def __init__(self, **kwargs: Any) -> None:
        def reply(messages: Sequence[ChatMessage], **_: Any) -> ChatMessage:
            self.inputs.append(messages_text(messages))
            return ChatMessage(role="assistant", content="Noted, thank you.")

        super().__init__(response_generator=reply, **kwargs)

    @property
    def last_input(self) -> str:
        assert self.inputs, "the LLM was never called"
        return self.inputs[-1]


def next_session(clock: FakeClock) -> None:
    """Move the clock to the next day (a new conversation)."""
    clock.advance(timedelta(days=1, hours=1))
