"""Unicode ranges of the CJK scripts, in one place, as regex character-class bodies.

Each constant is the inside of a ``[...]`` class, so callers compose them
(``rf"[{CJK_LETTERS}]+"``). The ranges differ on purpose: word tokenizers care about
letters, the token counter also about CJK punctuation and full-width forms, BM25
segmentation about ideographs only (jieba segments Han text), the extraction rules about
the basic ideograph block.
"""

from __future__ import annotations

import re

from .errors import InvalidInputError

__all__ = [
    "CJK_LETTERS",
    "CJK_TEXT",
    "HAN",
    "HANGUL",
    "HAN_BASIC",
    "HAN_BMP",
    "KANA",
    "cjk_share",
]

#: CJK Unified Ideographs (the basic block)
HAN_BASIC = "\u4e00-\u9fff"
#: Han ideographs of the BMP: extension A, the basic block, compatibility ideographs
HAN_BMP = "\u3400-\u4dbf" + HAN_BASIC + "\uf900-\ufaff"
#: every Han ideograph, supplementary planes (extensions B-F) included
HAN = HAN_BMP + "\U00020000-\U0002ebef"
#: Hiragana and Katakana
KANA = "\u3040-\u30ff"
#: Hangul syllables
HANGUL = "\uac00-\ud7af"
#: the letters of Chinese, Japanese and Korean text
CJK_LETTERS = KANA + HAN_BMP + HANGUL
#: CJK letters plus CJK symbols and punctuation and the full-width forms
CJK_TEXT = "\u3000-\u303f" + CJK_LETTERS + "\uff00-\uffef"

_CJK_LETTER_RE = re.compile(rf"[{CJK_LETTERS}]")


def cjk_share(text: str) -> float:
    """Share of CJK characters among the letters and digits of ``text`` (0 when it has none).

    Raises:
        InvalidInputError: ``text`` is not a ``str``.
    """
    if not isinstance(text, str):
        raise InvalidInputError(f"text must be a str, got {type(text).__name__}")
    alnum = [ch for ch in text if ch.isalnum()]
    if not alnum:
        return 0.0
    return sum(1 for ch in alnum if _CJK_LETTER_RE.match(ch)) / len(alnum)
