"""``LlamaIndexExtractor``: memory extraction with any LlamaIndex LLM.

The LLM is asked, through LlamaIndex's structured prediction
(``llm.structured_predict`` / ``astructured_predict``: function calling on models that
support it, a JSON output parser otherwise), for an :class:`ExtractionResult`. When the
output is malformed (not JSON, wrong fields, an unknown kind, a bad key) or the call
fails, the turn goes to the fallback extractor (the core's offline rule extractor by
default), so an unreliable model never loses a memory the rules would have caught.
"""

from __future__ import annotations

import logging
import re
from datetime import datetime
from typing import Any, Literal

from llama_index.core.llms import LLM
from llama_index.core.prompts import PromptTemplate
from pydantic import BaseModel, Field, field_validator

from shared_core import (
    Candidate,
    ExtractionError,
    Extractor,
    Intent,
    InvalidInputError,
    Kind,
    Scope,
    Turn,
    as_utc,
    check_text,
)

__all__ = [
    "DEFAULT_EXTRACTION_PROMPT",
    "ExtractedMemory",
    "ExtractionResult",
    "LlamaIndexExtractor",
]

logger = logging.getLogger(__name__)

_MAX_VALUE_CHARS = 1000  # a value may exceed its (short) turn a little, never by much
_KEY_RE = re.compile(r"^[a-z0-9_]+(?:\.[a-z0-9_]+)*$")

DEFAULT_EXTRACTION_PROMPT = PromptTemplate(
    "You extract long-term memories about a user from one chat message.\n"
    "Today is {today}. Return only what the USER states about themselves: preferences,\n"
    "dislikes, allergies and health facts, contact/notification channels, budgets and\n"
    "limits, locations, names, relationships, 'never/always' rules. Ignore jokes,\n"
    "hypotheticals, questions and statements about other people.\n"
    "For each memory give: kind (fact, event, preference, relationship, constraint),\n"
    "key (dotted lowercase, e.g. contact.channel, allergy.medication, budget.max),\n"
    "value (as stated), explicit (the user asked to remember it or declared it directly),\n"
    "permanent ('never'/'always' wording), hard (a rule that must be obeyed),\n"
    "correction (corrects an earlier statement), intent (assert; forget when the user\n"
    "asks to forget something, with the key to forget; retract for 'just kidding'),\n"
    "valid_until (ISO date, only if the user said when it stops), span (the exact words).\n"
    "Return an empty list when the message holds no such memory.\n"
    "Message ({role}): {text}\n"
)


class ExtractedMemory(BaseModel):
    """One memory as the LLM reports it (validated before it becomes a ``Candidate``)."""

    kind: Literal["fact", "event", "preference", "relationship", "constraint"]
    key: str = Field(description="dotted lowercase slot key, e.g. contact.channel")
    value: str = Field(default="", description="the value as stated")
    explicit: bool = False
    permanent: bool = False
    hard: bool = False
    correction: bool = False
    intent: Literal["assert", "forget", "retract"] = "assert"
    confidence: float | None = Field(default=None, ge=0.0, le=1.0)
    scope: Literal["global", "device", "session"] = "global"
    valid_until: str | None = Field(default=None, description="ISO 8601 date or null")
    span: str = ""
    signals: list[str] = Field(default_factory=list)

    @field_validator("key")
    @classmethod
    def _check_key(cls, value: str) -> str:
        key = re.sub(r"\s+", "_", value.strip().lower())
        if not _KEY_RE.match(key):
            raise ValueError(f"key must be dotted lowercase words, got {value!r}")
        return key


class ExtractionResult(BaseModel):
    """What the LLM returns: the memories found in the message (possibly none)."""

    memories: list[ExtractedMemory] = Field(default_factory=list)


def _default_fallback() -> Extractor:
    from shared_core import RuleExtractor

    rules: Extractor = RuleExtractor()
    return rules


def _normalize(key: str, value: str) -> str:
    try:
        from shared_core import canonical_value
    except ImportError:  # pragma: no cover - the lexicon ships with the core
        return value.strip().lower()
    return str(canonical_value(key, value))


def _parse_until(value: str | None) -> datetime | None:
    if not value:
        return None
    try:
        return as_utc(datetime.fromisoformat(value.strip()))
    except ValueError as exc:
        raise ExtractionError(f"valid_until is not an ISO date: {value!r}") from exc


class LlamaIndexExtractor:
    """An ``Extractor`` (and ``AsyncExtractor``) backed by a LlamaIndex LLM.

    Pass it to the core: ``UserMemory(extractor=LlamaIndexExtractor(llm))``. Only user
    turns are sent to the LLM; other roles go straight to the fallback.

    Args:
        llm: any LlamaIndex ``LLM`` (always pass one explicitly: LlamaIndex's default
            is OpenAI, which this package does not need).
        fallback: the extractor used on malformed output or errors (the core's
            ``RuleExtractor`` by default).
        prompt: the extraction prompt; it receives ``text``, ``role`` and ``today``.
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
        self.fallback: Extractor = fallback if fallback is not None else _default_fallback()
        self.prompt = prompt or DEFAULT_EXTRACTION_PROMPT
        self.name = name
        self.fallbacks = 0  # how many turns went to the fallback (malformed output / errors)

    def _prompt_args(self, turn: Turn) -> dict[str, Any]:
        return {"text": turn.text, "role": turn.role, "today": turn.at.date().isoformat()}

    def to_candidates(self, result: Any, turn: Turn) -> list[Candidate]:
        """Validate an LLM result and convert it to candidates.

        Args:
            result: the structured prediction (an ``ExtractionResult``).
            turn: the turn it was extracted from.

        Returns:
            The candidates.

        Raises:
            ExtractionError: the result is not an ``ExtractionResult`` or has a bad field.
        """
        if not isinstance(result, ExtractionResult):
            raise ExtractionError(f"expected ExtractionResult, got {type(result).__name__}")
        out: list[Candidate] = []
        for item in result.memories:
            value = item.value.strip()
            intent = Intent(item.intent)
            if intent is Intent.ASSERT and not value:
                raise ExtractionError(f"memory {item.key!r} has no value")
            if value:
                try:  # NUL bytes, lone surrogates, a value far longer than the turn
                    check_text(value, "value", max_chars=max(_MAX_VALUE_CHARS, len(turn.text)))
                except InvalidInputError as exc:
                    raise ExtractionError(f"memory {item.key!r}: {exc}") from exc
            span = item.span.strip()
            if span and span not in turn.text:
                span = ""  # never keep text the user did not say
            out.append(
                Candidate(
                    kind=Kind(item.kind),
                    key=item.key,
                    value=value,
                    normalized=_normalize(item.key, value) if value else "",
                    explicit=item.explicit,
                    permanent=item.permanent,
                    hard=item.hard,
                    correction=item.correction,
                    intent=intent,
                    confidence_hint=item.confidence,
                    valid_until=_parse_until(item.valid_until),
                    scope=Scope(item.scope),
                    span=span or turn.text[:500],
                    signals=frozenset(s.strip().lower() for s in item.signals if s.strip()),
                    extractor=self.name,
                )
            )
        return out

    def _fall_back(self, turn: Turn, why: BaseException) -> list[Candidate]:
        self.fallbacks += 1
        detail = " ".join(str(why).split())[:200]
        logger.warning(
            "LLM extraction failed (%s: %s); using %s",
            type(why).__name__,
            detail,
            self.fallback.name,
        )
        return self.fallback.extract(turn)

    def extract(self, turn: Turn) -> list[Candidate]:
        """Extract candidates from one turn with the LLM (rules on malformed output).

        Args:
            turn: the turn.

        Returns:
            The candidates; ``[]`` when nothing is found.
        """
        if turn.role != "user":
            return self.fallback.extract(turn)
        try:
            result = self.llm.structured_predict(
                ExtractionResult, self.prompt, **self._prompt_args(turn)
            )
            return self.to_candidates(result, turn)
        except Exception as exc:  # malformed output or a failed call: rules take over
            return self._fall_back(turn, exc)

    async def aextract(self, turn: Turn) -> list[Candidate]:
        """Async :meth:`extract` (uses ``astructured_predict``)."""
        if turn.role != "user":
            return self.fallback.extract(turn)
        try:
            result = await self.llm.astructured_predict(
                ExtractionResult, self.prompt, **self._prompt_args(turn)
            )
            return self.to_candidates(result, turn)
        except Exception as exc:  # malformed output or a failed call: rules take over
            return self._fall_back(turn, exc)
