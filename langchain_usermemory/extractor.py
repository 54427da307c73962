"""Turn any LangChain chat model into the core's ``Extractor``.

The model is asked for structured output (``with_structured_output``) with the core's
extraction schema, which is generated from the key taxonomy
(:func:`shared_core.llm.extraction_schema`), under the core's prompt
(:data:`shared_core.llm.EXTRACTION_PROMPT`). What comes back goes through the core's one
parser and bad-output policy (:class:`shared_core.llm.LlmExtraction`): unusable output
degrades to the rule extractor, unusable items are dropped and the rules complete them.
This module only makes the model call.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage
from langchain_core.prompts import ChatPromptTemplate
from langchain_core.runnables import Runnable

from shared_core import (
    EXTRACTION_PROMPT,
    Candidate,
    ConfigError,
    Extractor,
    LlmExtraction,
    Turn,
    extraction_inputs,
    extraction_schema,
)

__all__ = ["LangChainExtractor"]

_SYSTEM, _, _HUMAN = EXTRACTION_PROMPT.partition("Message time:")


def _default_prompt() -> ChatPromptTemplate:
    return ChatPromptTemplate.from_messages(
        [("system", _SYSTEM), ("human", "Message time:" + _HUMAN)]
    )


def _answer(output: Any) -> Any:
    """The model's answer in ``with_structured_output(include_raw=True)`` output: the
    parsed JSON, else the raw tool call's arguments, else the raw text."""
    if not isinstance(output, Mapping):
        return output
    if output.get("parsed") is not None:
        return output["parsed"]
    raw = output.get("raw")
    if isinstance(raw, AIMessage):
        for call_ in raw.tool_calls:  # salvage what a failed parse left
            if isinstance(call_.get("args"), Mapping):
                return call_["args"]
        return raw.content if isinstance(raw.content, str) else ""
    return output


class LangChainExtractor:
    """An ``Extractor`` backed by a LangChain chat model with structured output.

    Example::

        extractor = LangChainExtractor(ChatOpenAI(model="gpt-4o-mini"))
        memory = UserMemory.from_url("sqlite:///m.db", extractor=extractor)

    Args:
        model: any chat model that supports ``with_structured_output``.
        fallback: the extractor used when the model output is unusable; defaults to
            the core's rule extractor.
        prompt: a chat prompt with ``keys``, ``text``, ``role`` and ``at`` variables.
        name: the extractor name recorded in provenance (default ``llm:<model>``).
        min_confidence: candidates the model is less sure of are dropped.

    Raises:
        ConfigError: the model cannot produce structured output.
    """

    def __init__(
        self,
        model: BaseChatModel,
        *,
        fallback: Extractor | None = None,
        prompt: ChatPromptTemplate | None = None,
        name: str | None = None,
        min_confidence: float = 0.0,
    ) -> None:
        try:
            structured = model.with_structured_output(extraction_schema(), include_raw=True)
        except NotImplementedError as exc:
            raise ConfigError(
                f"{type(model).__name__} does not support structured output "
                "(with_structured_output / tool calling); use another model"
            ) from exc
        self.model = model
        self.chain: Runnable[dict[str, Any], Any] = (prompt or _default_prompt()) | structured
        model_name = getattr(model, "model_name", None) or getattr(model, "model", None)
        self.name = (
            name or f"llm:{model_name if isinstance(model_name, str) else type(model).__name__}"
        )
        self.policy = LlmExtraction(self.name, fallback=fallback, min_confidence=min_confidence)
        self.fallback = self.policy.fallback
        self.min_confidence = min_confidence

    def extract(self, turn: Turn) -> list[Candidate]:
        """Extract candidates from one turn; falls back to the rules on bad output."""
        if not self.policy.wanted(turn):
            return self.policy.not_sent(turn)
        try:
            output = self.chain.invoke(extraction_inputs(turn))
        except Exception as exc:  # a model/network failure must not break observe()
            return self.policy.failed(turn, exc)
        return self.policy.finish(turn, _answer(output))

    async def aextract(self, turn: Turn) -> list[Candidate]:
        """Async :meth:`extract` (uses the model's native ``ainvoke``)."""
        if not self.policy.wanted(turn):
            return self.policy.not_sent(turn)
        try:
            output = await self.chain.ainvoke(extraction_inputs(turn))
        except Exception as exc:
            return self.policy.failed(turn, exc)
        return self.policy.finish(turn, _answer(output))
