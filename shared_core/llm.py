"""Framework-free protocols for the pluggable model parts, and the one LLM extraction.

The protocols (:class:`Extractor`, :class:`AsyncExtractor`, :class:`Embedder`) are what
the pipeline calls. The LLM extraction pieces (:data:`EXTRACTION_PROMPT`,
:func:`extraction_schema` generated from :mod:`shared_core.taxonomy`, the tolerant
:func:`parse_extraction` / strict :func:`to_candidate`, and :class:`LlmExtraction`'s one
bad-output policy) are shared by every LLM-backed extractor, so an adapter only makes
the model call.

Adapters (``langchain_usermemory``, ``llama_index_usermemory``) supply implementations
backed by LangChain / LlamaIndex models; the core ships offline defaults
(:class:`shared_core.ingest.extract.RuleExtractor`,
:class:`shared_core.embed.SentenceTransformerEmbedder`).
"""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Mapping, Sequence
from datetime import datetime, time
from typing import Any, Protocol, runtime_checkable

import numpy as np
import numpy.typing as npt
from dateutil import parser as date_parser

from . import taxonomy
from .clock import as_utc
from .entities import Candidate, Intent, Kind, Scope, Turn
from .errors import ExtractionError, InvalidInputError
from .ingest.lexicon import canonical_value
from .validate import check_text

__all__ = [
    "ANSWER_CONTEXT",
    "EXTRACTION_PROMPT",
    "AsyncExtractor",
    "Embedder",
    "Extractor",
    "LlmExtraction",
    "extraction_inputs",
    "extraction_schema",
    "parse_extraction",
    "render_extraction_prompt",
    "to_candidate",
]

log = logging.getLogger(__name__)


@runtime_checkable
class Extractor(Protocol):
    """Turns one conversation turn into memory candidates.

    Implementations must not raise on odd text: return ``[]`` when nothing is found.
    LLM-backed extractors fall back to the rule extractor on malformed output.
    """

    name: str

    def extract(self, turn: Turn) -> list[Candidate]: ...


@runtime_checkable
class AsyncExtractor(Protocol):
    """An extractor with a native async path (used by ``AsyncUserMemory`` when present)."""

    name: str

    def extract(self, turn: Turn) -> list[Candidate]: ...

    async def aextract(self, turn: Turn) -> list[Candidate]: ...


@runtime_checkable
class Embedder(Protocol):
    """Text -> unit-length float32 vectors.

    ``embed`` takes a batch and returns an array of shape ``(len(texts), dimension)``
    whose rows are L2-normalised (cosine similarity = dot product).
    """

    name: str
    dimension: int

    def embed(self, texts: Sequence[str]) -> npt.NDArray[np.float32]: ...


# ---- LLM extraction: one prompt, one schema, one parser, one bad-output policy -------------

#: The extraction instructions every LLM extractor sends (``{keys}``: the taxonomy's keys,
#: ``{at}``, ``{role}``, ``{text}``: the turn; ``{context}``: the assistant's question the
#: turn answers, or nothing). Adapters put it in their own prompt types.
EXTRACTION_PROMPT = (
    "You extract durable facts, preferences, relationships, constraints and events about "
    "the USER from one message, for a long-term memory. Return only what the user says "
    "about themselves. Skip small talk, questions, jokes, hypotheticals and facts about "
    "other people unless they describe the user's relationships. Copy the evidence span "
    "verbatim from the message. Resolve relative dates against the message time.\n"
    "Use these keys (a key ending in '.<slug>' is a family: 'taste.jazz'); a durable "
    "first-person statement that fits none of them goes under 'note.<slug>' with the "
    "user's own words as the value:\n{keys}\n"
    'Answer with JSON: {{"memories": [{{"key", "value", "kind", "evidence", "explicit", '
    '"hard", "permanent", "intent", "confidence", "valid_until", "flags"}}]}}; an empty '
    "list when there is nothing to remember.\n"
    "Message time: {at}\n{context}Message ({role}):\n{text}\n"
)

#: ``{context}`` when the turn follows a question of the assistant: a short answer is the
#: user's statement ("Leeds." after "Where are you based?": the user lives in Leeds).
ANSWER_CONTEXT = (
    "The assistant had just asked: {asked}\n"
    'The message may answer it: read a short answer as the user\'s own statement ("Leeds" '
    'after "Where are you based?" means the user lives in Leeds), with the evidence '
    "copied from the message; an answer about a one-off task or someone else is not about "
    "the user.\n"
)

_LLM_KEY = re.compile(r"^[a-z0-9_]+(?:\.[a-z0-9_]+){0,4}$")
_MAX_LLM_VALUE = 1000  # a value may exceed its (short) turn a little, never by much
_FLAGS = frozenset({"joke", "hypothetical", "question", "third_party", "negated", "irony"})


def extraction_schema() -> dict[str, Any]:
    """The JSON schema of an extraction answer, generated from the key taxonomy now."""
    schema = taxonomy.llm_schema()
    schema["title"] = "ExtractedMemories"
    schema["description"] = "Everything worth remembering about the user in one message."
    return schema


def extraction_keys() -> str:
    """The taxonomy's keys as prompt lines ("- contact.channel (preference, enum: sms|...)")."""
    lines = []
    for k in taxonomy.llm_schema()["x-keys"]:
        values = f": {'|'.join(k['values'])}" if k.get("values") else ""
        lines.append(f"- {k['key']} ({k['kind']}, {k['type']}{values}): {k.get('meaning', '')}")
    return "\n".join(lines)


def extraction_inputs(turn: Turn) -> dict[str, str]:
    """The variables of :data:`EXTRACTION_PROMPT` for ``turn``."""
    return {
        "keys": extraction_keys(),
        "at": turn.at.isoformat(),
        "today": turn.at.date().isoformat(),
        "role": turn.role,
        "text": turn.text,
        "context": ANSWER_CONTEXT.format(asked=turn.asked) if turn.asked else "",
    }


def render_extraction_prompt(turn: Turn) -> str:
    """:data:`EXTRACTION_PROMPT` filled in for ``turn`` (for completion-style models)."""
    return EXTRACTION_PROMPT.format(**extraction_inputs(turn))


def _json_payload(output: Any) -> Any:
    """A dict/list from a model answer: a mapping, a model object, or JSON text (fenced)."""
    if isinstance(output, str):
        text = output.strip()
        fence = re.search(r"```(?:json)?\s*(.*?)```", text, re.DOTALL)
        if fence:
            text = fence.group(1).strip()
        start = min((i for i in (text.find("{"), text.find("[")) if i >= 0), default=-1)
        if start < 0:
            raise ExtractionError("the model answered without JSON")
        try:
            return json.loads(text[start:])
        except json.JSONDecodeError:
            try:
                return json.JSONDecoder().raw_decode(text[start:])[0]
            except json.JSONDecodeError as exc:
                raise ExtractionError(f"the model's JSON does not parse: {exc}") from exc
    dump = getattr(output, "model_dump", None)
    return dump() if callable(dump) else output


def parse_extraction(output: Any) -> list[Any]:
    """The memory items of a model answer (the tolerant part of the parser).

    Accepts ``{"memories": [...]}`` (or ``"candidates"``), a bare list, a pydantic object
    with one of those fields, or JSON text, optionally in a code fence.

    Raises:
        ExtractionError: nothing usable: not JSON, or no list of memories in it.
    """
    payload = _json_payload(output)
    if isinstance(payload, Mapping):
        for field in ("memories", "candidates"):
            items = payload.get(field)
            if isinstance(items, list):
                return items
        raise ExtractionError("the model's answer has no 'memories' list")
    if isinstance(payload, list):
        return payload
    raise ExtractionError(f"the model's answer is a {type(payload).__name__}, not JSON")


def _squash(text: str) -> str:
    return " ".join(text.casefold().split())


def _bool(value: Any, default: bool) -> bool:
    return value if isinstance(value, bool) else default


def to_candidate(item: Any, turn: Turn, *, name: str, min_confidence: float = 0.0) -> Candidate:
    """One model item -> a checked :class:`Candidate` (the strict part of the parser).

    Raises:
        ExtractionError: the item is unusable (why in the message): not an object, a bad
            key or kind, no value, evidence that is not in the turn, a confidence out of
            [0, 1] or below ``min_confidence``, an unreadable ``valid_until``, a value
            the stores would refuse or that cannot be normalized.
    """
    if not isinstance(item, Mapping):
        raise ExtractionError(f"a memory is a {type(item).__name__}, not an object")
    key = re.sub(r"[\s\-/]+", "_", str(item.get("key") or "").strip().lower())
    if not _LLM_KEY.match(key):
        raise ExtractionError(f"bad key {item.get('key')!r}")
    try:
        kind = Kind(item["kind"]) if item.get("kind") else taxonomy.kind_of(key)
        intent = Intent(item.get("intent") or "assert")
        scope = Scope(item.get("scope") or "global")
    except (ValueError, TypeError) as exc:
        raise ExtractionError(f"memory {key!r}: {exc}") from exc
    value = str(item.get("value") or "").strip()
    if intent is Intent.ASSERT and not value:
        raise ExtractionError(f"memory {key!r} has no value")
    try:
        if value:  # NUL bytes, lone surrogates, a value far longer than the turn
            check_text(value, "value", max_chars=max(_MAX_LLM_VALUE, len(turn.text)))
        normalized = canonical_value(key, value) if value else ""
    except InvalidInputError as exc:
        raise ExtractionError(f"memory {key!r}: {exc}") from exc
    evidence = str(item.get("evidence") or item.get("span") or "").strip()
    if evidence and _squash(evidence) not in _squash(turn.text):
        raise ExtractionError(f"memory {key!r}: its evidence is not in the turn")
    confidence = item.get("confidence")
    if confidence is not None:
        if isinstance(confidence, bool) or not isinstance(confidence, int | float):
            raise ExtractionError(f"memory {key!r}: confidence {confidence!r}")
        if not 0.0 <= confidence <= 1.0 or confidence < min_confidence:
            raise ExtractionError(f"memory {key!r}: confidence {confidence} out of range")
    explicit = item.get("explicit")
    if explicit is None and "explicitness" in item:
        explicit = item.get("explicitness") == "explicit"
    flags = item.get("flags", item.get("signals")) or []
    if not isinstance(flags, list) or not all(isinstance(f, str) for f in flags):
        raise ExtractionError(f"memory {key!r}: flags {flags!r}")
    signals = frozenset(f.strip().lower() for f in flags if f.strip())
    if signals - _FLAGS:
        raise ExtractionError(f"memory {key!r}: unknown flags {sorted(signals - _FLAGS)}")
    spec = taxonomy.spec(key)
    permanent = _bool(item.get("permanent"), False)
    hard = _bool(item.get("hard"), (spec.hard if spec else False) and intent is Intent.ASSERT)
    return Candidate(
        kind=kind,
        key=key,
        value=value,
        normalized=normalized,
        explicit=_bool(explicit, True),
        permanent=permanent,
        hard=hard or (kind is Kind.CONSTRAINT and permanent),
        correction=_bool(item.get("correction"), False),
        intent=intent,
        confidence_hint=float(confidence) if confidence is not None else None,
        valid_until=_valid_until(item.get("valid_until"), turn, key),
        scope=scope,
        span=evidence or turn.text[:500],
        signals=signals,
        extractor=name,
    )


def _valid_until(raw: Any, turn: Turn, key: str) -> datetime | None:
    if raw is None or (isinstance(raw, str) and not raw.strip()):
        return None
    if not isinstance(raw, str) or len(raw) > 64:
        raise ExtractionError(f"memory {key!r}: valid_until {raw!r}")
    default = datetime.combine(turn.at.date(), time(23, 59, 59))
    try:
        return as_utc(date_parser.parse(raw, default=default))
    except (ValueError, OverflowError) as exc:
        raise ExtractionError(f"memory {key!r}: valid_until {raw!r} is not a date") from exc


class LlmExtraction:
    """The bad-output policy every LLM extractor shares; adapters only call the model.

    * the call failed, or the answer has no list of memories: the turn goes to the
      fallback extractor (the offline rules by default), whole;
    * some items are unusable: they are dropped (logged with the reason), the good ones
      are kept, and the fallback's candidates for the keys the model did not cover
      complete them;
    * every item usable: the model's candidates, as they are.

    Args:
        name: the extractor name recorded in provenance.
        fallback: the extractor for bad output (default: ``RuleExtractor()``).
        min_confidence: items the model is less sure of are dropped.

    Attributes:
        fallbacks: how many turns used the fallback (whole or to complete).
    """

    def __init__(
        self, name: str, *, fallback: Extractor | None = None, min_confidence: float = 0.0
    ) -> None:
        if fallback is None:
            from .ingest.extract import RuleExtractor

            fallback = RuleExtractor()
        self.name = name
        self.fallback: Extractor = fallback
        self.min_confidence = min_confidence
        self.fallbacks = 0

    def wanted(self, turn: Turn) -> bool:
        """Whether the turn goes to the model at all (user turns with text)."""
        return turn.role == "user" and bool(turn.text.strip())

    def not_sent(self, turn: Turn) -> list[Candidate]:
        """A turn the model is not asked about: the fallback's rules decide (never raises).

        The rules read tool output (a CRM lookup, a form) and ignore assistant text, so an
        LLM-backed extractor keeps what the rules alone would keep from non-user turns.
        """
        return self._fallback(turn)

    def failed(self, turn: Turn, why: BaseException) -> list[Candidate]:
        """The model call failed or its answer is unusable: the fallback's candidates."""
        self.fallbacks += 1
        detail = " ".join(str(why).split())[:200]
        log.warning("%s: %s (%s); using %s", self.name, type(why).__name__, detail, self._fb)
        return self._fallback(turn)

    def finish(self, turn: Turn, output: Any) -> list[Candidate]:
        """The candidates of a model answer under the policy above (never raises)."""
        try:
            items = parse_extraction(output)
        except ExtractionError as exc:
            return self.failed(turn, exc)
        good: list[Candidate] = []
        dropped: list[str] = []
        for item in items:
            try:
                good.append(
                    to_candidate(item, turn, name=self.name, min_confidence=self.min_confidence)
                )
            except ExtractionError as exc:
                dropped.append(str(exc))
        if not dropped:
            return good
        self.fallbacks += 1
        log.warning(
            "%s: %d memories dropped (%s); completing with %s",
            self.name,
            len(dropped),
            "; ".join(dropped)[:300],
            self._fb,
        )
        keys = {c.key for c in good}
        return good + [c for c in self._fallback(turn) if c.key not in keys]

    @property
    def _fb(self) -> str:
        return str(getattr(self.fallback, "name", type(self.fallback).__name__))

    def _fallback(self, turn: Turn) -> list[Candidate]:
        try:
            return list(self.fallback.extract(turn))
        except Exception as exc:  # the fallback is the last line: never raise from here
            log.error("fallback extractor %s failed: %s", self._fb, exc)
            return []
