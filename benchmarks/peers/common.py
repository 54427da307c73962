"""Shared pieces of the side-by-side benchmark: the peer protocol, embedders, the text judge.

Every system in ``benchmarks/compare.py`` is driven through :class:`Peer`: it sees every
turn (``observe``), the end of every session, and at each probe returns the texts it
would inject into the prompt, best first (``retrieve``). The same judge then reads those
texts for every system, UserMemory included (its ``context()`` lines), so the numbers
are comparable. See :data:`TEXT_JUDGE_DOC` for the exact definitions.
"""

from __future__ import annotations

import gc
import os
import re
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any, Protocol

import numpy as np
import numpy.typing as npt

from shared_core.llm import Embedder

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from evalset_bank import BANKS

__all__ = [
    "TEXT_JUDGE_DOC",
    "TEXT_KEYS",
    "Canary",
    "MemoEmbedder",
    "Peer",
    "Retrieved",
    "canaries",
    "judge_text",
    "leaks",
    "make_embedder",
    "rss_mb",
]

TEXT_JUDGE_DOC = """\
Text judge (same for every system, UserMemory included). A system returns the texts it
would inject for the probe, in rank order (retrieved items best first; for chronological
buffers and LlamaIndex's short-term FIFO, most recent message first). A value "appears"
when one of its surface forms (the canonical value, the phrasings the evaluation set uses
for it, e.g. "SMS"/"text" for sms, "5,000"/"5k" for 5000, 短信 for sms) occurs in a text
(English: whole word, case-insensitive; Chinese: substring). Positions are ordered by
(rank of the text, character offset inside it).
- correct: every expected current value appears (or every value of the accepted
  alternative while a confirmation question is due), and no superseded value appears
  before the first current value;
- stale: a superseded (changed or retracted) value appears before any current value, or
  appears while there is no current value;
- false: a joked / hypothetical / someone-else's value appears before any current value;
- abstained (probes whose truth is "nothing known"): no value of the key appears at all;
- only keys whose values are literal words are judged this way (name, contact.channel,
  budget.max, language, location.city, allergy.medication, diet, health.condition);
  polarity keys (contact.call never/allowed, recommend.* never) cannot be matched in raw
  text and are left out for every system.
UserMemory is additionally judged natively (benchmarks/evaluate.py: recall() records with
the right key, or the key's line in context(); stale = a superseded value returned at all).
Leakage: another user's canary strings (name, order / prescription number) or the same
user's other-system_context canaries in the injected text, or a returned item whose
metadata names another user / system_context. Must be 0."""

TEXT_KEYS = frozenset(
    {
        "name",
        "contact.channel",
        "budget.max",
        "language",
        "location.city",
        "allergy.medication",
        "diet",
        "health.condition",
    }
)


@dataclass
class Retrieved:
    """What a system injects for one probe."""

    texts: list[str]
    owners: list[tuple[str, str]] = field(default_factory=list)  # (user_id, context) per item
    extra: dict[str, Any] = field(default_factory=dict)


class Peer(Protocol):
    """A memory system under test."""

    name: str

    def observe(
        self, user_id: str, context: str, session_id: str, role: str, text: str, at: datetime
    ) -> None:
        """Store one turn."""

    def end_session(self, user_id: str, context: str, session_id: str, at: datetime) -> None:
        """A session ended."""

    def retrieve(self, user_id: str, context: str, query: str, k: int, at: datetime) -> Retrieved:
        """The texts to inject for ``query``, best first."""

    def close(self) -> None:
        """Release resources."""


# ---------------------------------------------------------------------------------------
# embedders
# ---------------------------------------------------------------------------------------
def make_embedder(name: str) -> Embedder:
    """A fresh embedder (own cache).

    ``onnx`` (offline MiniLM through onnxruntime, 1 thread: UserMemory's default),
    ``minilm`` (the same model through sentence-transformers, 1 torch thread) or
    ``hashing``.
    """
    from shared_core.embed import HashingEmbedder, OnnxEmbedder, SentenceTransformerEmbedder

    if name == "hashing":
        return HashingEmbedder()
    if name == "onnx":
        return OnnxEmbedder(threads=1)
    if name == "minilm":
        import torch

        torch.set_num_threads(1)
        return SentenceTransformerEmbedder(threads=1)
    raise ValueError(f"unknown embedder {name!r} (onnx | minilm | hashing)")


class MemoEmbedder:
    """An :class:`Embedder` that memoises every text it has embedded (for bulk loads).

    Args:
        inner: the real embedder.
    """

    def __init__(self, inner: Embedder) -> None:
        self.inner = inner
        self.name = inner.name
        self.dimension = inner.dimension
        self.memo: dict[str, npt.NDArray[np.float32]] = {}
        self.warm = False  # set once the expected texts are in; later misses are counted
        self.calls_after_warm = 0

    def embed(self, texts: Sequence[str]) -> npt.NDArray[np.float32]:
        """Embed ``texts``, computing only those not seen before.

        Args:
            texts: the texts.

        Returns:
            A ``(len(texts), dimension)`` float32 array.
        """
        items = list(texts)
        todo = list(dict.fromkeys(t for t in items if t not in self.memo))
        if todo:
            self.calls_after_warm += int(self.warm)
            for text, vec in zip(todo, self.inner.embed(todo), strict=True):
                self.memo[text] = np.asarray(vec, dtype=np.float32)
        if not items:
            return np.zeros((0, self.dimension), dtype=np.float32)
        return np.stack([self.memo[t] for t in items])


def rss_mb() -> float:
    """Current resident set size of this process in MB (after a full GC)."""
    gc.collect()
    with open("/proc/self/statm", encoding="ascii") as fh:
        pages = int(fh.read().split()[1])
    return pages * os.sysconf("SC_PAGE_SIZE") / 2**20


# ---------------------------------------------------------------------------------------
# the text judge
# ---------------------------------------------------------------------------------------
def _forms(lang: str, key: str, value: str) -> list[str]:
    slot = BANKS[lang].slots.get(key)
    forms = [value, *(slot.surfaces.get(value, []) if slot else [])]
    if value.isdigit() and value.endswith("000"):
        forms += [f"{value[:-3]}k", f"{int(value):,}"]
    return list(dict.fromkeys(f for f in forms if f))


_PATTERNS: dict[tuple[str, str, str], re.Pattern[str]] = {}


def _pattern(lang: str, key: str, value: str) -> re.Pattern[str]:
    pat = _PATTERNS.get((lang, key, value))
    if pat is None:
        alts = "|".join(re.escape(f) for f in sorted(_forms(lang, key, value), key=len)[::-1])
        body = f"(?:{alts})"
        if lang == "en":
            body = rf"(?<![\w]){body}(?![\w])"
        pat = re.compile(body, re.IGNORECASE)
        _PATTERNS[(lang, key, value)] = pat
    return pat


def _first(texts: Sequence[str], lang: str, key: str, value: str) -> tuple[int, int] | None:
    pat = _pattern(lang, key, value)
    for rank, text in enumerate(texts):
        m = pat.search(text)
        if m:
            return rank, m.start()
    return None


def judge_text(probe: Mapping[str, Any], lang: str, texts: Sequence[str]) -> dict[str, Any]:
    """Judge injected texts against a probe's ground truth (see :data:`TEXT_JUDGE_DOC`).

    Args:
        probe: one probe of the evaluation set.
        lang: ``en`` or ``zh``.
        texts: the injected texts in rank order.

    Returns:
        ``judged`` (key is text-matchable), ``value_probe``, ``correct``, ``stale``,
        ``false`` and ``abstained`` flags.
    """
    key, exp = probe["key"], probe["expected"]
    values = [str(v) for v in exp["values"]]
    alt = [str(v) for v in exp.get("also_acceptable", [])]
    stale = [v for v in exp["stale"] if v not in values and v not in alt]
    false = [v for v in exp["false"] if v not in values and v not in alt and v not in stale]
    out: dict[str, Any] = {
        "judged": key in TEXT_KEYS,
        "value_probe": bool(values),
        "correct": False,
        "stale": False,
        "false": False,
        "abstained": True,
    }
    if not out["judged"]:
        return out
    pos = {v: _first(texts, lang, key, v) for v in {*values, *alt, *stale, *false}}

    def earliest(vals: Sequence[str]) -> tuple[int, int] | None:
        found = [p for v in vals if (p := pos[v]) is not None]
        return min(found) if found else None

    first_cur = earliest([*values, *alt])
    first_stale, first_false = earliest(stale), earliest(false)
    complete = bool(values) and (
        all(pos[v] is not None for v in values)
        or bool(alt and all(pos[v] is not None for v in alt))
    )
    out["correct"] = complete and (first_stale is None or first_stale > (first_cur or (0, 0)))
    out["stale"] = first_stale is not None and (first_cur is None or first_stale < first_cur)
    out["false"] = first_false is not None and (first_cur is None or first_false < first_cur)
    slot = BANKS[lang].slots.get(key)
    every = {*(slot.values if slot else []), *values, *stale, *false}
    out["abstained"] = all(_first(texts, lang, key, v) is None for v in every)
    return out


@dataclass(frozen=True)
class Canary:
    """A distinctive string of one user (``context`` ``*`` = any context)."""

    text: str
    owner: str
    context: str


def canaries(users: Sequence[Mapping[str, Any]]) -> list[Canary]:
    """Every user's distinctive strings: names, order / prescription numbers."""
    out: list[Canary] = []
    for u in users:
        out.append(Canary(u["name"], u["user_id"], "*"))
        for ctx, items in u["canaries"].items():
            out += [Canary(c, u["user_id"], ctx) for c in items]
    return out


def leaks(user_id: str, context: str, got: Retrieved, marks: Sequence[Canary]) -> list[str]:
    """Leak descriptions for one probe (empty when nothing leaked)."""
    out = [f"item of {o}/{c}" for o, c in got.owners if (o, c) != (user_id, context)]
    low = "\n".join(got.texts).lower()
    for m in marks:
        foreign = m.owner != user_id or m.context not in ("*", context)
        if foreign and m.text.lower() in low:
            out.append(f"text contains {m.text!r} of {m.owner}/{m.context}")
    return out
