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


def _synonym_index() -> dict[str, tuple[tuple[str, bool], ...]]:
    """Every synonym by its first character, longest first: ``(word, needs_word_bounds)``.

    ASCII words need word bounds (no ``[a-z0-9]`` on either side); CJK words match
    anywhere. One regex alternation over the ~300 synonyms cost ~200 us per English query
    (every alternative tried at every position); this index tries only the few that start
    with the character at hand, with the same result.
    """
    out: dict[str, list[tuple[str, bool]]] = {}
    for w in sorted(_PREFIXES, key=len, reverse=True):
        if w:
            out.setdefault(w[0], []).append((w, w.isascii()))
    return {c: tuple(ws) for c, ws in out.items()}


_SYNONYMS = _synonym_index()
_WORD_CHARS = frozenset("abcdefghijklmnopqrstuvwxyz0123456789")
#: where a synonym can start: an ASCII word's first character, or any non-ASCII one
_START = re.compile(r"(?<![a-z0-9])[a-z0-9]|[^\x00-\x7f]")
#: first characters of synonyms that match anywhere but start with an ASCII character
_LOOSE_ASCII_FIRST = frozenset(w[0] for w in _PREFIXES if w and not w.isascii() and w[0].isascii())


def _key_prefixes(text: str) -> tuple[str, ...]:
    """The key prefixes of the synonyms in ``text``, in order (leftmost, longest first,
    non-overlapping: what one alternation of every synonym, longest first, would find)."""
    low = text.lower()
    found: list[str] = []
    i, n = 0, len(low)
    while i < n:
        if not _LOOSE_ASCII_FIRST:  # jump to the next place a synonym can start
            m = _START.search(low, i)
            if m is None:
                break
            i = m.start()
        cands = _SYNONYMS.get(low[i], ())
        for w, bounded in cands:
            end = i + len(w)
            if low.startswith(w, i) and (
                not bounded
                or (
                    (i == 0 or low[i - 1] not in _WORD_CHARS)
                    and (end == n or low[end] not in _WORD_CHARS)
                )
            ):
                for p in _PREFIXES[w]:
                    if p not in found:
                        found.append(p)
                i = end
                break
        else:
            i += 1
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
