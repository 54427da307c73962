"""Unicode classes in one place: the CJK ranges (as regex character-class bodies) and the
invisible characters no id or prompt field may carry, with the text helpers built on them.

Each constant is the inside of a ``[...]`` class, so callers compose them
(``rf"[{CJK_LETTERS}]+"``). The ranges differ on purpose: word tokenizers care about
letters, the token counter also about CJK punctuation and full-width forms, BM25
segmentation about ideographs only (jieba segments Han text), the extraction rules about
the basic ideograph block.
"""

from __future__ import annotations

import re
import unicodedata

from .errors import InvalidInputError

__all__ = [
    "CJK_LETTERS",
    "CJK_TEXT",
    "HAN",
    "HANGUL",
    "HAN_BASIC",
    "HAN_BMP",
    "INVISIBLE_CATEGORIES",
    "KANA",
    "break_markers",
    "cjk_share",
    "one_line",
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


#: Unicode categories that are never data in an id or a prompt line: controls (line
#: breaks, tabs, NUL), format characters (bidi controls, zero-width characters, BOM,
#: soft hyphen), line and paragraph separators
INVISIBLE_CATEGORIES = frozenset({"Cc", "Cf", "Zl", "Zp"})
_WS = re.compile(r"\s+")
_HASHES = re.compile(r"#{2,}")


def one_line(text: str) -> str:
    """``text`` as one line: invisible characters (:data:`INVISIBLE_CATEGORIES`) become
    spaces, whitespace runs one space, ends stripped."""
    if text.isprintable():  # every invisible category is non-printable: nothing to replace
        return _WS.sub(" ", text).strip()
    s = "".join(" " if unicodedata.category(c) in INVISIBLE_CATEGORIES else c for c in text)
    return _WS.sub(" ", s).strip()


def break_markers(text: str) -> str:
    """Space out runs of ``#`` (``### End`` -> ``# # # End``): no prompt-block marker."""
    return _HASHES.sub(lambda m: " ".join(m.group()), text) if "##" in text else text
