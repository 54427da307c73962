"""Tokenization and a small per-user BM25 for the lexical retriever.

One :func:`tokenize` is used for stored records and for queries, so both sides agree:

- Text is NFKC-normalised (full-width letters and digits become ASCII) and casefolded.
- Runs of CJK ideographs are segmented with ``jieba.cut_for_search`` (which also emits the
  sub-words of long words, so "青霉素" indexes "青霉", "霉素" and "青霉素"). jieba is
  imported lazily and initialised once per process, under a lock.
- Everything else is split into word tokens (letters and digits; ``_``, ``.``, ``-`` and
  punctuation separate words), so keys like ``allergy.medication`` or ``contact_call``
  split into their words.
- English plurals are folded with a light "S" stemmer (``allergies`` -> ``allergy``,
  ``meetings`` -> ``meeting``, ``watches`` -> ``watch``; see :func:`s_stem`), and a short
  list of function words is dropped. Negations
  ("not", "never", "no", "不", "别") are kept: they change what a memory means.

:class:`BM25Index` scores a small corpus (one user's records in one context) in process.
"""

from __future__ import annotations

import functools
import logging
import math
import re
import sys
import threading
import unicodedata
from collections.abc import Iterable, Sequence
from types import ModuleType

from .. import _forksafe
from ..scripts import HAN

__all__ = [
    "LEXICAL_VERSION",
    "MAX_QUERY_CHARS",
    "BM25Index",
    "LexDocs",
    "jieba_loaded",
    "s_stem",
    "tokenize",
    "tokenize_key",
    "tokenize_query",
    "warm_up",
]

logger = logging.getLogger(__name__)

#: Bump when :func:`tokenize` changes; stores re-tokenize rows written by an older version.
LEXICAL_VERSION = 1

_CJK = re.compile(rf"([{HAN}]+)")
_WORD = re.compile(r"[^\W_]+")

_EN_STOP = frozenset(
    """a an the and or but if then so of to in on at by for from with about as into onto
    is am are was were be been being do does did doing have has had having
    i me my mine myself we us our ours you your yours he him his she her hers it its
    they them their theirs this that these those there here what which who whom whose
    when where why how can could would should will shall may might must
    s t d ll re ve m o y just also very too please""".split()  # noqa: SIM905
)
_ZH_STOP = frozenset(
    {
        "的",
        "了",
        "吗",
        "呢",
        "吧",
        "啊",
        "呀",
        "嘛",
        "是",
        "我",
        "你",
        "您",
        "他",
        "她",
        "它",
        "们",
        "我们",
        "你们",
        "他们",
        "在",
        "和",
        "与",
        "也",
        "都",
        "就",
        "对",
        "这",
        "那",
        "个",
        "么",
        "什么",
        "请",
        "把",
        "被",
        "给",
        "着",
        "过",
        "还",
        "又",
        "呃",
        "嗯",
    }
)
STOPWORDS = _EN_STOP | _ZH_STOP

_jieba: ModuleType | None = None
_jieba_lock = threading.Lock()
_forksafe.renew_lock(globals(), "_jieba_lock")


@_forksafe.in_child
def _renew_jiebas_own_locks() -> None:
    """In a forked child: new locks for jieba's own first load.

    A parent thread may have been loading the dictionary at the fork: it holds our
    ``_jieba_lock`` (renewed like every module lock), jieba's ``Tokenizer.lock`` and,
    while it writes jieba's cache file, an entry of ``jieba.DICT_WRITING``; the child's
    load takes the same locks. A loaded dictionary is kept (jieba's cut takes no lock
    once initialised).
    """
    jieba = sys.modules.get("jieba")
    if jieba is None:
        return
    tokenizer = getattr(jieba, "dt", None)
    if tokenizer is not None and hasattr(tokenizer, "lock"):
        tokenizer.lock = threading.RLock()
    writing = getattr(jieba, "DICT_WRITING", None)
    if isinstance(writing, dict):
        writing.clear()  # only loads under way are listed: none is, in the child


def _get_jieba() -> ModuleType:
    """Import and initialise jieba once per process (its dictionary load takes ~0.5 s)."""
    global _jieba
    if _jieba is not None:
        return _jieba
    with _jieba_lock:
        if _jieba is None:
            import jieba

            jieba.setLogLevel(logging.WARNING)
            jieba.initialize()
            _jieba = jieba
    return _jieba


def warm_up() -> None:
    """Load jieba's dictionary now, so the first Chinese text does not pay for it.

    jieba is otherwise loaded lazily on the first text with CJK ideographs, which costs
    1-5 s inside whichever ``observe``/``recall`` meets it. Nothing calls this by default:
    call it at start-up (or in a background thread) in processes that serve Chinese
    users. Safe to call from several threads and more than once (loads once).
    """
    _get_jieba()


def jieba_loaded() -> bool:
    """Whether this process has loaded jieba (an English-only process never does)."""
    return _jieba is not None


def s_stem(word: str) -> str:
    """Fold English plural endings so singular and plural forms meet (nothing else).

    Harman's "S" stemmer (``ies`` -> ``y`` unless after ``e``/``a``; ``es`` -> ``e`` unless
    after ``a``/``e``/``o``; ``s`` -> ``""`` unless after ``u``/``s``), plus sibilant
    plurals (``watches`` -> ``watch``, ``boxes`` -> ``box``, ``classes`` -> ``class``), ``is``
    kept (``analysis``), and the singulars they would otherwise miss folded the same way
    (``movie`` -> ``movy`` like ``movies``; ``headache`` -> ``headach`` like ``headaches``).

    Args:
        word: a lowercase word.

    Returns:
        The folded word; words of three letters or fewer, and non-ASCII words, unchanged.
    """
    if len(word) <= 3 or not word.isascii() or not word.isalpha():
        return word
    if word.endswith("ies") and not word.endswith(("eies", "aies")):
        return word[:-3] + "y"
    if word.endswith(("sses", "ches", "shes", "xes", "zzes")):
        return word[:-2]
    es_plural = word.endswith("es") and not word.endswith(("aes", "ees", "oes"))
    if es_plural or (word.endswith("s") and not word.endswith(("us", "ss", "is"))):
        word = word[:-1]
    if word.endswith("ie") and len(word) > 3:
        return word[:-2] + "y"
    if word.endswith(("che", "she")):
        return word[:-1]
    return word


@functools.lru_cache(maxsize=65536)
def _latin_word(tok: str, stem: bool) -> str:
    """Stopword -> ``""``; otherwise the (stemmed) token. Cached: words repeat a lot."""
    if tok in STOPWORDS:
        return ""
    return s_stem(tok) if stem else tok


def _latin_tokens(text: str, out: list[str], stem: bool) -> None:
    for tok in _WORD.findall(text):
        word = _latin_word(tok, stem)
        if word:
            out.append(word)


def tokenize(text: str, *, stem: bool = True) -> list[str]:
    """Split free text (English, Chinese or mixed) into normalised search tokens.

    Args:
        text: any text; query syntax characters are just separators.
        stem: fold English plurals (the stores always use the default).

    Returns:
        Tokens in text order (repeats kept, so term frequency is preserved).
    """
    if not text:
        return []
    norm = unicodedata.normalize("NFKC", text).casefold()
    out: list[str] = []
    parts = _CJK.split(norm)
    # re.split with one capture group alternates: non-CJK, CJK, non-CJK, ...
    for i, part in enumerate(parts):
        if not part:
            continue
        if i % 2 == 0:
            _latin_tokens(part, out, stem)
        else:
            for word in _get_jieba().cut_for_search(part):
                if word and word not in STOPWORDS:
                    out.append(word)
    return out


#: a query is searched on its first 1,000 characters: a question fits many times over, and
#: segmenting a pasted 32,000-character Chinese text took seconds (issue 16)
MAX_QUERY_CHARS = 1000


def tokenize_query(query: str) -> list[str]:
    """Tokens of a search query: its first :data:`MAX_QUERY_CHARS` characters, segmented once.

    The lexical store and the coverage score both need the query's tokens; the result is
    cached for the few most recent queries, so one recall segments its query once.
    """
    return list(_query_tokens(query[:MAX_QUERY_CHARS]))


@functools.lru_cache(maxsize=64)
def _query_tokens(query: str) -> tuple[str, ...]:
    return tuple(tokenize(query))


def tokenize_key(key: str) -> list[str]:
    """Tokens of a slot key (``"contact.call_time"`` -> ``["contact", "call", "time"]``)."""
    return tokenize(key)


def _padded(tokens: Sequence[str]) -> str:
    """A document as one string, each token between single spaces and tokens two spaces
    apart (``" tea  milk "``), so ``str.count(" tea ")`` counts ``tea`` exactly like
    ``list.count`` does (two matches never share a space, even for ``tea tea``)."""
    return f" {'  '.join(tokens)} " if tokens else ""


class BM25Index:
    """Okapi BM25 over a small in-memory corpus of pre-tokenized documents.

    Built for one user's records (tens to a few thousand documents): there is no inverted
    index to build, each query term is counted per document with ``str.count`` on the
    document's padded text (C speed), so building is free and a query costs
    ``O(documents x query terms)``. A document is kept as one string, not a tuple of
    tokens: strings are not tracked by the garbage collector, so loading a user's corpus
    allocates nothing that makes the next collection come sooner (a cold recall used to
    allocate ~100 token tuples, ~40 % of its tracked objects).

    The IDF is ``ln(1 + (N - n + 0.5) / (n + 0.5))`` (always positive, so a word present
    in most of a user's records still counts a little, unlike the classic form).

    Args:
        docs: one token list per document (tokens hold no whitespace, see :func:`tokenize`).
        k1: term-frequency saturation.
        b: length normalisation.
    """

    __slots__ = ("_avgdl", "_b", "_docs", "_k1", "_norms")

    def __init__(self, docs: Sequence[Sequence[str]], *, k1: float = 1.2, b: float = 0.75) -> None:
        self._init([_padded(d) for d in docs], [len(d) for d in docs], k1, b)

    @classmethod
    def _from_padded(cls, padded: list[str], lengths: list[int]) -> BM25Index:
        """An index over documents already padded (:func:`_padded`) with their token counts."""
        ix = cls.__new__(cls)
        ix._init(padded, lengths, 1.2, 0.75)
        return ix

    def _init(self, padded: list[str], lengths: list[int], k1: float, b: float) -> None:
        self._k1 = k1
        self._b = b
        self._docs = padded
        self._avgdl = (sum(lengths) / len(lengths)) if lengths else 0.0
        avgdl = self._avgdl or 1.0
        # the per-document part of the BM25 denominator, precomputed
        self._norms = [k1 * (1.0 - b + b * n / avgdl) for n in lengths]

    def __len__(self) -> int:
        return len(self._docs)

    def scores(self, query_tokens: Iterable[str]) -> dict[int, float]:
        """BM25 score of every document sharing at least one query term (higher is better).

        Args:
            query_tokens: tokens of the query (duplicates are counted once; a "term" that
                is empty or holds whitespace is no token and matches nothing).

        Returns:
            ``{doc_index: score}`` for matching documents only.
        """
        out: dict[int, float] = {}
        total = len(self._docs)
        if not total:
            return out
        k1p1, norms = self._k1 + 1.0, self._norms
        for term in dict.fromkeys(query_tokens):
            if term.split() != [term]:
                continue
            needle = f" {term} "
            tfs = [d.count(needle) for d in self._docs]
            n = total - tfs.count(0)
            if not n:
                continue
            idf = math.log(1.0 + (total - n + 0.5) / (n + 0.5))
            for i, tf in enumerate(tfs):
                if tf:
                    out[i] = out.get(i, 0.0) + idf * tf * k1p1 / (tf + norms[i])
        return out


class LexDocs:
    """One user's records in one context, tokenized, with a BM25 index per status set.

    Args:
        rows: ``(record_id, status, lex)`` triples; ``lex`` is the space-joined tokens.
    """

    __slots__ = ("_indexes", "ids", "lengths", "padded", "statuses")

    def __init__(self, rows: Iterable[tuple[str, str, str]]) -> None:
        self.ids: list[str] = []
        self.statuses: list[str] = []
        # strings, not token tuples: untracked by the gc (see BM25Index)
        self.padded: list[str] = []
        self.lengths: list[int] = []
        for rid, status, lex in rows:
            tokens = lex.split()
            self.ids.append(rid)
            self.statuses.append(status)
            self.padded.append(_padded(tokens))
            self.lengths.append(len(tokens))
        self._indexes: dict[frozenset[str], tuple[list[str], BM25Index]] = {}

    def index(self, statuses: frozenset[str]) -> tuple[list[str], BM25Index]:
        """Record ids and the BM25 index over the records whose status is in ``statuses``."""
        got = self._indexes.get(statuses)
        if got is None:
            keep = [i for i, st in enumerate(self.statuses) if st in statuses]
            index = BM25Index._from_padded(
                [self.padded[i] for i in keep], [self.lengths[i] for i in keep]
            )
            got = ([self.ids[i] for i in keep], index)
            self._indexes[statuses] = got
        return got
