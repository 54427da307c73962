"""Read-path step 1: rewrite a query for retrieval (rule-based, English and Chinese).

* strips fillers ("um", "hey", "can you", "please", "嗯", "那个", "请问"),
* maps "last time / previously / when did I / 上次 / 之前 / 什么时候" to an episodic lookup,
* expands key synonyms (call / phone / text / 电话 / 短信 -> ``contact.``) for the
  structured key lookup, from the key taxonomy (:mod:`shared_core.taxonomy`) so the
  write and read paths agree on what a key is called.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..storage.lexical import MAX_QUERY_CHARS
from ..taxonomy import query_synonyms
from .intent import QueryIntent, detect_intent

__all__ = ["ParsedQuery", "RewrittenQuery", "parse_query", "rewrite"]

_FILLERS_EN = re.compile(
    r"\b(?:um+|uh+|erm|hey|hi|hello|ok(?:ay)?|so|well|please|pls|just|kind of|sort of|"
    r"you know|i mean|can you|could you|would you|tell me|remind me)\b",
    re.IGNORECASE,
)
_FILLERS_ZH = re.compile(r"(?:嗯+|呃+|那个|就是|请问|请|麻烦你?|帮我|一下|吧|呢|啊|呀)")
_EPISODIC = re.compile(
    r"\b(?:(?:like |same as |as )?last time|previous(?:ly)?|before|earlier|when did i|"
    r"did i (?:say|tell|mention)|"
    r"what did i (?:say|tell)|i told you|like i said|as i said|remember when)\b"
    r"|上次|之前|以前|上回|什么时候|我说过|我告诉过你|我提过",
    re.IGNORECASE,
)
_SPACES = re.compile(r"\s+")


@dataclass(frozen=True, slots=True)
class RewrittenQuery:
    """The query as the retrievers see it."""

    original: str
    text: str  # fillers stripped; used for dense and lexical search
    key_prefixes: tuple[str, ...]  # structured lookup targets ("contact.", "allergy")
    episodic: bool  # the user refers to a past conversation


_PREFIXES: dict[str, tuple[str, ...]] = query_synonyms()


def _synonym_pattern() -> re.Pattern[str]:
    """One alternation over every synonym, longest first (ASCII words need word bounds)."""
    words = sorted(_PREFIXES, key=len, reverse=True)
    parts = [
        rf"(?<![a-z0-9]){re.escape(w)}(?![a-z0-9])" if w.isascii() else re.escape(w) for w in words
    ]
    return re.compile("|".join(parts))


_SYNONYMS = _synonym_pattern()


def _key_prefixes(text: str) -> tuple[str, ...]:
    found: list[str] = []
    for m in _SYNONYMS.finditer(text.lower()):
        for p in _PREFIXES.get(m.group(0), ()):
            if p not in found:
                found.append(p)
    return tuple(found)


def rewrite(query: str) -> RewrittenQuery:
    """Rewrite ``query`` for hybrid retrieval; never raises on odd text."""
    episodic = _EPISODIC.search(query) is not None
    # the episodic cue became a flag; its words ("last", "time", "上次") would only match
    # unrelated turns that happen to say "last month"
    text = _EPISODIC.sub(" ", query) if episodic else query
    text = _FILLERS_EN.sub(" ", text)
    text = _FILLERS_ZH.sub(" ", text)
    text = _SPACES.sub(" ", text).strip(" ,.;:!?，。；：！？")
    if not text:
        text = query.strip()
    return RewrittenQuery(
        original=query, text=text, key_prefixes=_key_prefixes(text), episodic=episodic
    )


@dataclass(frozen=True, slots=True)
class ParsedQuery:
    """A query read once for the whole read path: the rewrite and the intent."""

    rewritten: RewrittenQuery
    intent: QueryIntent

    @property
    def text(self) -> str:
        """The text the lexical and dense retrievers search."""
        return self.rewritten.text


def parse_query(query: str) -> ParsedQuery:
    """Rewrite ``query`` and read its intent, once (its first ``MAX_QUERY_CHARS`` characters:
    a pasted document must not cost seconds of segmentation and pattern matching)."""
    head = query[:MAX_QUERY_CHARS]
    return ParsedQuery(rewritten=rewrite(head), intent=detect_intent(head))
