"""Turn any LangChain chat model into the core's ``Extractor``.

The model is asked for structured output (``with_structured_output`` with the
pydantic schema :class:`ExtractedMemories`). Whatever comes back is checked before
it becomes a :class:`shared_core.entities.Candidate`: keys must be dotted lowercase
slugs, values non-empty, confidences in [0, 1], dates parseable, and the evidence
span must really occur in the turn (a hallucination guard). Output that fails to
parse, or candidates that fail the checks, degrade to the rule extractor: the
extractor never raises on model output and never passes garbage on.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Mapping
from datetime import datetime, time
from typing import Any, Literal

from dateutil import parser as date_parser
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage
from langchain_core.prompts import ChatPromptTemplate
from langchain_core.runnables import Runnable
from pydantic import BaseModel, Field, ValidationError

from shared_core import (
    Candidate,
    ConfigError,
    Extractor,
    Intent,
    InvalidInputError,
    Kind,
    Scope,
    Turn,
    as_utc,
    check_text,
)

__all__ = ["ExtractedMemories", "LangChainExtractor", "MemoryCandidate"]

logger = logging.getLogger(__name__)

_KEY = re.compile(r"^[a-z0-9_]+(?:\.[a-z0-9_]+){0,4}$")
_MAX_VALUE_CHARS = 1000  # a value may exceed its (short) turn a little, never by much
_FLAGS = Literal["joke", "hypothetical", "question", "third_party", "negated"]


class MemoryCandidate(BaseModel):
    """One thing the user's message says about the user."""

    kind: Literal["fact", "event", "preference", "relationship", "constraint"] = Field(
        description="fact (name, city, job), event (dated happening), preference (likes, "
        "ways to be contacted), relationship (people), constraint (allergies, must/never)"
    )
    key: str = Field(
        description="dotted lowercase slot key, e.g. 'name', 'drink.preferred', "
        "'contact.call', 'allergy.medication', 'family.daughter'"
    )
    value: str = Field(description="the value in the user's words, e.g. 'green tea'")
    explicitness: Literal["explicit", "implicit"] = Field(
        default="explicit",
        description="explicit: stated or asked to remember; implicit: only suggested",
    )
    confidence: float | None = Field(
        default=None, ge=0.0, le=1.0, description="your confidence from 0 to 1"
    )
    valid_until: str | None = Field(
        default=None, description="ISO 8601 date/time when it stops holding, if said"
    )
    evidence: str = Field(description="the exact span of the message that supports it")
    hard: bool = Field(default=False, description="a hard constraint that must be obeyed")
    permanent: bool = Field(default=False, description="'always'/'never' wording")
    intent: Literal["assert", "forget", "retract"] = Field(
        default="assert",
        description="assert: remember it; forget: the user asks to forget this key; "
        "retract: the user takes back what they just said",
    )
    flags: list[_FLAGS] = Field(
        default_factory=list,
        description="joke, hypothetical, question, third_party (about someone else), negated",
    )


class ExtractedMemories(BaseModel):
    """Everything worth remembering about the user in one message (may be empty)."""

    candidates: list[MemoryCandidate] = Field(
        description="the memories found; an empty list when there is nothing to remember"
    )


_SYSTEM = (
    "You extract durable facts, preferences, relationships, constraints and events "
    "about the USER from one message, for a long-term memory. Return only what the "
    "user says about themselves. Skip small talk, questions, jokes, hypotheticals and "
    "facts about other people unless they describe the user's relationships. Copy the "
    "evidence span verbatim from the message. Resolve relative dates against the "
    "message time. Return an empty list when there is nothing to remember."
)


def _default_prompt() -> ChatPromptTemplate:
    return ChatPromptTemplate.from_messages(
        [("system", _SYSTEM), ("human", "Message time: {at}\nMessage ({role}):\n{text}")]
    )


def _squash(text: str) -> str:
    return " ".join(text.casefold().split())


def _parse_until(raw: str | None, at: datetime) -> datetime | None:
    if raw is None or not raw.strip():
        return None
    default = datetime.combine(at.date(), time(23, 59, 59))
    parsed = date_parser.parse(raw, default=default)  # ValueError/OverflowError on junk
    return as_utc(parsed)


class LangChainExtractor:
    """An ``Extractor`` backed by a LangChain chat model with structured output.

    Example::

        extractor = LangChainExtractor(ChatOpenAI(model="gpt-4o-mini"))
        memory = UserMemory.from_url("sqlite:///m.db", extractor=extractor)

    Args:
        model: any chat model that supports ``with_structured_output``.
        fallback: the extractor used when the model output is unusable; defaults to
            the core's rule extractor.
        prompt: a chat prompt with ``text``, ``role`` and ``at`` variables.
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
            structured = model.with_structured_output(ExtractedMemories, include_raw=True)
        except NotImplementedError as exc:
            raise ConfigError(
                f"{type(model).__name__} does not support structured output "
                "(with_structured_output / tool calling); use another model"
            ) from exc
        self.model = model
        self.chain: Runnable[dict[str, Any], Any] = (prompt or _default_prompt()) | structured
        self.fallback = fallback if fallback is not None else _rule_extractor()
        model_name = getattr(model, "model_name", None) or getattr(model, "model", None)
        self.name = (
            name or f"llm:{model_name if isinstance(model_name, str) else type(model).__name__}"
        )
        self.min_confidence = min_confidence

    # -- public API ----------------------------------------------------------------

    def extract(self, turn: Turn) -> list[Candidate]:
        """Extract candidates from one turn; falls back to the rules on bad output.

        Args:
            turn: the turn.

        Returns:
            The candidates (possibly empty).
        """
        if turn.role != "user" or not turn.text.strip():
            return []
        try:
            output = self.chain.invoke(self._inputs(turn))
        except Exception as exc:  # a model/network failure must not break observe()
            logger.warning("%s failed (%s); using the rule extractor", self.name, exc)
            return self._fallback(turn)
        return self._convert(turn, output)

    async def aextract(self, turn: Turn) -> list[Candidate]:
        """Async :meth:`extract` (uses the model's native ``ainvoke``).

        Args:
            turn: the turn.

        Returns:
            The candidates (possibly empty).
        """
        if turn.role != "user" or not turn.text.strip():
            return []
        try:
            output = await self.chain.ainvoke(self._inputs(turn))
        except Exception as exc:
            logger.warning("%s failed (%s); using the rule extractor", self.name, exc)
            return self._fallback(turn)
        return self._convert(turn, output)

    # -- internals -----------------------------------------------------------------

    @staticmethod
    def _inputs(turn: Turn) -> dict[str, str]:
        return {"text": turn.text, "role": turn.role, "at": turn.at.isoformat()}

    def _fallback(self, turn: Turn) -> list[Candidate]:
        try:
            return list(self.fallback.extract(turn))
        except Exception as exc:  # the fallback is the last line: never raise from here
            logger.error("fallback extractor %s failed: %s", self.fallback.name, exc)
            return []

    def _raw_items(self, output: Any) -> tuple[list[Any], bool] | None:
        """The candidate dicts/models to check, and whether the output parsed fully."""
        if not isinstance(output, Mapping):
            return None
        parsed = output.get("parsed")
        if isinstance(parsed, ExtractedMemories):
            return list(parsed.candidates), True
        raw = output.get("raw")
        if not isinstance(raw, AIMessage):
            return None
        for call_ in raw.tool_calls:  # salvage what we can from a failed parse
            args = call_.get("args")
            if isinstance(args, Mapping) and isinstance(args.get("candidates"), list):
                return list(args["candidates"]), False
        return None

    def _convert(self, turn: Turn, output: Any) -> list[Candidate]:
        items = self._raw_items(output)
        if items is None:
            error = output.get("parsing_error") if isinstance(output, Mapping) else None
            logger.warning("%s returned no usable output (%s); using rules", self.name, error)
            return self._fallback(turn)
        raw_items, complete = items
        good: list[Candidate] = []
        dropped = 0
        for item in raw_items:
            candidate = self._check(turn, item)
            if candidate is None:
                dropped += 1
            else:
                good.append(candidate)
        if complete and dropped == 0:
            return good
        logger.warning(
            "%s output was partial (%d dropped); completing with the rule extractor",
            self.name,
            dropped,
        )
        keys = {c.key for c in good}
        return good + [c for c in self._fallback(turn) if c.key not in keys]

    def _check(self, turn: Turn, item: Any) -> Candidate | None:
        try:
            data = (
                item if isinstance(item, MemoryCandidate) else MemoryCandidate.model_validate(item)
            )
        except ValidationError:
            return None
        key = re.sub(r"[\s\-/]+", "_", data.key.strip().lower())
        value = data.value.strip()
        evidence = data.evidence.strip()
        if not _KEY.match(key):
            return None
        if data.intent == "assert" and not value:
            return None
        if value and not _clean_value(value, turn):
            return None  # NUL bytes, lone surrogates or a value far longer than the turn
        if not evidence or _squash(evidence) not in _squash(turn.text):
            return None  # the evidence must come from this turn
        if data.confidence is not None and data.confidence < self.min_confidence:
            return None
        try:
            valid_until = _parse_until(data.valid_until, turn.at)
        except (ValueError, OverflowError):
            return None
        signals = set(data.flags)
        return Candidate(
            kind=Kind(data.kind),
            key=key,
            value=value,
            explicit=data.explicitness == "explicit",
            permanent=data.permanent,
            hard=data.hard or (data.kind == "constraint" and data.permanent),
            intent=Intent(data.intent),
            confidence_hint=data.confidence,
            valid_until=valid_until,
            scope=Scope.GLOBAL,
            span=evidence,
            signals=frozenset(signals),
            extractor=self.name,
        )


def _clean_value(value: str, turn: Turn) -> bool:
    """Whether the model's value can be stored as is (the core's own text checks)."""
    try:
        check_text(value, "value", max_chars=max(_MAX_VALUE_CHARS, len(turn.text)))
    except InvalidInputError:
        return False
    return True


def _rule_extractor() -> Extractor:
    from shared_core import RuleExtractor

    return RuleExtractor()
