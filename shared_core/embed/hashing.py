"""A dependency-free lexical embedder: signed feature hashing of words, trigrams and CJK."""

from __future__ import annotations

import hashlib
import itertools
import re
import unicodedata
from collections.abc import Sequence
from functools import lru_cache

import numpy as np

from ..errors import ConfigError
from ..scripts import CJK_LETTERS
from .cache import Vectors, l2_normalise, validate_texts

__all__ = ["HashingEmbedder"]

_TOKEN_RE = re.compile(rf"[{CJK_LETTERS}]+|[^\W_{CJK_LETTERS}]+")
_CJK_RE = re.compile(rf"[{CJK_LETTERS}]")


@lru_cache(maxsize=65536)
def _hash_feature(feature: str, dimension: int) -> tuple[int, float]:
    h = int.from_bytes(hashlib.blake2b(feature.encode("utf-8"), digest_size=8).digest(), "big")
    return h % dimension, (1.0 if (h >> 63) & 1 else -1.0)


class HashingEmbedder:
    """Deterministic signed feature hashing; numpy only, no model, no downloads.

    Features: casefolded word unigrams (weight 1), character trigrams of each word
    (weight 0.5, so "notification" is near "notifications"), and for CJK text every
    character plus every adjacent bigram. Hashing uses BLAKE2b, so vectors are identical
    across processes and machines.

    This is *lexical* similarity only: "text me" and "SMS" share no features and score
    ~0. Use it for tests, or when no model can be installed; use
    :class:`SentenceTransformerEmbedder` for semantic recall.

    Args:
        dimension: vector length (>= 16).
    """

    #: lexical features of CJK characters are as meaningful as of English words
    multilingual = True

    def __init__(self, dimension: int = 256) -> None:
        if int(dimension) < 16:
            raise ConfigError("HashingEmbedder dimension must be >= 16")
        self.dimension = int(dimension)
        self.name = f"hashing-{self.dimension}"

    def _features(self, text: str) -> list[tuple[str, float]]:
        norm = unicodedata.normalize("NFKC", text).casefold()
        feats: list[tuple[str, float]] = []
        for tok in _TOKEN_RE.findall(norm):
            if _CJK_RE.match(tok):
                feats.extend((f"c:{ch}", 1.0) for ch in tok)
                feats.extend((f"c2:{a}{b}", 1.0) for a, b in itertools.pairwise(tok))
                continue
            feats.append((f"w:{tok}", 1.0))
            padded = f"<{tok}>"
            feats.extend((f"g:{padded[i : i + 3]}", 0.5) for i in range(len(padded) - 2))
        if not feats:  # empty or punctuation only: still a unit vector, same for same text
            feats.append((f"raw:{norm.strip()}", 1.0))
        return feats

    def embed(self, texts: Sequence[str]) -> Vectors:
        """Embed ``texts`` (see class docs); rows are unit length and in input order.

        Raises:
            InvalidInputError: ``texts`` is not a sequence of ``str``.
        """
        items = validate_texts(texts)
        out = np.zeros((len(items), self.dimension), dtype=np.float32)
        for row, text in enumerate(items):
            for feature, weight in self._features(text):
                idx, sign = _hash_feature(feature, self.dimension)
                out[row, idx] += sign * weight
        return l2_normalise(out)
