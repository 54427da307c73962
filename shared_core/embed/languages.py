"""Which text an embedder can represent: English-only model names, CJK share of a text."""

from __future__ import annotations

import os
import re

from ..errors import InvalidInputError
from ..scripts import cjk_share

__all__ = ["cjk_share", "english_only_model", "multilingual_flag", "represents"]

#: sentence-transformers families trained on English text only. Their vectors of Chinese
#: (or Japanese, Korean) text carry no meaning: with all-MiniLM-L6-v2 two unrelated Chinese
#: sentences score cosine 0.6-0.9, often above the right answer, so a dense hit on them
#: is noise (measured: dense-only accuracy 36 % on the Chinese evaluation set).
_ENGLISH_ONLY_RE = re.compile(
    r"(?:^|[/:])(?:all-(?:minilm|mpnet|distilroberta)|paraphrase-(?:minilm|mpnet|albert|distilroberta)"
    r"|multi-qa-|msmarco-|bge-(?:small|base|large)-en|nomic-embed-text-v1)",
    re.I,
)


def english_only_model(name: str | os.PathLike[str]) -> bool:
    """Whether ``name`` is a known English-only embedding model (see ``_ENGLISH_ONLY_RE``).

    Raises:
        InvalidInputError: ``name`` is not a string or path.
    """
    if not isinstance(name, str | os.PathLike):
        raise InvalidInputError(f"model name must be a str, got {type(name).__name__}")
    return _ENGLISH_ONLY_RE.search(os.fspath(name)) is not None


def multilingual_flag(value: object, model_name: object = None) -> bool:
    """An embedder's ``multilingual`` argument, checked: ``value`` when it is given, else
    whether ``model_name`` is not a known English-only model (unknown names are trusted).

    Raises:
        InvalidInputError: ``value`` is neither ``True``, ``False`` nor ``None``.
    """
    if value is None:
        return not (isinstance(model_name, str | os.PathLike) and english_only_model(model_name))
    if not isinstance(value, bool):
        raise InvalidInputError(f"multilingual must be True, False or None, got {value!r}")
    return value


def represents(embedder: object, text: str) -> bool:
    """Whether ``embedder``'s vector of ``text`` means something.

    Embedders say so with a ``multilingual`` attribute (assumed ``True`` when absent, so
    any LangChain / LlamaIndex / custom embedder is trusted). An English-only model does
    not represent text that is mostly CJK; the read path then leaves the dense channel
    out for that query and answers from key lookup and BM25 (jieba) instead.
    """
    return bool(getattr(embedder, "multilingual", True)) or cjk_share(text) < 0.5
