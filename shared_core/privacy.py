"""PII detection and masking for English and Chinese text (regex + checksums, no model).

Detected kinds (:data:`ALL_KINDS`):

* ``email`` - ``alice@example.com``
* ``phone`` - E.164 (``+44 20 7946 0958``), US with separators (``(555) 123-4567``,
  ``555-123-4567``, ``+1 555 123 4567``), Chinese mobiles (``13812345678``,
  ``+86 138 1234 5678``, ``138-1234-5678``) and landlines (``010-12345678``,
  ``(0755) 12345678``)
* ``card`` - 13-19 digit payment card numbers, optionally grouped by spaces or dashes,
  accepted only when the Luhn checksum holds
* ``ssn`` - US social security numbers ``123-45-6789`` (invalid area/group/serial rejected)
* ``cn_id`` - 18-character Chinese resident ID numbers (birth date and ISO 7064 check)
* ``iban`` - IBANs, with or without spaces, accepted only when the mod-97 check holds
* ``ipv4`` - dotted IPv4 addresses

Ordinary numbers are left alone: budgets (``20000``), dates (``2026-04-12``), ids
(``dev_8821``), and digit strings under 13 digits that do not look like a phone number.
Only ASCII digits are recognised. Every pattern is bounded, so scanning is linear in the
text length (1 MB in well under a second).
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass

from .errors import InvalidInputError

__all__ = [
    "ALL_KINDS",
    "PiiSpan",
    "RedactionResult",
    "contains_pii",
    "find_pii",
    "mask_pii",
    "mask_value",
    "redact",
]

ALL_KINDS: tuple[str, ...] = ("email", "iban", "cn_id", "card", "ssn", "phone", "ipv4")
"""Kinds in priority order: on overlapping matches of equal length the earlier wins."""

_PRIORITY = {kind: i for i, kind in enumerate(ALL_KINDS)}


@dataclass(frozen=True, slots=True)
class PiiSpan:
    """One detected PII occurrence: ``text[start:end]`` of kind ``kind``."""

    kind: str
    start: int
    end: int


@dataclass(frozen=True, slots=True)
class RedactionResult:
    """The redacted text and the spans found (offsets into the *original* text)."""

    text: str
    found: list[PiiSpan]


_B = r"(?<![0-9A-Za-z])"  # not glued to a preceding letter/digit (CJK neighbours are fine)
_E = r"(?![0-9A-Za-z])"

_EMAIL = re.compile(
    r"(?<![A-Za-z0-9._%+-])[A-Za-z0-9][A-Za-z0-9._%+-]{0,63}"
    r"@(?:[A-Za-z0-9-]{1,63}\.){1,8}[A-Za-z]{2,24}(?![A-Za-z0-9-])"
)
_PHONES = (
    # Chinese mobile, optional +86 / 0086
    re.compile(r"(?<![0-9A-Za-z+])(?:(?:\+|00)86[ -]?)?1[3-9][0-9](?:[ -]?[0-9]{4}){2}" + _E),
    # Chinese landline with area code: 010-12345678, 0755 1234567, (010)12345678
    re.compile(
        r"(?<![0-9A-Za-z+-])(?:0[1-9][0-9]{1,2}[ -]|[(（]0[1-9][0-9]{1,2}[)）] ?)[1-9][0-9]{6,7}"
        + _E
    ),
    # US / NANP with separators
    re.compile(
        r"(?<![0-9A-Za-z+])(?:\+?1[ .-]?)?(?:\([2-9][0-9]{2}\) ?|[2-9][0-9]{2}[ .-])"
        r"[0-9]{3}[ .-][0-9]{4}" + _E
    ),
    # E.164: + then 8-15 digits, single separators allowed between digits
    re.compile(r"(?<![0-9A-Za-z+])\+[1-9](?:[ .-]?[0-9]){7,14}(?![0-9])"),
)
# Runs of digit groups (>= 3 digits each, as in every card layout), at most 19 digits.
_CARD_CANDIDATE = re.compile(r"(?<![0-9A-Za-z+.-])[0-9]{3,19}(?:[ -][0-9]{3,19}){0,5}")
_DIGIT_RUN = re.compile(r"[0-9]+")
_SSN = re.compile(
    r"(?<![0-9A-Za-z-])(?!000|666|9[0-9]{2})[0-9]{3}-(?!00)[0-9]{2}-(?!0000)[0-9]{4}"
    r"(?![0-9A-Za-z-])"
)
_CN_ID = re.compile(
    _B + r"[1-9][0-9]{5}(?:18|19|20)[0-9]{2}(?:0[1-9]|1[0-2])(?:0[1-9]|[12][0-9]|3[01])"
    r"[0-9]{3}[0-9Xx]" + _E
)
_IBAN = re.compile(
    _B + r"[A-Z]{2}[0-9]{2}(?:[A-Z0-9]{11,30}|(?: [A-Z0-9]{4}){2,7}(?: [A-Z0-9]{1,3})?)" + _E
)
_IBAN_DIGITS = str.maketrans({chr(c): str(c - 55) for c in range(ord("A"), ord("Z") + 1)})
_OCTET = r"(?:25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9]?[0-9])"
_IPV4 = re.compile(rf"(?<![0-9A-Za-z.])(?:{_OCTET}\.){{3}}{_OCTET}(?![0-9]|\.[0-9])")
_FULL_EMAIL = re.compile(r"[^@\s]+@[^@\s]+\.[A-Za-z]{2,24}")

_CN_ID_WEIGHTS = (7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2)
_CN_ID_CHECK = "10X98765432"


_LUHN_DOUBLE = str.maketrans("0123456789", "0246813579")


def luhn_ok(digits: str) -> bool:
    """Whether a string of ASCII digits passes the Luhn checksum."""
    doubled = digits[-2::-2].translate(_LUHN_DOUBLE)
    return (sum(map(int, digits[-1::-2])) + sum(map(int, doubled))) % 10 == 0


def cn_id_ok(value: str) -> bool:
    """Whether an 18-character Chinese resident ID has a valid ISO 7064 check character."""
    if len(value) != 18 or not value[:17].isdigit():
        return False
    s = sum(int(c) * w for c, w in zip(value[:17], _CN_ID_WEIGHTS, strict=True))
    return _CN_ID_CHECK[s % 11] == value[17].upper()


def iban_ok(value: str) -> bool:
    """Whether an IBAN (spaces allowed) passes the ISO 13616 mod-97 check."""
    compact = value.replace(" ", "").upper()
    if not 15 <= len(compact) <= 34 or not compact.isalnum() or not compact.isascii():
        return False
    if not compact[2:4].isdigit() or not 2 <= int(compact[2:4]) <= 98:
        return False  # check digits are always 02-98
    return int((compact[4:] + compact[:4]).translate(_IBAN_DIGITS)) % 97 == 1


def _regex_spans(kind: str, pattern: re.Pattern[str], text: str) -> Iterator[PiiSpan]:
    for m in pattern.finditer(text):
        yield PiiSpan(kind, m.start(), m.end())


def _card_spans(text: str) -> Iterator[PiiSpan]:
    for m in _CARD_CANDIDATE.finditer(text):
        raw = m[0]
        if len(raw) - raw.count(" ") - raw.count("-") < 13:
            continue  # too few digits for any card: the common case, keep it cheap
        groups = [(g.start() + m.start(), g.end() + m.start()) for g in _DIGIT_RUN.finditer(raw)]
        if m.end() < len(text) and text[m.end()].isascii() and text[m.end()].isalnum():
            groups.pop()  # the last run is glued to a longer token
        ndigits = [0]  # prefix sums of group lengths
        for gs, ge in groups:
            ndigits.append(ndigits[-1] + ge - gs)
        i = 0
        while i < len(groups):
            for j in range(len(groups) - 1, i - 1, -1):  # longest window first
                count = ndigits[j + 1] - ndigits[i]
                if count > 19:
                    continue
                if count < 13:
                    break
                if luhn_ok("".join(text[gs:ge] for gs, ge in groups[i : j + 1])):
                    yield PiiSpan("card", groups[i][0], groups[j][1])
                    i = j
                    break
            i += 1


def _iban_spans(text: str) -> Iterator[PiiSpan]:
    for m in _IBAN.finditer(text):
        candidate = m[0]
        ends = [len(candidate)] + [
            i for i in range(len(candidate) - 1, 0, -1) if candidate[i] == " "
        ]
        for end in ends:  # the greedy match may swallow following capitalised words
            if iban_ok(candidate[:end]):
                yield PiiSpan("iban", m.start(), m.start() + end)
                break


def _ipv4_spans(text: str) -> Iterator[PiiSpan]:
    for m in _IPV4.finditer(text):
        if m.start() > 0 and text[m.start() - 1] in "vV":  # version strings: v1.2.3.4
            continue
        yield PiiSpan("ipv4", m.start(), m.end())


def _detect(kind: str, text: str) -> Iterable[PiiSpan]:
    if kind == "email":
        return _regex_spans(kind, _EMAIL, text)
    if kind == "phone":
        return (s for p in _PHONES for s in _regex_spans(kind, p, text))
    if kind == "card":
        return _card_spans(text)
    if kind == "ssn":
        return _regex_spans(kind, _SSN, text)
    if kind == "cn_id":
        return (s for s in _regex_spans(kind, _CN_ID, text) if cn_id_ok(text[s.start : s.end]))
    if kind == "iban":
        return _iban_spans(text)
    return _ipv4_spans(text)


def _check_kinds(kinds: Iterable[str] | None) -> tuple[str, ...]:
    if kinds is None:
        return ALL_KINDS
    if isinstance(kinds, str):
        kinds = (kinds,)
    chosen = tuple(kinds)
    unknown = [k for k in chosen if k not in _PRIORITY]
    if unknown:
        raise InvalidInputError(f"unknown PII kinds {unknown}; known: {list(ALL_KINDS)}")
    return chosen


def find_pii(text: str, *, kinds: Iterable[str] | None = None) -> list[PiiSpan]:
    """Find non-overlapping PII spans in ``text``, sorted by position.

    Overlaps are resolved in favour of the longer match, then by :data:`ALL_KINDS` order.

    Args:
        text: the text to scan.
        kinds: restrict detection to these kinds (default: all).

    Raises:
        InvalidInputError: ``text`` is not a ``str`` or a kind is unknown.
    """
    if not isinstance(text, str):
        raise InvalidInputError(f"expected str, got {type(text).__name__}")
    chosen = _check_kinds(kinds)
    spans = [s for kind in chosen for s in _detect(kind, text)]
    spans.sort(key=lambda s: (-(s.end - s.start), _PRIORITY[s.kind], s.start))
    starts: list[int] = []  # accepted spans, kept sorted and disjoint
    taken: list[PiiSpan] = []
    for span in spans:
        i = bisect.bisect_left(starts, span.start)
        if i < len(taken) and taken[i].start < span.end:
            continue  # overlaps the next accepted span
        if i > 0 and taken[i - 1].end > span.start:
            continue  # overlaps the previous accepted span
        starts.insert(i, span.start)
        taken.insert(i, span)
    return taken


def contains_pii(text: str, *, kinds: Iterable[str] | None = None) -> bool:
    """Whether ``text`` contains any PII of ``kinds`` (default: all)."""
    return bool(find_pii(text, kinds=kinds))


def redact(
    text: str,
    *,
    mask: str | Callable[[str, str], str] = "[{kind}]",
    kinds: Iterable[str] | None = None,
) -> RedactionResult:
    """Replace PII in ``text``.

    Args:
        text: the text to redact.
        mask: a format string with ``{kind}`` (default ``"[{kind}]"`` -> ``"[email]"``), or
            a callable ``(kind, matched_text) -> replacement``.
        kinds: restrict to these kinds (default: all of :data:`ALL_KINDS`).

    Returns:
        The redacted text and the spans found, with offsets into the original ``text``.

    Raises:
        InvalidInputError: bad ``text``, ``kinds`` or ``mask``.

    Example:
        >>> redact("mail bob@example.com or call 138-1234-5678").text
        'mail [email] or call [phone]'
    """
    if not (isinstance(mask, str) or callable(mask)):
        raise InvalidInputError("mask must be a format string or a callable")
    found = find_pii(text, kinds=kinds)
    parts: list[str] = []
    pos = 0
    for span in found:
        parts.append(text[pos : span.start])
        if isinstance(mask, str):
            try:
                parts.append(mask.format(kind=span.kind))
            except (KeyError, IndexError, ValueError) as exc:
                raise InvalidInputError(f"bad mask format {mask!r}: {exc}") from exc
        else:
            replacement = mask(span.kind, text[span.start : span.end])
            if not isinstance(replacement, str):
                raise InvalidInputError("a mask callable must return str")
            parts.append(replacement)
        pos = span.end
    parts.append(text[pos:])
    return RedactionResult("".join(parts), found)


def mask_value(value: str) -> str:
    """Partially mask one sensitive value for display or export.

    * e-mail: first character of the local part + domain: ``"a***@example.com"``;
    * values with 6+ digits (phones, cards, ids, IBANs): every letter/digit except the
      last four becomes ``*``, separators stay: ``"***-***-4567"``;
    * anything else: all but the last two characters (all of it when 4 or shorter).

    Raises:
        InvalidInputError: ``value`` is not a ``str``.
    """
    if not isinstance(value, str):
        raise InvalidInputError(f"expected str, got {type(value).__name__}")
    stripped = value.strip()
    if _FULL_EMAIL.fullmatch(stripped):
        local, domain = stripped.rsplit("@", 1)
        return f"{local[0]}***@{domain}"
    if sum(c.isdigit() for c in value) >= 6:
        keep = 4
        out: list[str] = []
        for ch in reversed(value):
            if ch.isalnum():
                out.append(ch if keep > 0 else "*")
                keep -= 1
            else:
                out.append(ch)
        return "".join(reversed(out))
    if len(value) <= 4:
        return "*" * len(value)
    return "*" * (len(value) - 2) + value[-2:]


def mask_pii(text: str, *, kinds: Iterable[str] | None = None) -> str:
    """``text`` with every PII span partially masked by :func:`mask_value`.

    Example:
        >>> mask_pii("call 555-123-4567")
        'call ***-***-4567'
    """
    return redact(text, mask=lambda _kind, value: mask_value(value), kinds=kinds).text
