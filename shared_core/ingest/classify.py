"""Embedding-prototype classifier: a would-be note onto a taxonomy key (issue 12).

The rules keep a durable first-person statement they could not read as a free-form note
(``note.<slug>``). When the memory's embedder is MiniLM-class (all-MiniLM-L6-v2 through
ONNX Runtime or sentence-transformers; never the lexical hashing embedder), this module
gives such a note a second chance: the note's words are embedded and compared with
prototype sentences per key, built from the taxonomy (display label, description, query
words) and from short exemplar sentences kept as data in
``shared_core/taxonomy_exemplars.json``. When the nearest key is close enough
(``threshold``) and clearly ahead of the runner-up (``margin``), a value extractor for the
key's type looks for the value in the same words (a lexicon term, a language name, an
amount, a known city, a topic phrase); only when it finds one is the note replaced by a
memory under that key, at :data:`CLASSIFIED_CONFIDENCE` (below a rule hit) and with
``extractor="classifier"`` (the record's provenance reads ``extractor:classifier``).
Anything less certain stays the note it was: a wrong key is worse than a note.

Prototypes are embedded once per embedder model (a process-wide cache). A turn's own
texts are embedded in one embedder call (:func:`classify_turn`), together with the texts
the caller will embed for the same turn (its memory's episode and record texts), so an
observed turn costs one model call, not one for the classifier and one for the index.

Example:
    >>> from shared_core.embed import HashingEmbedder
    >>> supports(HashingEmbedder())
    False
"""

from __future__ import annotations

import dataclasses
import json
import re
import threading
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any, Protocol

import numpy as np

from .. import _forksafe, taxonomy
from ..entities import Candidate
from . import lexicon as L
from ._rulebase import ok_topic, phrase, split_items, third_party
from ._rules_contact import quiet_pair
from ._rules_packs import (
    CHANNELS,
    CONFUSES,
    DIET_CODES,
    HOTEL_ROOM,
    PAYMENTS,
    PETS,
    TIMEZONES,
    TONE_CODES,
    _row_hits,
    date_said,
)

__all__ = [
    "CLASSIFIED_CONFIDENCE",
    "MARGIN",
    "THRESHOLD",
    "Prediction",
    "PrototypeClassifier",
    "classify_turn",
    "supports",
]

#: Where the exemplar sentences and value words live (data, next to the taxonomy).
EXEMPLARS_PATH = Path(__file__).resolve().parent.parent / "taxonomy_exemplars.json"
#: Cosine similarity the nearest key's best prototype must reach (fitted on dev/dev2/dev3).
THRESHOLD = 0.4
#: How far the nearest key must be ahead of the runner-up (fitted on dev/dev2/dev3).
MARGIN = 0.04
#: Confidence of a classified memory: above a note (0.75), below a rule hit (0.95).
CLASSIFIED_CONFIDENCE = 0.8
#: The key whose win means "a durable fact that fits no key": the note stays.
NOTE = "note"

_I = re.IGNORECASE


class _Embedder(Protocol):
    name: str

    def embed(self, texts: Sequence[str]) -> Any: ...


def supports(embedder: object) -> bool:
    """Whether ``embedder`` is MiniLM-class, the model the prototypes and thresholds were
    fitted for (the hashing embedder is lexical, not semantic: the classifier is off)."""
    return "minilm" in str(getattr(embedder, "name", "")).lower()


@dataclass(frozen=True, slots=True)
class Prediction:
    """The nearest key of a text, its cosine similarity and its lead over the runner-up."""

    key: str
    score: float
    runner_up: str
    margin: float


# --------------------------------------------------------------------------------------
# prototypes
# --------------------------------------------------------------------------------------
@cache
def _data() -> Mapping[str, Any]:
    rows: Mapping[str, Any] = json.loads(EXEMPLARS_PATH.read_text(encoding="utf-8"))["keys"]
    return rows


#: Schema keys the taxonomy knows under another (established) key.
_TAXONOMY_KEY = {"travel.seat": "seat", "food.like": "taste.", "food.dislike": "taste."}


def prototypes() -> list[tuple[str, str]]:
    """``(key, sentence)`` pairs: the taxonomy's words for each key, then its exemplars."""
    out: list[tuple[str, str]] = []
    for key, row in _data().items():
        spec = taxonomy.spec(_TAXONOMY_KEY.get(key, key))
        if spec is not None and key != NOTE:
            if spec.describe:
                out.append((key, f"{spec.label_en}: {spec.describe}"))
            else:
                out.append((key, spec.label_en))
            if spec.words_en and not spec.family:
                out.append((key, ", ".join(spec.words_en)))
        out.extend((key, text) for text in row.get("exemplars", ()))
    return out


_CACHE: dict[str, tuple[list[str], np.ndarray]] = {}
_CACHE_LOCK = threading.Lock()
_forksafe.renew_lock(globals(), "_CACHE_LOCK")  # the matrices are kept (plain arrays)


def _matrix(embedder: _Embedder) -> tuple[list[str], np.ndarray]:
    name = str(embedder.name)
    with _CACHE_LOCK:
        hit = _CACHE.get(name)
    if hit is not None:
        return hit
    pairs = prototypes()
    vectors = np.asarray(embedder.embed([t for _, t in pairs]), dtype=np.float32)
    built = ([k for k, _ in pairs], vectors)
    with _CACHE_LOCK:
        _CACHE.setdefault(name, built)
    return built


# --------------------------------------------------------------------------------------
# value extraction, by key type
# --------------------------------------------------------------------------------------
def _values_table(key: str) -> Mapping[str, str]:
    """surface -> code for an enum key: the lexicon's table, then the data file's words."""
    table: dict[str, str] = {}
    lexicon = {
        "contact.channel": CHANNELS,
        "payment.method": PAYMENTS,
        "payment.avoid": PAYMENTS,
        "pet.species": PETS,
        "hotel.room": HOTEL_ROOM,
        "diet": DIET_CODES,
        "response.tone": TONE_CODES,
        "diet.avoid": L.FOODS,
        "allergy.food": L.FOODS,
        "allergy.medication": L.MEDICATIONS,
        "medication": L.MEDICATIONS,
        "allergy.other": L.OTHER_ALLERGENS,
        "health.condition": L.CONDITIONS,
        "industry": L.INDUSTRIES,
    }.get(key, {})
    table.update({s: c for s, c in lexicon.items() if s.isascii() and len(s) > 2})
    row = _data().get(key, {})
    for code, words in row.get("values", {}).items():
        table.update({w.lower(): code for w in words})
    for item in row.get("items", ()):
        table.setdefault(item.lower(), item.lower())
    return table


def _squash(surface: str) -> str:
    """Lowercase, with hyphens and runs of spaces as one space ("Non-Smoking" -> "non smoking")."""
    return re.sub(r"[\s-]+", " ", surface.strip().lower())


@cache
def _table_rx(key: str) -> tuple[re.Pattern[str], Mapping[str, str]] | None:
    table = _values_table(key)
    if not table:
        return None
    table = {_squash(surface): code for surface, code in table.items()}
    words = sorted(table, key=len, reverse=True)
    alt = "|".join(re.escape(w).replace(r"\ ", r"[\s-]+") for w in words)
    return re.compile(rf"(?<![\w-])(?:{alt})(?![\w-])", _I), table


def _found(key: str, text: str) -> list[tuple[str, str]]:
    """(as said, code) for each of the key's value words in ``text``, in order."""
    compiled = _table_rx(key)
    if compiled is None:
        return []
    rx, table = compiled
    out: list[tuple[str, str]] = []
    for m in rx.finditer(text):
        said = m.group(0)
        code = table.get(_squash(said))
        if code is not None and all(code != c for _, c in out):
            out.append((said, code))
    return out


_LANG_RX = re.compile(
    r"\b(?:"
    + "|".join(sorted((n for n in taxonomy.LANGUAGE_CODES if n.isascii()), key=len, reverse=True))
    + r")\b",
    _I,
)
_NEGATION = re.compile(
    r"\b(?:no|not|never|don't|dont|do\s+not|can't|cannot|stop|without|hate|drop|skip|quit|less|fewer)\b",
    _I,
)
_CALL = re.compile(r"\b(?:call|calls|calling|called|phone|phones|ring|ringing)\b", _I)
#: Calls said to be an ordeal: "voice calls make me anxious so keep it to writing", "phone
#: conversations are a nightmare, so nobody should be calling me".
_CALL_AVERSE = re.compile(
    r"\b(?:nobody|no\s+one|anxious|anxiety|nightmare|dread\w*|stress(?:es|ful)?"
    r"|keep\s+it\s+to\s+(?:writing|text))\b",
    _I,
)
_EMOJI = re.compile(r"\bemojis?\b|\bemoticons?\b|\bsmileys?\b", _I)
_NUMBER = re.compile(
    r"(?:[$€£¥]\s*)?\b(?P<n>\d[\d,]*(?:\.\d+)?)\s*(?P<k>k\b|grand\b)?(?:\s*(?:dollars?|bucks|euros?"
    r"|pounds?|quid|usd|eur|gbp|yuan|rmb|cny|yen)\b)?",
    _I,
)
_LOWER_BOUND = re.compile(
    r"\b(?:at\s+least|minimum|min|no\s+less\s+than|upwards|or\s+more|starting\s+(?:at|from))\b", _I
)
_MOVING = re.compile(r"\b(?:mov(?:e|es|ed|ing)|relocat\w*)\b", _I)
_DISLIKE = re.compile(
    r"\b(?:hate|hates|dislike|can't\s+stand|cannot\s+stand|gross|disgusting|awful|yuck|nasty"
    r"|gag|not\s+a\s+fan)\b",
    _I,
)
_JOB_RX = re.compile(
    r"\b(?:(?P<mod>[a-z]+)\s+)?(?P<head>"
    + "|".join(sorted(L.JOB_HEADS, key=len, reverse=True))
    + r")s?\b",
    _I,
)
_NOT_MODIFIER = frozenset(
    (
        "a",
        "an",
        "the",
        "my",
        "as",
        "i",
        "i'm",
        "am",
        "be",
        "being",
        "work",
        "works",
        "working",
        "for",
        "of",
        "at",
        "in",
        "is",
        "was",
        "and",
        "or",
        "our",
        "his",
        "her",
        "their",
        "your",
        "this",
        "that",
        "full",
        "part",
        "time",
        "retired",
        "former",
        "ex",
        "aspiring",
        "future",
    )
)
#: Airlines, hotel chains and loyalty programmes named in a clause the classifier put
#: under their key; lowercase as people type them ("keep me off spirit airlines").
_AIRLINE_RX = re.compile(
    r"(?<![\w-])(?P<v>(?:"
    + L.AIRLINES_EN
    + r")(?P<suffix>\s+(?:airlines?|airways|air))?)(?![\w-])",
    _I,
)
#: Airline names that are also common words: lowercase, they need "airlines" after them
#: ("united we stand", "american food", "swiss cheese" name no airline).
_AIRLINE_WORDS = frozenset(
    (
        *("united", "american", "swiss", "spirit", "frontier", "norwegian", "delta"),
        *("alaska", "virgin", "turkish", "hawaiian", "ethiopian", "ana", "jal", "eva", "tap"),
        *("sas", "indigo", "latam", "qatar", "emirates", "iberia", "avianca"),
    )
)
_HOTEL_RX = re.compile(
    r"(?<![\w-])(?P<v>marriott|hilton|hyatt|ihg|accor|sheraton|westin|four\s+seasons"
    r"|holiday\s+inn(?:\s+express)?|novotel|ibis|radisson|wyndham|best\s+western|premier\s+inn"
    r"|travelodge|mercure|ritz[\s-]+carlton|intercontinental|crowne\s+plaza|hampton\s+inn"
    r"|courtyard|doubletree|motel\s+6|la\s+quinta|sofitel|kempinski|shangri-?la)s?(?![\w-])",
    _I,
)
_LOYALTY_RX = re.compile(
    r"(?<![\w-])(?P<v>(?:(?:delta|united|american|british\s+airways|air\s+france|klm|lufthansa"
    r"|singapore|cathay|emirates|qantas|hilton|marriott|ihg)\s+)?(?:miles\s*(?:&|and|\+)\s*more"
    r"|hilton\s+honou?rs|marriott\s+bonvoy|bonvoy|skymiles|aadvantage|mileageplus|avios"
    r"|executive\s+club|krisflyer|flying\s+blue|ihg\s+one\s+rewards|world\s+of\s+hyatt"
    r"|asia\s+miles|qantas\s+frequent\s+flyer|skywards|velocity|aeroplan))(?![\w-])",
    _I,
)


_CHILD_COUNT = re.compile(
    r"\b(?P<n>\d|one|two|three|four|five|six|a|an|only)\s+(?:(?:little|young|grown(?:-up)?|teenage"
    r"|adult|baby|small)\s+)?(?P<c>kids?|children|child|sons?|daughters?|boys?|girls?|twins)\b",
    _I,
)
_COUNT_WORDS = {"a": 1, "an": 1, "only": 1, "one": 1, "two": 2, "three": 3, "four": 4}
_COUNT_WORDS |= {"five": 5, "six": 6}
#: An employer named after "at", "for" or "joined": "I've been at Siemens since 2019".
_EMPLOYER = re.compile(
    r"\b(?:at|for|joined)\s+(?P<v>(?-i:[A-Z])[\w&.'-]*(?:\s+(?-i:[A-Z])[\w&.'-]*){0,2})", _I
)
_NOT_EMPLOYER = frozenset(("I", "I'm", "Christmas", "Easter", "Monday", "Friday", "Home"))


_PRONOUNS = re.compile(
    r"(?<![\w/])(?P<v>(?:she|he|they|xe|ze|it)\s*/\s*(?:her|hers|him|his|them|theirs|they|she|he"
    r"|xem|zir|its)(?:\s*/\s*(?:her|hers|him|his|them|theirs))?)(?![\w/])",
    _I,
)
_NUMBER_WORD = (
    r"(?:twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety)(?:[\s-](?:one|two|three|four"
    r"|five|six|seven|eight|nine))?|eighteen|nineteen|sixteen|seventeen"
)
#: "I'm 34", "just turned forty-two", "34 years old": an age, not "I'm 5 minutes away".
_AGE = re.compile(
    r"\b(?:i'?m|i\s+am|im|aged?|turned|just\s+turned)\s+(?:only\s+|almost\s+|nearly\s+)?"
    r"(?P<n>\d{1,3}|" + _NUMBER_WORD + r")\b(?!\s*(?:%|[:.,]\d|percent|kg|kilos?|lbs?|pounds"
    r"|stone|feet|foot|ft|cm|inches|in\b|minutes?|mins?|hours?|hrs?|days?|weeks?|months?|times"
    r"|x\b|am\b|pm\b|th\b|st\b|nd\b|rd\b|k\b|miles?|km|steps|of\b|out\s+of|people|kids|children"
    r"|euros?|dollars?|bucks|quid|grand|hundred|thousand|million|degrees))"
    r"|\b(?P<n2>\d{1,3}|" + _NUMBER_WORD + r")\s*(?:years?[\s-]+old|yrs?[\s-]+old|y/?o)\b"
    # "on this planet for 47 years", "29 to be exact"
    r"|\b(?:on\s+this\s+(?:planet|earth)|alive|around)\s+for\s+(?P<n3>\d{1,3}|"
    + _NUMBER_WORD
    + r")"
    r"\s+years\b|\b(?P<n4>\d{1,3})\s*,?\s+to\s+be\s+(?:exact|precise)\b",
    _I,
)
_TZ_NAMES = "|".join(
    re.escape(n).replace(r"\ ", r"\s+")
    for n in sorted((n for n in TIMEZONES if n.isascii() and len(n) > 1), key=len, reverse=True)
)
#: "on London time", "Pacific time", "my time zone is CET": a zone the taxonomy knows.
_TZ = re.compile(
    r"(?<![\w/-])(?P<z>" + _TZ_NAMES + r")\s+(?:standard\s+)?(?:time|timezone|time\s+zone|hours)\b"
    r"|\btime\s*zone\b\W*(?:is\s+|=\s*)?(?P<z2>" + _TZ_NAMES + r")(?![\w/-])",
    _I,
)


def _age(text: str) -> list[tuple[str, str]]:
    ages = {
        L.parse_number(
            (m.group("n") or m.group("n2") or m.group("n3") or m.group("n4")).replace("-", " ")
        )
        for m in _AGE.finditer(text)
    }
    age = ages.pop() if len(ages) == 1 else None
    return [(str(age), str(age))] if age is not None and 5 <= age <= 110 else []


def _timezone(text: str) -> list[tuple[str, str]]:
    zones = {
        TIMEZONES[" ".join((m.group("z") or m.group("z2")).lower().split())]
        for m in _TZ.finditer(text)
    }
    if not zones:  # "my clock says the same as Tokyo's", "CET for me": the place or zone alone
        zones = {
            TIMEZONES[m.group(0).lower()]
            for m in _ZONE_WORD.finditer(text)
            if m.group(0).lower() in TIMEZONES
            # a place names a zone only in words about the time ("I live near Singapore": no)
            and (m.group(0).isupper() or _TIME_WORD.search(text))
        }
    return [(z, z.lower()) for z in zones] if len(zones) == 1 else []


_TIME_WORD = re.compile(r"\b(?:time|clock|hours?|noon|midnight|o'clock|zone)\b", _I)
#: A place or zone abbreviation as written: capitalized ("Sydney") or upper case ("CET").
_ZONE_WORD = re.compile(r"(?-i:\b[A-Z][a-z]+(?:\s+[A-Z][a-z]+)?\b|\b[A-Z]{3,4}\b)")


def _children(text: str) -> list[tuple[str, str]]:
    """How many children a clause counts ("a son and two daughters": 3), or none."""
    total = 0
    for m in _CHILD_COUNT.finditer(text):
        word = m.group("n").lower()
        n = int(word) if word.isdigit() else _COUNT_WORDS.get(word, 0)
        total += 2 * n if m.group("c").lower() == "twins" else n
    if not total and re.search(r"\btwins\b", text, _I):
        total = 2  # "I have twins"
    return [(str(total), str(total))] if 0 < total < 20 else []


def _employer(text: str) -> list[tuple[str, str]]:
    names = []
    for m in _EMPLOYER.finditer(text):
        said = m.group("v")
        low = said.lower()
        if (
            said in _NOT_EMPLOYER
            or low in L.CITIES
            or low in L.COUNTRIES
            or _JOB_RX.fullmatch(said)
        ):
            continue
        names.append(said)
    return [(names[0], names[0].lower())] if len(set(names)) == 1 else []


def _airlines(text: str) -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    for m in _AIRLINE_RX.finditer(text):
        said = " ".join(m.group("v").split())
        if said.islower() and not m.group("suffix") and said in _AIRLINE_WORDS:
            continue
        if all(said.lower() != n for _, n in out):
            out.append((said, said.lower()))
    return out


def _named(rx: re.Pattern[str], text: str) -> list[tuple[str, str]]:
    names = list(dict.fromkeys(" ".join(m.group("v").split()) for m in rx.finditer(text)))
    return [(n, n.lower()) for n in names]


_PLACE_WORD = re.compile(r"\b[A-Z][a-z]+(?:\s+[A-Z][a-z]+)?\b")
#: Topic phrase: the subject of "<topic> is/are/has been/tastes/makes ..." or the object
#: of "into/for/about <topic>" / "suggest(ing)/recommend(ing)/push(ing) <topic>".
_FILLER = (
    r"^\W*(?:(?:honestly|ugh|oh|so|and|but|well|also|tbh|fyi|btw|yeah|ok|okay|like|anyway)\W+)*"
)
_SUBJECT_TOPIC = re.compile(
    _FILLER + r"(?P<t>[a-z][\w'-]*(?:\s+\w[\w'-]*){0,2}?)\s+"
    r"(?:is|are|was|were|has\s+been|have\s+been|tastes?|makes?|gives?|could|can|will|just"
    r"|does|do)\b",
    _I,
)
_OBJECT_TOPIC = re.compile(
    r"\b(?:into|about|(?:is|are)\s+(?:all\s+)?for|(?:no|zero|little)\s+(?:patience|time|interest|use)\s+(?:for|in)"
    r"|(?:recommend|suggest|push|pitch|show|offer|mention)(?:ing|s)?(?:\s+me)?"
    r"(?:\s+any)?(?:\s+more)?)\s+(?P<t>[a-z][\w'-]*(?:\s+[a-z][\w'-]*){0,2})",
    _I,
)
#: The object of a liking: "I adore Thai food", "big fan of chess", "I play chess and go".
_LIKED_TOPIC = re.compile(
    r"\b(?:love|loves|loving|adore|adores|enjoy|enjoys|(?:a\s+)?(?:big|huge|massive|real)\s+fan\s+of"
    r"|obsessed\s+with|crazy\s+about|passionate\s+about|hooked\s+on|could\s+eat"
    r"|(?<=i\s)(?:play|paint|collect|knit|bake|sew|draw|like)|(?<=really\s)like)\s+"
    r"(?P<t>[a-z][\w'-]*(?:(?:\s*,\s*(?:and\s+)?|\s+(?:and\s+|&\s+)?)\w[\w'-]*){0,6})",
    _I,
)
#: Where a liked thing ends: "chess most evenings", "sushi every day", "guitar in my free time".
_LIKED_END = re.compile(
    r"\s+(?:every|each|in|on|at|most|a\s+lot|lots|online|for|with|when|whenever|all|since"
    r"|daily|weekly|honestly|lol|tbh|too|as|so|but|because|then|any|more|than|like|whenever"
    r"|these|this|that|now|again|especially|mostly|though|tho|here|there|really)\b.*$",
    _I,
)
#: "no horror films please", "no more crypto tips, thanks": the topic refused up front.
_REFUSED_TOPIC = re.compile(
    r"^\W*(?:please\s+)?no\s+(?:more\s+)?(?P<t>[a-z][\w'-]*(?:\s+[a-z][\w'-]*){0,2}?)"
    r"\s*(?:[,.;!]|\b(?:please|pls|thanks|thank\s+you|ever|for\s+me)\b|$)"
    # "leave weight loss plans out of your suggestions", "keep politics out of it"
    r"|^\W*(?:please\s+)?(?:leave|keep)\s+(?P<t2>[a-z][\w'-]*(?:\s+[a-z][\w'-]*){0,2}?)\s+out\b",
    _I,
)
_NOT_TOPIC = frozenset(
    (
        "i",
        "i'm",
        "me",
        "my",
        "you",
        "your",
        "it",
        "this",
        "that",
        "these",
        "those",
        "there",
        "they",
        "we",
        "he",
        "she",
        "what",
        "which",
        "who",
        "everything",
        "anything",
        "something",
        "nothing",
        "stuff",
        "things",
        "thing",
        "one",
        "ones",
        "weekends",
        "weekdays",
        "evenings",
        "mornings",
        "nights",
        "days",
        "summers",
        "winters",
        "holidays",
        "sundays",
        "saturdays",
    )
)


def _liked(text: str) -> list[str]:
    """The things a clause says the user likes ("hiking and birdwatching": two), or none."""
    m = _LIKED_TOPIC.search(text)
    if m is None:
        return []
    items = [phrase(i, 3) for i in split_items(_LIKED_END.sub("", m.group("t")))]
    kept: list[str] = []
    for item in items:  # "chess, I play it daily": the list ends where the clause goes on
        if not item or item.split()[0].lower() in _NOT_TOPIC or not ok_topic(item):
            break
        kept.append(item)
    return kept


def _topic(text: str, refused: bool = False) -> str:
    for rx in (_REFUSED_TOPIC, _OBJECT_TOPIC, _SUBJECT_TOPIC)[0 if refused else 1 :]:
        # the subject of any clause: "I spend hours in the allotment, gardening is my therapy"
        parts = _CLAUSE.findall(text) if rx is _SUBJECT_TOPIC else [text]
        for part in parts:
            m = rx.search(part)
            topic = _ok_topic(m.group("t") or m.groupdict().get("t2") or "") if m else ""
            if topic:
                return topic
    m = _FRONTED_TOPIC.search(text)
    return _ok_topic(m.group("t")) if m is not None else ""


#: A clause that is an activity alone: "hiking", "street photography mostly".
_BARE_ACTIVITY = re.compile(
    r"^\W*(?:(?P<g>(?:[a-z]+\s+)?[a-z]{3,}ing)|(?P<t>[a-z]+(?:\s+[a-z]+)?)(?=\s+(?:mostly|mainly)))"
    r"(?:\s+(?:mostly|mainly))?\W*$",
    _I,
)


def _bare_activity(clause: str) -> str:
    m = _BARE_ACTIVITY.match(clause)
    return _ok_topic(m.group("g") or m.group("t")) if m else ""


def _ok_topic(said: str) -> str:
    topic = phrase(said, 3)
    first = topic.split()[0].lower() if topic else ""
    return topic if topic and first not in _NOT_TOPIC and ok_topic(topic) else ""


#: A topic said first and pointed back to: "crypto stuff, keep it away from me", "horror
#: films, not for me", "mushrooms, the texture alone makes me gag".
_FRONTED_TOPIC = re.compile(
    r"^\W*(?P<t>[a-z][\w'-]*(?:\s+\w[\w'-]*){0,2}?)(?:\s+stuff)?\s*,\s*(?=.*\b(?:it|them|those"
    r"|any|that|the\s+(?:texture|taste|smell)|not\s+for\s+me|no\s+thanks)\b)",
    _I,
)


#: Keys whose value a negation does not flip (the key itself is the negative, or the
#: value reader handles the negation).
_NEGATIVE_KEYS = frozenset(
    {
        "contact.call",
        "response.emoji",
        "payment.avoid",
        "recommend.never",
        "diet.avoid",
        "food.dislike",
        "intolerance",
        "allergy.food",
        "allergy.medication",
        "allergy.other",
        "travel.airline.avoid",
        # "1200 dollars, not a cent more", "no more than 80": the bound is the key
        "budget.max",
        "budget.min",
    }
)


#: Keys that say no to something: read only from a sentence that refuses (a stored
#: ``recommend.never`` is a hard rule in every context block).
_REFUSING_KEYS = frozenset(
    {"payment.avoid", "recommend.never", "diet.avoid", "travel.airline.avoid", "contact.call"}
)
#: A health word said as a feeling: "I feel a sense of anxiety", "feeling a bit anxious".
_FEELING = re.compile(r"\b(?:feel|feels|feeling|felt)\b", _I)


#: Keys the classifier may store only when the sentence says what kind of fact it is: a
#: health record or a tone from a sentence that merely sits near their prototypes (a
#: sea-bass recipe is no fish allergy, "it makes me feel warm" no wish for a warm tone).
_KEY_CUES = {
    "allergy.": re.compile(
        r"al+er+g|anaphyla|epi-?pen|hives|rash|swell|react|break(?:s)? out|itch|hay ?fever|sneez"
        r"|can'?t (?:have|take|eat|touch)|makes? me (?:sick|ill)|antihistamine|benadryl"
        r"|epinephrine|throat|puff|bad reaction|keep (?:it|them) away"
        # the reaction told by where it put the user or what it does to the body:
        # "put me in hospital", "(?-i:ER) twice", "flagged on my chart", "eyes stream"
        r"|hospital|(?-i:\bER\b)|\ba&e\b|emergency room|flagged|chart|blister|wheez"
        r"|eyes? (?:stream|water|run)|chest (?:go(?:es)? )?tight|sting",
        _I,
    ),
    "intolerance": re.compile(
        r"intoleran|lactose|gluten|digest|bloat|upset|sensitiv|gut|stomach"
        r"|can'?t (?:have|take|eat|do)",
        _I,
    ),
    "response.tone": re.compile(
        r"\b(?:tone|talk|speak|reply|replies|respond|answer|write|writing|message|messages"
        r"|formal|casual|chat|address|with me|sugar-?coat\w*)\b"
        r"|^\s*(?:please\s+)?(?:just\s+)?(?:be|keep it|stay|don'?t be|no need to be|treat me)\b",
        _I,
    ),
}


def values(key: str, text: str) -> list[tuple[str, str]]:
    """``(as said, normalized)`` values of ``key`` found in ``text``; ``[]`` when none is
    certain (then the note stays a note): a negated clause ("I don't understand feet and
    inches") names no value of a positive key, "I'm from X" is no place of residence, and
    a health or tone key needs its cue word (:data:`_KEY_CUES`)."""
    cue = next((rx for prefix, rx in _KEY_CUES.items() if key.startswith(prefix)), None)
    if cue is not None and not cue.search(text):
        return []
    averse = key == "contact.call" and _CALL_AVERSE.search(text)
    if key in _REFUSING_KEYS and not (_NEGATION.search(text) or _REFUSE.search(text) or averse):
        return []  # "Movies can take me into different worlds" refuses nothing
    if key.startswith("health.") and _FEELING.search(text):
        return []  # "I feel a sense of anxiety": a feeling of the moment, no condition
    negated = _NEGATION.search(_without_values(key, text)) and not _PRAISE.search(text)
    if key not in _NEGATIVE_KEYS and negated:
        if key in ("interest", "food.like"):
            # "Formula 1 is my religion, I never miss a race": the clauses that say no
            # "no" still name what is liked; the negated ones are left out
            kept = [c for c in _CLAUSE.findall(text) if c.strip() and not _NEGATION.search(c)]
            return values(key, ", ".join(kept)) if kept else []
        # "just text me, I never check email": a value its own clause affirms, or none
        return _affirmed(key, text) if _table_rx(key) is not None else []
    if key in ("language", "language.spoken"):
        names = list(dict.fromkeys(m.group(0) for m in _LANG_RX.finditer(text)))
        if key == "language" and len(names) != 1:
            return []
        return [(n, taxonomy.language_code(n)) for n in names]
    if key == "contact.quiet_hours":  # "after nine ... nothing before seven in the morning"
        pair = quiet_pair(text)
        return [(pair, pair)] if pair else []
    if key == "contact.call":
        refused = _NEGATION.search(text) or _CALL_AVERSE.search(text)
        return [("never", "never")] if _CALL.search(text) and refused else []
    if key == "response.emoji":
        if not _EMOJI.search(text):
            return []
        value = "false" if _NEGATION.search(text) else "true"
        return [(value, value)]
    if key in ("budget.max", "budget.min"):
        amounts = list(_NUMBER.finditer(text))
        if len(amounts) != 1 or (key == "budget.min") != bool(_LOWER_BOUND.search(text)):
            return []
        m = amounts[0]
        number = L.parse_number(m.group("n").replace(",", "") + ("k" if m.group("k") else ""))
        return [(m.group(0).strip(), str(number))] if number else []
    if key == "currency":
        codes = {taxonomy.currency_of(w) for w in re.findall(r"[$€£¥]|[A-Za-z]+", text)} - {""}
        whole = taxonomy.currency_of(text)
        if whole and whole not in codes:
            return [(whole, whole)]  # "Canadian dollars": the name, not its last word
        return [(c, c) for c in codes] if len(codes) == 1 else []
    if key in ("location.city", "location.country") and _MOVING.search(text):
        return []  # a move is read by the rules (from, to, when), not guessed here
    if key in ("location.city", "location.moving_to", "location.country"):
        vocab = L.COUNTRIES if key == "location.country" else L.CITIES
        places = [
            (m.group(0), vocab[m.group(0).lower()])
            for m in _PLACE_WORD.finditer(text)
            if m.group(0).lower() in vocab
            and len(m.group(0)) > 2
            and not re.search(r"\bfrom\s+$", text[: m.start()], _I)
        ]
        return places[:1] if len({p for _, p in places}) == 1 else []
    if key == "job.title":
        job = _JOB_RX.search(text)
        if job is None:
            return []
        mod = job.group("mod")
        title = job.group("head").lower()
        if mod and mod.lower() not in _NOT_MODIFIER:
            title = f"{mod.lower()} {title}"
        return [(title, title)]
    if key in ("travel.airline", "travel.airline.avoid"):
        if _LOYALTY_RX.search(text) or re.search(r"\bfrequent\s+fl(?:y|i)ers?\b", text, _I):
            return []  # "my Qantas frequent flyer card" names a programme, no preference
        airlines = _airlines(text)
        return airlines if key == "travel.airline.avoid" or len(airlines) == 1 else []
    if key == "family.children":
        return _children(text)
    if key == "pronouns":
        said = list(
            dict.fromkeys("".join(m.group("v").lower().split()) for m in _PRONOUNS.finditer(text))
        )
        return [(said[0], said[0])] if len(said) == 1 else []
    if key == "age":
        return _age(text)
    if key == "birthday":  # "I came into the world on 22 July 1985", "Halloween is my birthday"
        day = date_said(text)
        return [(day, day)] if day else []
    if key == "timezone":
        return _timezone(text)
    if key == "job.employer":
        return _employer(text)
    if key == "hotel.chain":
        chains = _named(_HOTEL_RX, text)
        return chains if len(chains) == 1 else []
    if key == "travel.loyalty":
        return _named(_LOYALTY_RX, text)
    if key in ("food.like", "food.dislike", "interest", "recommend.never"):
        found = _found("allergy.food", text) if key.startswith("food.") else []
        topic = found[0][0] if found else _topic(text, refused=key == "recommend.never")
        if not topic and key in ("food.like", "interest"):
            liked = _liked(text)
            if key == "food.like":  # the foods named first: "spicy food, the hotter the better"
                liked = liked[
                    : next((n for n, t in enumerate(liked) if not taxonomy.is_food(t)), None)
                ]
            if not liked and key == "interest":  # "..., hiking", "street photography mostly"
                liked = [a for c in _CLAUSE.findall(text) if (a := _bare_activity(c))][:1]
            if liked:
                return [(t, t.lower()) for t in liked]
        if not topic or (key.startswith("food.") and not taxonomy.is_food(topic)):
            return []
        return [(topic, topic.lower())]
    found = _found(key, text)
    if key == "contact.channel" and len(found) > 1 and _on_the_device(text):
        # "my phone is basically a WhatsApp machine": the device the app runs on
        found = [f for f in found if f[1] != "phone"]
    if key == "relationship.status" and len(found) > 1:
        # "since my wife passed", "my ex-husband and I divorced": the spouse named is lost
        found = [f for f in found if f[1] in ("widowed", "divorced")] or found
    if len(found) > 1 and not _list_key(key):
        # "the 24-hour clock drives me nuts, use am and pm": the one found hard is not it
        down = _turned_down(key, text)
        found = [f for f in found if f[1] not in down] if down else found
    if len(found) > 1 and not _list_key(key):
        return []  # "phone ... Signal": two values of a one-value key, no guess
    return found


#: "my phone", "on the phone" as the device an app runs on.
_DEVICE = re.compile(r"\b(?:my|the|on\s+my)\s+phone\b", _I)


def _on_the_device(text: str) -> bool:
    """Whether "my phone" and another channel share a clause ("my phone is basically a
    WhatsApp machine"); in clauses of their own they are two answers ("my phone is on
    silent, so Signal it is")."""
    for clause in _CLAUSE.findall(text):
        for part in _BUT.split(clause):
            if _DEVICE.search(part) and any(
                c != "phone" for _, c in _found("contact.channel", part)
            ):
                return True
    return False


_CLAUSE = re.compile(r"[^,;.!?()]+")
_BUT = re.compile(r"\b(?:but|though|although|whereas|while|so)\b", _I)
_CONTRAST = re.compile(r"\b(?:rather\s+than|instead\s+of|over|than)\b", _I)


def _affirmed(key: str, text: str) -> list[tuple[str, str]]:
    """Values of an enum key in a sentence that also negates: those whose own clause says
    no "no", "never" or "not" around them and no "rather than" / "instead of" before
    them, when a single value (or a list key's values) remain."""
    compiled = _table_rx(key)
    if compiled is None:
        return []
    rx, table = compiled
    out: list[tuple[str, str]] = []
    for clause in _CLAUSE.finditer(text):
        for part in _BUT.split(clause.group(0)):
            if third_party(part):  # the rules' test (one home): what it names is not the user's
                continue
            for m in rx.finditer(part):
                before, after = rx.sub(" ", part[: m.start()]), rx.sub(" ", part[m.end() :])
                if _NEGATION.search(before) or _CONTRAST.search(before) or _NEGATION.search(after):
                    continue
                code = table.get(_squash(m.group(0)))
                if code is not None and all(code != c for _, c in out):
                    out.append((m.group(0), code))
    return out if len(out) == 1 or (out and _list_key(key)) else []


def _turned_down(key: str, text: str) -> set[str]:
    """Codes of ``key`` named in ``text`` and then found hard, as the rules read them
    (:data:`~shared_core.ingest._rules_packs.CONFUSES`: "am and pm confuse me")."""
    compiled = _table_rx(key)
    if compiled is None:
        return set()
    rx, table = compiled
    return {
        table.get(_squash(m.group(0)), "")
        for m in rx.finditer(text)
        if CONFUSES.match(text, m.end())
    }


def _without_values(key: str, text: str) -> str:
    """``text`` without the key's value words, so that a value worded as a negation ("no
    mouse", "no essays") does not read as the clause's negation."""
    compiled = _table_rx(key)
    return text if compiled is None else compiled[0].sub(" ", text)


def _list_key(key: str) -> bool:
    spec = taxonomy.spec(_TAXONOMY_KEY.get(key, key))
    return spec is not None and spec.value_type == "list"


# --------------------------------------------------------------------------------------
# the classifier
# --------------------------------------------------------------------------------------
#: Schema key -> the key the rule rows store it under (``_row_hits`` builds the slot).
_ROW_KEY = {
    "travel.seat": "seat",
    "food.like": "taste.like",
    "food.dislike": "taste.dislike",
    "interest": "taste.like",
    "recommend.never": "recommend",
}


def _polarity(key: str, text: str) -> str:
    """Embeddings barely tell "I pay with X" from "I never pay with X": of a pair of keys
    that differ by polarity, the clause's own negation picks one."""
    if key.startswith("travel.airline") and _LOYALTY_RX.search(text):
        return "travel.loyalty"  # "my Qantas Frequent Flyer card": a programme
    if key == "travel.airline" and _PRAISE.search(text):
        return key  # "Lufthansa has never let me down": praise, no refusal
    if key == "travel.airline" and (_NEGATION.search(text) or _REFUSE.search(text)):
        return "travel.airline.avoid"
    if key == "travel.airline.avoid" and _PRAISE.search(text):
        return "travel.airline"
    if key == "travel.airline.avoid" and not (_NEGATION.search(text) or _REFUSE.search(text)):
        # no refusal said: a preference ("Emirates is my favourite"), or nothing certain
        return "travel.airline" if _PREFER.search(text) else NOTE
    if _RECOMMEND.search(text) and _NEGATION.search(text) and key in _RECOMMENDABLE:
        return "recommend.never"  # "never suggest fast food": the advice refused, no taste
    if key == "language" and _SPOKEN.search(text) and not _REPLY.search(text):
        return "language.spoken"  # "I'm learning Korean": a language spoken, not the replies'
    if key == "location.moving_to" and _MOVED.search(text):
        return NOTE  # "I moved to Amsterdam in 2021": a past move, the rules' to read
    if key in ("payment.method", "payment.avoid"):
        refused = _NEGATION.search(text) or _REFUSE.search(text)
        return "payment.avoid" if refused else "payment.method"
    if key in ("food.like", "food.dislike"):
        return "food.dislike" if _DISLIKE.search(text) or _NEGATION.search(text) else "food.like"
    return key


_RECOMMEND = re.compile(
    r"\b(?:recommend\w*|suggest\w*|advertis\w*|offer(?:s|ing)?|push(?:es|ing)?|pitch\w*"
    r"|promot\w*|bring\s+up)\b",
    _I,
)
#: Keys a refused recommendation is mistaken for: what is refused is the advice.
_RECOMMENDABLE = frozenset(
    ("payment.method", "payment.avoid", "food.like", "food.dislike", "diet.avoid", "interest")
)
_SPOKEN = re.compile(
    r"\b(?:learn\w*|speak\w*|spoke|fluent\w*|native|mother\s+tongue|first\s+language"
    r"|bilingual|grew\s+up\s+(?:speaking|with))\b",
    _I,
)
_REPLY = re.compile(
    r"\b(?:repl\w*|answer\w*|respon\w*|write|writing|talk\s+to\s+me|chat\s+with\s+me"
    r"|messages?|in\s+\w+\s+(?:please|pls))\b",
    _I,
)
_MOVED = re.compile(r"\b(?:moved|relocated)\b", _I)
_REFUSE = re.compile(
    r"\b(?:refuse\w*|avoid\w*|won't|wont|will\s+not|keep\s+me\s+(?:off|away)|steer\s+clear"
    r"|boycott\w*|done\s+with|over\s+with|terrible|awful|worst|banned"
    # "Ryanair is dead to me", "a hard pass", "I'd rather take the bus than ..."
    r"|dead\s+to\s+me|(?:a\s+)?hard\s+pass|rather\s+(?:\w+\s+){1,4}than|never\s+again"
    r"|(?:leave|keep)\s+(?:\w+\s+){1,4}out\s+of)\b",
    _I,
)
#: Praise said with a negation: "Lufthansa has never let me down", "can't fault them".
_PRAISE = re.compile(
    r"\b(?:never|not\s+once)\s+(?:\w+\s+)?(?:let\s+me\s+down|disappointed\s+me)\b"
    r"|\bcan'?t\s+fault\b|\bno\s+complaints\b",
    _I,
)
_PREFER = re.compile(
    r"\b(?:prefer\w*|love|like|favou?rite|go-to|always\s+fly|usually\s+fly|best|loyal)\b", _I
)


class PrototypeClassifier:
    """Nearest-prototype classification of a clause onto a taxonomy key.

    Args:
        embedder: a MiniLM-class embedder (see :func:`supports`).
        threshold: cosine similarity the best prototype must reach.
        margin: lead the best key needs over the runner-up key.
    """

    def __init__(
        self, embedder: _Embedder, *, threshold: float = THRESHOLD, margin: float = MARGIN
    ) -> None:
        self.embedder = embedder
        self.threshold = threshold
        self.margin = margin
        self._ahead: dict[str, np.ndarray] = {}

    def embed_ahead(self, texts: Sequence[str], also: Sequence[str] = ()) -> None:
        """Embed ``texts`` (what :meth:`predict` is about to be asked) in one embedder
        call, with ``also`` (texts the caller embeds later, which a caching embedder then
        serves from its cache); :meth:`predict` uses these vectors until :meth:`forget`."""
        todo = [t for t in dict.fromkeys(texts) if t not in self._ahead]
        if not todo:
            return
        batch = list(dict.fromkeys([*todo, *also]))  # ``todo`` first, each text once
        rows = np.asarray(self.embedder.embed(batch), dtype=np.float32)
        self._ahead.update(zip(todo, rows[: len(todo)], strict=True))

    def forget(self) -> None:
        """Drop the vectors :meth:`embed_ahead` kept."""
        self._ahead.clear()

    def predict(self, text: str) -> Prediction:
        """The nearest key of ``text`` (whatever its score)."""
        keys, matrix = _matrix(self.embedder)
        vec = self._ahead.get(text)
        if vec is None:
            vec = np.asarray(self.embedder.embed([text]), dtype=np.float32)[0]
        sims = matrix @ vec
        best: dict[str, float] = {}
        for key, sim in zip(keys, sims.tolist(), strict=True):
            if sim > best.get(key, -1.0):
                best[key] = sim
        ranked = sorted(best.items(), key=lambda kv: kv[1], reverse=True)
        (top, score), (second, runner) = ranked[0], ranked[1]
        return Prediction(top, round(score, 4), second, round(score - runner, 4))

    def classify(self, text: str) -> list[Candidate]:
        """The memories ``text`` states under its nearest key, or ``[]`` when unsure (the
        caller keeps its note)."""
        text = _plain(text)
        if not _embeddable(text) or _HEARSAY.search(text) or _PEOPLE.search(text):
            return []  # someone's words, or people in general: nothing of the user's
        pred = self.predict(text)
        if pred.key == NOTE or pred.score < self.threshold or pred.margin < self.margin:
            return []
        key = _polarity(pred.key, text)
        if key == NOTE:
            return []
        found = values(key, text)
        row_key = _ROW_KEY.get(key, key)
        out: list[Candidate] = []
        for n, (said, norm) in enumerate(found):
            for _s, _e, c in _row_hits(row_key, said, norm, 0, 0, n):
                out.append(c)
        return out


#: Someone else's words: "my doctor said lots of people with asthma ...", "the
#: pharmacist mentioned that statins ...", "my trainer reckons ...".
_HEARSAY = re.compile(
    r"\b(?!(?:i|we)\b)[a-z]+\s+(?:said|says|told\s+(?:me|us)|mentioned|explained|reckons?"
    r"|claims?|claimed|warned|insists?|swears?)\b",
    _I,
)
#: People in general: "lots of people my age", "people with diabetes", "everyone gets ..."
#: (as the subject: "that's what I use with everyone" is the user's).
_PEOPLE = re.compile(
    r"\b(?:lots|a\s+lot|loads|plenty|most|many)\s+(?:of\s+)?people\b|\bpeople\s+(?:with|my\s+age"
    r"|our\s+age|over\s+\d+)\b|(?:^|[,;:(]|\b(?:and|but|so|that|because)\b)\W*(?:everyone"
    r"|everybody)\b",
    _I,
)


def _embeddable(text: str) -> bool:
    """Whether :meth:`PrototypeClassifier.classify` embeds ``text``: the model and the
    prototypes are English (emoji aside, see :func:`_plain`)."""
    return bool(text.strip()) and text.isascii()


#: Emoji and other pictographs, their variation selectors, skin tones and joiners.
_PICTOGRAPH = re.compile(
    r"[\u2190-\u21ff\u2300-\u23ff\u2460-\u27bf\u2900-\u2bff\u3030\u303d"
    r"\U0001f000-\U0001faff\ufe0e\ufe0f\u200d\u20e3]+"
)


def _plain(text: str) -> str:
    """``text`` without its emoji ("phone calls are a hard no for me 📵"): the words are
    what the prototypes compare, and an emoji alone makes an English sentence non-ASCII."""
    if text.isascii():
        return text
    return " ".join(_PICTOGRAPH.sub(" ", text).split())


def _family(key: str) -> str:
    """The slot family of a stored key: ``payment.method.cash`` -> ``payment.method``."""
    spec = taxonomy.spec(key)
    return spec.key.rstrip(".") if spec is not None else key


def _is_rule_note(c: Candidate) -> bool:
    return c.key.startswith("note.") and c.extractor == "rules" and c.intent.value == "assert"


def _note_texts(candidates: Sequence[Candidate]) -> list[str]:
    """Every text :func:`reclassify` may embed for ``candidates``: each rule note's
    words, and its sentence when the words alone may not be enough."""
    read = {c.span for c in candidates if not c.key.startswith("note.")}
    out: list[str] = []
    for c in candidates:
        if not _is_rule_note(c):
            continue
        if _embeddable(_plain(c.value.translate(L.T2S))):
            out.append(_plain(c.value.translate(L.T2S)))
        if c.span not in read and _embeddable(_plain(c.span)) and _reads_as_statement(c.span):
            out.append(_plain(c.span))
    return out


def reclassify(candidates: Sequence[Candidate], classifier: PrototypeClassifier) -> list[Candidate]:
    """Replace each rule note in ``candidates`` by what ``classifier`` reads in its words
    (kept when it is unsure, and when the rules already stored that key from the same
    turn). The replacement keeps the note's signals, scope and span."""
    ruled = {_family(c.key) for c in candidates if not c.key.startswith("note.")}
    read = {c.span for c in candidates if not c.key.startswith("note.")}
    out: list[Candidate] = []
    for c in candidates:
        if not _is_rule_note(c):
            out.append(c)
            continue
        # the note's words as the rules read them (a Traditional note is kept as written)
        found = [
            f for f in classifier.classify(c.value.translate(L.T2S)) if _family(f.key) not in ruled
        ]
        if not found:
            out.append(c)  # the note stays; its sentence may say more than the note's clause
            if c.span in read or not _reads_as_statement(c.span):
                continue
            found = [f for f in classifier.classify(c.span) if _family(f.key) not in ruled]
        for f in found:
            out.append(
                dataclasses.replace(
                    f,
                    explicit=c.explicit,
                    scope=c.scope,
                    span=c.span,
                    signals=c.signals | {"classified"},
                    valid_until=c.valid_until,
                    confidence_hint=CLASSIFIED_CONFIDENCE,
                    extractor="classifier",
                )
            )
    return out


# --------------------------------------------------------------------------------------
# sentences no rule read at all
# --------------------------------------------------------------------------------------
#: Passing states, plans, possibilities, wants and one-off tasks: "I'm in Chicago this
#: week", "book me a seat tomorrow", "I need a hotel under 200 euros".
_TRANSIENT = re.compile(
    r"\b(?:today|tonight|tomorrow|yesterday|right\s+now|at\s+the\s+moment|atm|currently"
    r"|for\s+now|this\s+(?:morning|afternoon|evening|week|weekend|month|year|time|trip|flight)"
    r"|next\s+(?:week|weekend|month|year|time)|last\s+night|someday|some\s+day|one\s+day"
    r"|thinking\s+(?:about|of)|considering|planning|plan\s+to|hope|wish|wonder"
    # a want or a need is a one-off request ("I need a hotel under 200 euros"), as for notes
    r"|want|wanted|wanna|need|needed|looking\s+for|going\s+to|gonna|i'll|trying\s+to"
    # a possibility is no fact ("maybe I'll learn Italian eventually")
    r"|maybe|might|may|perhaps|probably|possibly|eventually|at\s+some\s+point|in\s+the\s+future"
    r"|later|one\s+of\s+these\s+days|would\s+(?:like|love)|i'd\s+(?:like|love)|dream\w*"
    # an open outcome: "we'll see if I end up in Leeds", "let's see whether it sticks"
    r"|(?:we'll|we\s+will|i'll|let's|let\s+us|wait\s+and)\s+see|see\s+(?:if|whether)"
    r"|end(?:s|ed)?\s+up)\b",
    _I,
)
_TASK = re.compile(
    r"^\W*(?:(?:can|could|would|will)\s+you\s+|please\s+)?(?:book|find|remind|translate|search"
    r"|order|buy|schedule|look\s+up|check|send|draft|write|summari[sz]e|compare|plan|get\s+me"
    r"|help\s+me|tell\s+me|show\s+me\s+(?:the|a|some|how))\b"
    # an errand on a thing at hand: "email this to my accountant", "give me a short summary"
    r"|^\W*(?:please\s+)?(?:email|e-mail|text|forward|message|dm|give|make|rewrite|explain"
    r"|list|generate|create|translate)\s+(?:me\s+)?(?:this|that|it|these|those|the|a|an|some)\b",
    _I,
)


def unread_sentences(text: str, candidates: Sequence[Candidate]) -> list[str]:
    """Sentences of a user turn that no rule read (no candidate's span) and that read as a
    durable first-person statement: not a question, hypothetical, plan, joke, quote,
    retraction, third-party statement, passing state, one-off task or behavioural cue."""
    from ._rulebase import (
        JOKE_RE,
        LAUGH_RE,
        QUOTED_RE,
        RETRACT_RE,
        laughed_from,
        normalize_text,
        sentences,
    )

    norm = L.strip_fillers(L.fix_typos(normalize_text(text).translate(L.T2S)))
    if not _plain(norm).isascii() or any(
        rx.search(norm) for rx in (JOKE_RE, LAUGH_RE, RETRACT_RE, QUOTED_RE)
    ):
        return []
    if laughed_from(sentences(norm)) is not None:
        return []  # "my diet is 90% coffee lmao": a trailing laugh, as the rules read it
    spans = {c.span for c in candidates}
    out: list[str] = []
    for sent in sentences(norm):
        s = sent.strip()
        if s and s[:500] not in spans and _reads_as_statement(s):
            out.append(s)
    return out


def _reads_as_statement(sentence: str) -> bool:
    """A first-person sentence that is no question, hypothetical, plan, third-party
    statement, passing state, one-off task or behavioural cue."""
    from ._rulebase import (
        HYPOTHETICAL_RE,
        IMPLICIT_CUE_RE,
        first_person,
        is_self_question,
        third_party,
    )
    from ._rules_packs import MAYBE

    s = sentence.strip()
    return not (
        not s
        or s.endswith("?")
        or not first_person(s)
        or is_self_question(s)
        or third_party(s)
        or any(rx.search(s) for rx in (HYPOTHETICAL_RE, MAYBE, IMPLICIT_CUE_RE, _TRANSIENT))
        or _TASK.search(s) is not None
    )


def classify_unread(
    text: str, candidates: Sequence[Candidate], classifier: PrototypeClassifier
) -> list[Candidate]:
    """Memories the classifier reads in the turn's unread sentences (explicit, classified,
    at :data:`CLASSIFIED_CONFIDENCE`), never under a key the rules filled this turn."""
    return _classify_sentences(unread_sentences(text, candidates), candidates, classifier)


def _classify_sentences(
    sentences: Sequence[str], candidates: Sequence[Candidate], classifier: PrototypeClassifier
) -> list[Candidate]:
    ruled = {_family(c.key) for c in candidates}
    out: list[Candidate] = []
    for sent in sentences:
        for f in classifier.classify(sent):
            if _family(f.key) in ruled:
                continue
            out.append(
                dataclasses.replace(
                    f,
                    span=sent[:500],
                    signals=f.signals | {"classified"},
                    confidence_hint=CLASSIFIED_CONFIDENCE,
                    extractor="classifier",
                )
            )
    return out


def classify_turn(
    text: str,
    candidates: Sequence[Candidate],
    classifier: PrototypeClassifier,
    *,
    also: Callable[[], Sequence[str]] | None = None,
    finish: Callable[[Candidate], Candidate] | None = None,
) -> list[Candidate]:
    """:func:`reclassify` the rule notes of a user turn, then :func:`classify_unread` its
    sentences, with every text either may embed embedded in ONE embedder call.

    Args:
        text: the turn.
        candidates: what the rules read in it.
        classifier: the classifier (its embedder's vectors for the turn are kept only for
            this call).
        also: texts the caller will embed for this turn anyway (its episode, its records'
            texts), asked only when the classifier embeds something: they join the same
            call, so a caching embedder serves them later and the turn costs one model
            call. A text of both lists (a one-sentence turn) is embedded once.
        finish: applied to what the classifier reads in an unread sentence (the rule
            extractor's :meth:`~shared_core.ingest.extract.RuleExtractor.finish`: the
            signals the rules give that sentence, so one gate judges both).

    Returns:
        ``reclassify(candidates) + classify_unread(text, ...)``: the same memories as
        those two calls in a row.
    """
    unread = unread_sentences(text, candidates)
    wanted = [*_note_texts(candidates), *(_plain(s) for s in unread if _embeddable(_plain(s)))]
    try:
        if wanted:
            classifier.embed_ahead(wanted, also() if also is not None else ())
        out = reclassify(candidates, classifier)
        # a replaced note passes its span on to what replaces it, so the unread sentences
        # of ``out`` are those of ``candidates``; recomputed should that ever change
        if {c.span for c in out} != {c.span for c in candidates}:
            unread = unread_sentences(text, out)
        found = _classify_sentences(unread, out, classifier)
        return out + ([finish(c) for c in found] if finish is not None else found)
    finally:
        classifier.forget()
