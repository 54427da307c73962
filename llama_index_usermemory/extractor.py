"""``LlamaIndexExtractor``: memory extraction with any LlamaIndex LLM.

The LLM is asked, through LlamaIndex's structured prediction
(``llm.structured_predict`` / ``astructured_predict``: function calling on models that
support it, a JSON output parser otherwise), under the core's prompt
(:data:`shared_core.llm.EXTRACTION_PROMPT`, whose key list comes from the key taxonomy).
The answer goes through the core's one parser and bad-output policy
(:class:`shared_core.llm.LlmExtraction`): a failed call or unusable output sends the
turn to the fallback extractor (the offline rules by default), unusable items are
dropped and the rules complete them. This module only makes the model call.
"""

from __future__ import annotations

from typing import Any

from llama_index.core.llms import LLM
from llama_index.core.prompts import PromptTemplate
from pydantic import BaseModel, Field

from shared_core import (
    EXTRACTION_PROMPT,
    Candidate,
    Extractor,
    InvalidInputError,
    LlmExtraction,
    Turn,
    extraction_inputs,
)

__all__ = ["LlamaIndexExtractor"]


class _Answer(BaseModel):
    """The envelope LlamaIndex's structured prediction fills; the core checks each item."""

    memories: list[dict[str, Any]] = Field(
        default_factory=list,
        description="the memories found, each with key, value, kind, evidence ...",
    )


class LlamaIndexExtractor:
    """An ``Extractor`` (and ``AsyncExtractor``) backed by a LlamaIndex LLM.

    Pass it to the core: ``UserMemory(extractor=LlamaIndexExtractor(llm))``. Only user
    turns are sent to the LLM; other roles go straight to the fallback.

    Args:
        llm: any LlamaIndex ``LLM`` (always pass one explicitly: LlamaIndex's default
            is OpenAI, which this package does not need).
        fallback: the extractor used on malformed output or errors (the core's
            ``RuleExtractor`` by default).
        prompt: the extraction prompt; it receives ``keys``, ``text``, ``role``, ``at``
            and ``today``.
        name: the extractor name recorded in provenance.

    Raises:
        InvalidInputError: ``llm`` is not a LlamaIndex ``LLM``.
    """

    def __init__(
        self,
        llm: LLM,
        *,
        fallback: Extractor | None = None,
        prompt: PromptTemplate | None = None,
        name: str = "llamaindex",
    ) -> None:
        if not isinstance(llm, LLM):
            raise InvalidInputError(f"llm must be a llama_index LLM, got {type(llm).__name__}")
        self.llm = llm
        self.policy = LlmExtraction(name, fallback=fallback)
        self.fallback: Extractor = self.policy.fallback
        self.prompt = prompt or PromptTemplate(EXTRACTION_PROMPT)
        self.name = name

    @property
    def fallbacks(self) -> int:
        """How many turns used the fallback (malformed output, errors, dropped items)."""
        return self.policy.fallbacks

    def extract(self, turn: Turn) -> list[Candidate]:
        """Extract candidates from one turn with the LLM (rules on malformed output)."""
        if not self.policy.wanted(turn):
            return self.policy.not_sent(turn)
        try:
            result = self.llm.structured_predict(_Answer, self.prompt, **extraction_inputs(turn))
        except Exception as exc:  # malformed output or a failed call: rules take over
            return self.policy.failed(turn, exc)
        return self.policy.finish(turn, result)

    async def aextract(self, turn: Turn) -> list[Candidate]:
        """Async :meth:`extract` (uses ``astructured_predict``)."""
        if not self.policy.wanted(turn):
            return self.policy.not_sent(turn)
        try:
            result = await self.llm.astructured_predict(
                _Answer, self.prompt, **extraction_inputs(turn)
            )
        except Exception as exc:  # malformed output or a failed call: rules take over
            return self.policy.failed(turn, exc)
        return self.policy.finish(turn, result)
