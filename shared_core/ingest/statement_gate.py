"""A learned check that a user turn reads as a statement about the user.

The rule packs decide *what* a turn says; this model only says how much the whole turn
looks like a durable first-person statement ("I'm vegetarian", "微信找我就行") rather than
chat that merely resembles one: a question, a plan, somebody else's fact, a quote, a
joke, pasted assistant text. The extractor marks a turn's candidates with the
``unlikely_statement`` signal when the score is under ``MemoryConfig.statement_gate``,
and the gate rejects the ones it would otherwise accept outright (see
:mod:`shared_core.ingest.gate`).

The model is a logistic regression over hashed character 1-4-grams (each word padded
with spaces, as scikit-learn's ``char_wb`` analyzer does), sublinear term frequency,
IDF and L2 normalization. It works the same on English and Chinese and needs only
NumPy at run time. It is trained by ``python benchmarks/statement_gate.py --write`` on
the labelled rows of the phrasing benchmark's development sets (never its test half,
its yardsticks or its held-out sets); the file records a digest of those rows, and a
test fails when the labels change without the model being retrained.
"""

from __future__ import annotations

import dataclasses
import math
import re
import unicodedata
import zlib
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import numpy as np

from ..entities import Candidate, Intent
from ..errors import InvalidInputError
from .gate import UNLIKELY_STATEMENT

__all__ = [
    "BUCKETS",
    "MODEL_PATH",
    "StatementModel",
    "features",
    "grams",
    "mark",
    "model",
    "score",
    "sentences",
    "turn_score",
]

MODEL_PATH = Path(__file__).with_name("statement_gate.npz")
BUCKETS = 1 << 20
MAX_N = 4


#: typographic apostrophes as typed on phones ("I’m vegan") read as the plain one (double
#: quotes stay apart: “ ” are Chinese text's own quotation marks)
_QUOTES = str.maketrans({"\u2019": "'", "\u2018": "'"})


def grams(text: str) -> Iterator[str]:
    """The character 1-4-grams of every whitespace-separated word, padded with spaces
    (NFKC, case-folded, typographic apostrophes made plain)."""
    folded = unicodedata.normalize("NFKC", text).casefold().translate(_QUOTES)
    for word in folded.split():
        padded = f" {word} "
        size = len(padded)
        for n in range(1, MAX_N + 1):
            for i in range(size - n + 1):
                yield padded[i : i + n]


_SENTENCE_END = re.compile(r"(?<=[.!?;…])\s+|(?<=[。！？；…\n])")


def sentences(text: str) -> list[str]:
    """The turn's sentences (split after end punctuation and at line breaks)."""
    return [p.strip() for p in _SENTENCE_END.split(text) if p.strip()]


def features(text: str) -> dict[int, float]:
    """Hashed n-gram bucket -> sublinear term frequency (1 + ln count)."""
    if not isinstance(text, str):
        raise InvalidInputError(f"text must be a str, got {type(text).__name__}")
    counts = Counter(zlib.crc32(g.encode("utf-8")) & (BUCKETS - 1) for g in grams(text))
    return {b: 1.0 + math.log(c) for b, c in counts.items()}


@dataclass(frozen=True, slots=True)
class StatementModel:
    """The trained weights: sorted buckets with their IDF and coefficient."""

    buckets: np.ndarray  # int64, sorted
    idf: np.ndarray  # float64
    coef: np.ndarray  # float64
    intercept: float
    digest: str  # of the training rows

    @classmethod
    def load(cls, path: Path = MODEL_PATH) -> StatementModel:
        with np.load(path, allow_pickle=False) as z:
            return cls(
                buckets=z["buckets"].astype(np.int64),
                idf=z["idf"].astype(np.float64),
                coef=z["coef"].astype(np.float64),
                intercept=float(z["intercept"]),
                digest=str(z["digest"]),
            )

    def turn_score(self, text: str) -> float:
        """The highest score of the turn and of each of its sentences: a statement after a
        question ("How will you tell me? I'm allergic to penicillin.") is still one."""
        whole = self.score(text)  # first: it checks the text's type
        parts = sentences(text)
        return max([whole, *(self.score(p) for p in parts)]) if len(parts) > 1 else whole

    def score(self, text: str) -> float:
        """Probability that ``text`` is a durable statement about the user (0..1)."""
        feats = features(text)
        if not feats:
            return 0.5
        keys = np.fromiter(feats, dtype=np.int64, count=len(feats))
        tf = np.fromiter(feats.values(), dtype=np.float64, count=len(feats))
        at = np.clip(np.searchsorted(self.buckets, keys), 0, len(self.buckets) - 1)
        known = self.buckets[at] == keys
        weights = tf[known] * self.idf[at[known]]
        norm = float(np.sqrt(weights @ weights))
        z = self.intercept + (float(weights @ self.coef[at[known]]) / norm if norm else 0.0)
        return 1.0 / (1.0 + math.exp(-z))


@lru_cache(maxsize=1)
def model() -> StatementModel:
    """The shipped model, loaded once per process."""
    return StatementModel.load()


def score(text: str) -> float:
    """:meth:`StatementModel.score` with the shipped model."""
    return model().score(text)


def turn_score(text: str) -> float:
    """:meth:`StatementModel.turn_score` with the shipped model."""
    return model().turn_score(text)


def mark(text: str, candidates: list[Candidate], threshold: float) -> list[Candidate]:
    """``candidates`` with the ``unlikely_statement`` signal on every assertion when
    ``text`` scores under ``threshold`` (0 turns the check off; a turn with nothing
    asserted is not scored)."""
    asserted = [c.intent is Intent.ASSERT for c in candidates]
    if threshold <= 0 or not any(asserted) or turn_score(text) >= threshold:
        return candidates
    return [
        dataclasses.replace(c, signals=c.signals | {UNLIKELY_STATEMENT}) if a else c
        for c, a in zip(candidates, asserted, strict=True)
    ]
