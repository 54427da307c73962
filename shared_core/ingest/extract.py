"""The offline rule extractor for English and Chinese (write path, step 1).

:class:`RuleExtractor` turns one user (or tool) turn into :class:`Candidate` objects
with precompiled, linear-time regular expressions; no model, no network. The gate
and the resolver decide what is actually written.

Key taxonomy (``value`` keeps the surface text, ``normalized`` is canonical):

=========================  ============  ====================================================
key                        kind          examples -> value (normalized)
=========================  ============  ====================================================
contact.channel            preference    "I only accept SMS", "只接受短信通知" -> sms
contact.call               constraint    "never call me", "不要给我打电话" -> never (hard);
                                         "I don't take phone calls" / "不接电话" -> never
                                         (hard, permanent); "you can call me" -> allowed
contact.call.emergency     constraint    "in an emergency you may call" -> allowed (soft)
contact.quiet_hours        constraint    "don't contact me after 9pm" -> "after 21:00"
allergy.medication         fact          "allergic to penicillin", "对青霉素过敏" -> penicillin
allergy.medication.<slug>  fact          additive: "I'm also allergic to ibuprofen", "我对布洛芬也
                                         过敏" -> ibuprofen (a sibling; the first one stays)
allergy.food / allergy     fact          peanuts, 花生 / anything else (".<slug>" when additive)
health.condition           fact          "I have diabetes", "我有高血压" -> diabetes / hypertension
diet                       preference    vegetarian, vegan, halal, 吃素, 清真
budget.max / budget.min    preference    "at most 20000", "最多两万", "5k" -> 20000 / 5000
location.city/.country/    fact          "I live in Berlin", "I'm in Lisbon", "我搬到北京了",
  .address                               "my address is ..."
name / name.preferred      fact          "my name is Alice Chen", "我叫张伟", "你好，我是张伟"
                                         / "call me Al"
language                   preference    "please reply in Chinese", "用英文回复我" -> chinese
industry                   fact          "I work in SaaS", "我们是做制造业的" -> manufacturing
job.title                  fact          "I'm a nurse", "我是护士"
taste.<item>               preference    "I love jazz" -> like, "我讨厌香菜" -> dislike
recommend.<topic>          constraint    "never recommend credit cards" -> never (hard)
interest.<topic>           preference    "I've been looking at credit cards" -> interested
                                         (always implicit)
rule.<slug>                constraint    "always cc my assistant" -> the instruction
device.<id>                relationship  "my device is dev_8821" -> owner
family.<relation>          relationship  "my wife is Jane", "我女儿叫小美" -> the name
seat                       preference    "aisle seat", "靠窗的座位" -> aisle / window
timezone                   fact          "my timezone is Europe/Berlin"
event.<slug>               event         "I had surgery last Friday" -> "surgery on 2026-04-10"
=========================  ============  ====================================================

Signals: ``explicit_marker``, ``question``, ``hypothetical``, ``third_party``, ``joke``,
``retraction``, ``negated``. "forget my X" and negations ("I no longer live in Berlin",
"I don't keep halal anymore", "我没有高血压了") give ``Intent.FORGET``; "forget my contact
info" / "删除我的联系方式" targets ``contact.channel`` only (the ``contact.call`` rule stays);
"never mind" / "算了" / a bare "just kidding" give ``Intent.RETRACT``. Corrections ("not X,
Y", "Y, not X", "不是X，是Y", "是Y，不是X") set ``correction=True`` on the ``Y`` candidate,
which replaces the base slot (an additive ``.<slug>`` sibling is not targeted by value).

Layout: this module holds the driver and the forget handler; ``_rules_contact`` the
contact/identity handlers (quiet hours, names, calls, channels, do-not-recommend);
``_rules_packs`` the per-language data rows and the move/birthday handlers;
``_rulebase`` the markers, sentence/clause splitting and shared helpers; ``_rules_open``
corrections, addresses and the open-vocabulary handlers (rules, notes, interests, tastes);
``_rules_place`` budgets and locations; ``_rules_facts`` the other fact/preference/event
handlers and their registry; ``lexicon`` every word list;
``dates`` relative-date resolution. The keys themselves are described in
:mod:`shared_core.taxonomy`.
"""

from __future__ import annotations

import dataclasses
import logging
import re
from collections.abc import Callable, Iterator
from datetime import datetime

from .. import taxonomy
from ..entities import Candidate, Intent, Kind, Scope, Turn
from ..errors import InvalidInputError
from . import _rules_facts as F
from . import lexicon as L
from ._rulebase import (
    ASSISTANT_VOICE_RE,
    CJK,
    CORRECTION_RE,
    COURSE_RE,
    CUT_ZH,
    HYPOTHETICAL_RE,
    IMPLICIT_CUE_RE,
    JOKE_RE,
    LAUGH_RE,
    MODAL_RE,
    NAMED_RETRACT_ZH,
    PASTIME_VERB,
    PERMANENT_RE,
    QUOTED_RE,
    REFUSED_AGAIN_RE,
    RETRACT_RE,
    TASK_RE,
    TRANSIENT_RE,
    Clause,
    Hit,
    Sentence,
    alt,
    cand,
    clauses,
    declared_aside,
    first_person,
    generic_remark,
    has_explicit_marker,
    is_self_question,
    laughed_from,
    normalize_text,
    one_answer_aside,
    past_state,
    phrase,
    scope_of,
    sentences,
    third_party,
)
from ._rules_contact import (
    CALLS_IN_A_WINDOW,
    JUST_NAME,
    SHORT_IS_FINE,
    h_call,
    h_channel,
    h_name,
    h_quiet,
    h_recommend,
    lower_name_ok,
)
from ._rules_open import h_address, h_correction, h_note, h_rule
from ._rules_packs import (
    MAYBE,
    PETS_EN,
    SENTENCE_HINTS,
    allergy_key,
    h_allergy_reaction,
    h_bare_value,
    h_birthday,
    h_children_count,
    h_food_said,
    h_hard_no,
    h_here_in,
    h_move,
    h_only_channel,
    h_paid_this_way,
    h_role_fragment,
    h_rows,
    h_sentence_rows,
    h_turning_age,
    not_a_name,
)
from .dates import parse_until

__all__ = ["RuleExtractor"]

logger = logging.getLogger(__name__)

_I = re.IGNORECASE
#: The most candidates one turn yields: a turn that states more facts than this is a paste,
#: and its later sentences are not read (the turn itself is kept as an episode).
MAX_CANDIDATES = 64


class RuleExtractor:
    """Offline English/Chinese rule extractor implementing the ``Extractor`` protocol.

    Example:
        >>> from datetime import datetime, UTC
        >>> from shared_core.entities import Turn
        >>> turn = Turn(user_id="u", text="I only accept SMS notifications, never call me.",
        ...             session_id="s", turn_id="t", at=datetime(2026, 4, 15, tzinfo=UTC))
        >>> [(c.key, c.normalized) for c in RuleExtractor().extract(turn)]
        [('contact.channel', 'sms'), ('contact.call', 'never')]
    """

    name = "rules"

    def __init__(self, *, roles: frozenset[str] = frozenset({"user", "tool"})) -> None:
        """Create the extractor.

        Args:
            roles: turn roles to extract from; every other role yields ``[]``.
        """
        self._roles = roles

    def extract(self, turn: Turn) -> list[Candidate]:
        """Extract memory candidates from one turn.

        Args:
            turn: the turn; only ``text``, ``role`` and ``at`` are read.

        Returns:
            The candidates in order of appearance (deduplicated); ``[]`` for other roles
            or when nothing is found. Never raises on odd text.
        """
        if turn.role not in self._roles or not turn.text or not turn.text.strip():
            return []
        try:
            return self._extract(turn.text, turn.at)
        except Exception:  # a bug must not break the conversation; log and degrade
            logger.exception("rule extractor failed on a turn of %d chars", len(turn.text))
            return []

    def _extract(self, raw: str, at: datetime) -> list[Candidate]:
        text = L.fix_typos(normalize_text(raw).translate(L.T2S))
        text = L.make_that(L.strip_fillers(L.initialisms(text)))
        text = _bio_as_list(L.chat_zh(L.clock_times(text)))
        text = _signoff_as_name(text)
        joke = JOKE_RE.search(text) is not None
        laugh = LAUGH_RE.search(text) is not None
        # the only laugh is a laughing face (no "哈哈", no eye-roll, no sarcasm opener)
        emoji_laugh_only = laugh and LAUGH_RE.search(_LAUGH_FACE.sub("", text)) is None
        # "disregard my budget for now", "这次先别管我的预算": set aside for one answer, the
        # turn before is not taken back (one_answer_aside decides scope for every retraction)
        retraction = any(
            not one_answer_aside(text, m.start(), m.end()) for m in RETRACT_RE.finditer(text)
        )
        pasted = ASSISTANT_VOICE_RE.search(text) is not None  # an assistant's reply, pasted
        marker = has_explicit_marker(text)
        out: list[Candidate] = []
        correcting = False
        sents = sentences(text)
        trailing = laughed_from(sents)
        # a laugh that opens a reply to the assistant ("哈哈你好可爱。我叫小林"): it covers that
        # sentence, not the user's own sentences after it
        at_next = text.find(sents[1]) if laugh and len(sents) > 1 else -1
        opener_only = (
            at_next > 0
            and _OPENING_LAUGH.match(sents[0]) is not None
            and not first_person(sents[0])
            and LAUGH_RE.search(text[at_next:]) is None
        )
        # "老师让我们写自我介绍 我叫李华", "作文题目：我的家乡 我家在杭州": what follows an
        # assignment or a text to practise is that text, not the user speaking
        frame = _TEXT_FRAME_ZH.search(sents[0]) if sents else None
        frame_end = frame.end() if frame is not None else -1
        sent_at = 0
        said = sents  # as written (a sentence below may have a pronoun put back)
        sents = _drug_named_before(sents)
        refused_calls = False  # a sentence before refused phone calls
        for n_sent, sent_text in enumerate(sents):
            correcting = correcting or CORRECTION_RE.search(sent_text) is not None
            sent = _read_sentence(sent_text, at, correcting=correcting)
            quoted = QUOTED_RE.search(sent_text) is not None
            sent_at = max(0, text.find(said[n_sent], sent_at))
            if refused_calls and _EMERGENCY_OK.match(sent_text):
                # "never phone me. if it's a real emergency then ok fine": the exception to
                # the calls refused, said in a sentence of its own without the verb
                hit = cand(Kind.CONSTRAINT, "contact.call.emergency", "allowed")
                c = _finish(hit, _whole(sent, at), sent, marker=marker, joke=joke)
                out.append(_said_signals(c, sent_text, sent_text, quoted=quoted or pasted))
                refused_calls = False
            for clause, hit in self._sentence_hits(sent, at):
                if hit.intent is Intent.FORGET and one_answer_aside(
                    sent.text, clause.start, clause.start + len(clause.text)
                ):
                    continue  # "ignore my budget just this once": the budget stays
                # a trailing laugh covers its own clause, later ones and sentence-wide hits
                laughed = trailing is not None and (
                    n_sent > trailing[0]
                    or (
                        n_sent == trailing[0]
                        and (clause.start >= trailing[1] or len(clause.text) == len(sent.text))
                    )
                )
                # a self-label in the sentence that ends laughing is part of the joke ("我是
                # 地球人，住在银河系 😂"): a free-form note keeps only what is said straight
                laughed = laughed or (
                    trailing is not None
                    and n_sent == trailing[0]
                    and hit.key.startswith("note.")
                    and _SELF_LABEL_NOTE_ZH.match(hit.value or "") is not None
                )
                laughing = laugh and not (opener_only and n_sent > 0)
                if hit.key.startswith(_LAUGH_PROOF):
                    # "my parrot Kiwi wakes me up at 6 every day lol": a pet named laughing
                    # is a pet all the same (an explicit "jk" still takes it back)
                    laughing = laughed = False
                # "可以多用点表情包😂 我喜欢": a laughing face in a request for emoji is the
                # emoji asked for, not a joke (an eye-roll, 🙄, stays sarcasm)
                laughing = laughing and not (hit.key == "response.emoji" and emoji_laugh_only)
                c = _finish(hit, clause, sent, marker=marker, joke=joke or laughing or laughed)
                if c.key == "contact.call" and c.normalized == "never":
                    refused_calls = True
                if (
                    "question" in c.signals
                    and c.key.startswith("budget.")
                    and n_sent + 1 < len(sents)
                    and _LIMIT_AFTER.match(sents[n_sent + 1]) is not None
                ):
                    # "anything good under $50? that's my limit": the question's amount is
                    # the user's own limit, said in the next sentence
                    c = dataclasses.replace(c, signals=c.signals - {"question"})
                framed = frame_end >= 0 and _said_after(c, text, sent_at, sent_text, frame_end)
                out.append(
                    _said_signals(c, clause.text, sent_text, quoted=quoted or pasted or framed)
                )
            if len(out) >= MAX_CANDIDATES:
                logger.info("turn capped at %d memory candidates", MAX_CANDIDATES)
                break
        out = _calls_in_a_window(_join_open_ends(_dedupe(out)))
        out = _name_said_apart(_pet_named_next(out, sents), sents)
        out = _named_in_passing(out, text)
        out = _list_siblings(out, text)
        out = _label_denied(out, text)
        out = _taste_named_elsewhere(out)
        out = _birth_year_joined(out, text)
        out = _notes_as_written(out, raw)
        if not retraction and _BARE_CORRECTION_RE.search(text):
            # "说错了，我没养狗", "my mistake, that was my brother": a correction that states
            # nothing new takes the previous turn back ("说错了，是我妹妹过敏": what it states
            # of someone else is nothing new about the user)
            retraction = not any(
                c.intent is Intent.ASSERT and not {"third_party", "negated"} & c.signals
                for c in out
            )
        named = [m.span() for m in NAMED_RETRACT_ZH.finditer(text)] if retraction else []
        if named:
            # "之前跟你说的我不吃辣那条删了吧": the fact named is taken back, not said again
            # (what the turn says after it stands: "刚才说我住广州是打错了，我住深圳")
            out = [
                dataclasses.replace(c, signals=c.signals | {"retraction"})
                if c.intent is Intent.ASSERT
                and (
                    (at_ := text.find((c.value or "")[:2])) < 0
                    or not c.value
                    or any(a <= at_ < b for a, b in named)
                )
                else c
                for c in out
            ]
        if (
            retraction
            and _NAMED_RETRACT_EN.search(text)
            and any(c.intent is Intent.FORGET for c in out)
        ):
            # "scratch the budget": the budget is taken back, not the turn before
            retraction = False
        if retraction:
            out.append(
                Candidate(
                    kind=Kind.FACT,
                    key="",
                    intent=Intent.RETRACT,
                    signals=frozenset({"retraction", "joke"} if joke else {"retraction"}),
                    span=text.strip()[:200],
                )
            )
        elif joke and not out:
            out.append(
                Candidate(
                    kind=Kind.FACT,
                    key="",
                    intent=Intent.RETRACT,
                    signals=frozenset({"joke", "retraction"}),
                    span=text.strip()[:200],
                )
            )
        return out

    def finish(self, candidate: Candidate, turn: Turn, sentence: str) -> Candidate:
        """``candidate``, read by another extractor in ``sentence`` of ``turn``, with the
        signals and scope the rules give a memory read there (a question, a hypothetical,
        a third party's fact, a quote or pasted reply, a joke, a passing state, a one-off
        task, a remark, a past state), so that one gate judges every extractor's output:
        the statement classifier reads "could i be anemic" as a condition, and the gate
        rejects it as a question, as it would a rule's candidate.

        Raises:
            InvalidInputError: an argument of the wrong type.
        """
        if not isinstance(candidate, Candidate) or not isinstance(turn, Turn):
            raise InvalidInputError("finish() takes a Candidate and the Turn it was read in")
        if not isinstance(sentence, str):
            raise InvalidInputError("sentence must be a str")
        text = L.fix_typos(normalize_text(turn.text).translate(L.T2S))
        sent_text = normalize_text(sentence).translate(L.T2S)
        sent = _read_sentence(
            sent_text, turn.at, correcting=CORRECTION_RE.search(sent_text) is not None
        )
        joke = any(rx.search(text) is not None for rx in (JOKE_RE, LAUGH_RE))
        joke = joke or laughed_from(sentences(text)) is not None
        c = _finish(
            candidate, _whole(sent, turn.at), sent, marker=has_explicit_marker(text), joke=joke
        )
        quoted = QUOTED_RE.search(sent_text) is not None
        c = _said_signals(
            c, sent_text, sent_text, quoted=quoted or bool(ASSISTANT_VOICE_RE.search(text))
        )
        return dataclasses.replace(c, extractor=candidate.extractor, span=candidate.span)

    def _sentence_hits(self, sent: Sentence, at: datetime) -> Iterator[tuple[Clause, Candidate]]:
        whole = _whole(sent, at)
        consumed: list[tuple[int, int]] = []
        for _start, _end, c in _claim(whole, _SENTENCE_HANDLERS, consumed):
            yield whole, c
        # a handler whose hint is nowhere in the sentence is not tried on its clauses
        low = sent.text.lower()
        active = tuple(e for e in _CLAUSE_HANDLERS if _hint_matches(e[1], low))
        carry = False  # an "I'm X" clause opened a list: "I'm Nadia, 31, nurse in Leeds"
        liked = False  # the clause before said a taste or pastime of the user's
        head: tuple[str, str] | None = None  # (words before a list's first item, its family)
        for ctext, cstart in clauses(sent.text):
            opened, carry = (
                carry,
                _OPENS_LIST.match(ctext) is not None
                or _STATE_OPENS_LIST.match(ctext) is not None
                or (carry and _APPOSITIVE.match(ctext) is not None and not first_person(ctext)),
            )
            if _overlaps(cstart, cstart + len(ctext), consumed) or len(ctext.strip()) < 2:
                head = None
                continue  # read already, or a lone character that can hold no memory
            clause = Clause(
                ctext,
                cstart,
                sent,
                PERMANENT_RE.search(ctext) is not None,
                third_party(ctext) or (whole.third_party and not first_person(ctext)),
                at,
            )
            if head is not None and (item := _LIST_ITEM.match(ctext)):
                # "I like hiking, trail running, chess and baking": the comma cut the list,
                # each later item is read with the first item's words in front of it
                said = dataclasses.replace(clause, text=head[0] + item.group("item"))
                more = [_sibling(c) for _s, _e, c in _run(said) if _list_family(c) == head[1]]
                for c in more:
                    yield clause, c
                if more:
                    continue
            head = None
            used: list[tuple[int, int]] = []
            mine: list[Candidate] = []
            for _start, _end, c in _claim(clause, active, used):
                head = head or _list_head(ctext, c)
                mine.append(c)
                yield clause, c
            put, carried = _subject_for(ctext), False
            if put is None and liked and (second := _AND_PASTIME.match(ctext)) is not None:
                # "I love hiking and do a lot of bouldering": the second pastime is the
                # user's too, said after a taste of theirs
                put = (second.end(), "i ")
            if put is None and opened and carry:
                # a role noun takes its article back: "nurse in Leeds" -> "i'm a nurse ..."
                job = any(w.strip(".,!") in L.JOB_HEADS for w in ctext.lower().split()[:3])
                put = (len(ctext) - len(ctext.lstrip()), "i'm a " if job else "i'm ")
                carried = True
            if not clause.third_party and put:
                # chat drops the "I": "work as a nurse", "just turned 27", "been vegan for
                # years", "two kids": read the clause with its subject put back after the
                # leading adverbs (what the clause already said as it is keeps its span)
                at_, subject = put
                said = dataclasses.replace(clause, text=ctext[:at_] + subject + ctext[at_:])
                shift = len(subject)
                taken = [(s + shift * (s >= at_), e + shift * (e > at_)) for s, e in used]
                # a move is read on whole sentences: "..., moving to Oslo in May" gets it here
                # (not after a condition: "if I get the job, moving to Oslo")
                moves = tuple(
                    e
                    for e in _SENTENCE_HANDLERS
                    if e[0] is h_move and _CONDITION.match(sent.text) is None
                )
                for _start, _end, c in _claim(said, moves + _CLAUSE_HANDLERS, taken):
                    if carried and c.key.startswith("name"):
                        continue  # "I'm Priya, London": a list item is no second name
                    used.append((max(at_, _start - shift), max(at_, _end - shift)))
                    mine.append(c)
                    yield clause, c
            if not used and not clause.third_party and (we := _WE_RX.match(ctext)):
                # the household speaks as "we": "we live in Leeds", "our dog is called Max",
                # "we have three kids": read as the user's own, for household keys only
                as_i = _AS_I[" ".join(we.group(1).lower().split())]
                said = dataclasses.replace(
                    clause, text=ctext[: we.start(1)] + as_i + ctext[we.end(1) :]
                )
                for _s, _e, c in _claim(said, _MOVES + _CLAUSE_HANDLERS, []):
                    if c.key.startswith(_HOUSEHOLD):
                        used.append((we.start(1), len(ctext)))
                        yield clause, c
            if not used and not clause.third_party and (plain := L.without_habit(ctext)) != ctext:
                # "I usually speak Spanish": read again without the habit adverb
                said = dataclasses.replace(clause, text=plain)
                for _s, _e, c in _claim(said, _CLAUSE_HANDLERS, []):
                    used.append((0, len(ctext)))
                    yield clause, c
            if not used:
                for _s, _e, c in h_bare_value(clause):
                    used.append((_s, _e))
                    yield clause, c
            if not used:
                for _s, _e, c in h_rule(clause):
                    used.append((_s, _e))
                    yield clause, c
            if not used:
                for _s, _e, c in h_note(clause):
                    yield clause, c
            liked = any(_list_family(c) == "taste:like" for c in mine)


#: A clause that starts with a first-person verb and no subject ("live in leeds", "work as
#: a nurse", "just turned 27", "been vegan for years"); a third-person verb ("lives") or an
#: imperative one ("take me to ...") is not read this way.
_LEAD_EN = (
    r"^\W*(?:(?:also|and|but|so|currently|still|now|just|mostly|usually|actually|honestly"
    r"|basically|always|happily|recently|newly)\s+)*"
)
_NOT_OBJECT = r"\b(?!\s+(?:me|us|him|her|them|it)\b)"
#: (subject to put back, clause start it fits): a verb takes "i", a state "i'm", "been"
#: "i've", a counted noun ("two kids", "2 cats") "i have".
_SUBJECTLESS_EN = (
    (
        "i ",
        re.compile(
            _LEAD_EN + r"(?:live|living|work|working|turned|moved|speak|got|take|taking|use|using"
            r"|pay|fly|prefer|grew\s+up|have\s+(?:a|an|one|two|three|four|five|\d)\b|get"
            r"|gotta\s+take|have\s+to\s+take|need\s+to\s+take|used\s+to\s+live|keep"
            r"|can't|cannot|can\s+not)" + _NOT_OBJECT,
            _I,
        ),
    ),
    (
        "i'm ",
        re.compile(
            _LEAD_EN + r"(?:allergic|intolerant|fluent|married|divorced|engaged|single|retired"
            r"|unemployed|based|into|obsessed|widowed|separated|self[\s-]employed|passionate"
            r"|hooked|addicted|crazy\s+about|mad\s+about|learning|moving\s+to|relocating\s+to)\b",
            _I,
        ),
    ),
    ("i've ", re.compile(_LEAD_EN + r"been\b", _I)),
    (
        "i have ",
        re.compile(
            r"^\W*(?:a|an|one|two|three|four|five|six|\d)\s+(?:kids?|children|child|sons?"
            r"|daughters?|cats?|dogs?|rabbits?|hamsters?|parrots?|birds?)\b",
            _I,
        ),
    ),
)


_LEAD_RX = re.compile(_LEAD_EN, _I)
#: A clause that is a second pastime with its own verb, after "and" ("and do pottery on
#: weekends", "and also play chess"); the subject goes back before the verb.
_AND_PASTIME = re.compile(
    r"^\W*and\s+(?:also\s+|even\s+|still\s+)?(?=" + PASTIME_VERB + r"\s+(?!(?:you|not|it|that|this"
    r"|them|so|me|my|the\s+(?:dishes|laundry|shopping|cooking|cleaning|school\s+run)|our|his|her"
    r"|their|your|nothing|work|chores|housework|homework|errands|home|back|to|out|there)\b))",
    _I,
)
#: A sentence that opens with a condition: what its main clause plans hangs on it.
_CONDITION = re.compile(r"^\W*(?:if|unless|once|when|whenever|in\s+case)\b", _I)
#: A clause whose subject is the user's household ("we", "our"): what it says of home,
#: family, pets and diet is the user's too (not "our team", not what "we" did once).
_WE_RX = re.compile(
    _LEAD_EN
    + r"(our\s+family(?:'s|\s+is|\s+are)|(?:my\s+family|my\s+wife|my\s+husband|my\s+partner)"
    r"\s+and\s+i(?:'re|\s+are)|we're|we\s+are|we've|we\s+have|we|our)\b",
    _I,
)
_AS_I = {
    "our family's": "i'm",
    "our family is": "i'm",
    "our family are": "i'm",
    "my family and i are": "i'm",
    "my family and i're": "i'm",
    "my wife and i are": "i'm",
    "my husband and i are": "i'm",
    "my partner and i are": "i'm",
    "we're": "i'm",
    "we are": "i am",
    "we've": "i've",
    "we have": "i have",
    "we": "i",
    "our": "my",
}
_HOUSEHOLD = ("location.", "family.", "pet.", "diet", "relationship.")
#: A clause that opens a list of appositives about the speaker ("I'm Nadia, 31, nurse in
#: Leeds", "im a nurse, 40, based in york"): the following bare noun phrases and numbers
#: are read with "i'm" put back, as the keyed handlers only (no note is made of them).
_OPENS_LIST = re.compile(
    r"^\W*(?:(?:so|well|ok|okay|hey|hi|hello|yeah)\W+)*(?:i(?:'m|\s+am)|(?:my\s+)?name(?:'s|\s+is))"
    r"\s+\S",
    _I,
)
#: A subject-less state opens the same list: "Retired, 67, widowed", "married, 2 kids".
_STATE_OPENS_LIST = re.compile(
    r"^\W*(?:retired|married|divorced|widowed|single|engaged|vegan|vegetarian|unemployed)\W*$",
    _I,
)
#: A bare noun phrase or number, no verb, pronoun or conjunction in front.
_APPOSITIVE = re.compile(
    r"^\W*(?!(?:and|but|so|or|because|if|when|though|although|which|who|that|this|it|he|she"
    r"|they|we|you|my|his|her|their|our|your|please|pls|thanks|thank|not|no|never|lol|haha"
    r"|btw|also|is|are|was|were|do|does|did|can|could|would|will|should)\b)"
    r"(?:\d{1,2}\W*$|[a-z][a-z'-]*(?:\s+[a-z][a-z'-]*){0,4}\W*$)",
    _I,
)


#: A bare list item after a comma: one to three words, or two such joined by "and"/"or",
#: with no verb, pronoun, preposition or filler ("trail running", "chess and baking").
_ITEM_WORD = (
    r"(?!(?:i|i'm|im|me|my|you|it|that|this|they|we|he|she|so|but|because|if|when|though"
    r"|please|pls|plz|thanks|thx|not|no|never|lol|haha|btw|tbh|fyi|also|too|especially"
    r"|mostly|mainly|really|honestly|though|usually|sometimes|etc|in|on|at|to|for|with"
    r"|from|by|of|about|is|are|was|were|be|been|do|does|did|can|could|would|will|should"
    r"|have|has|had|get|got|and|or|the|a|an|just|only|even|very|all|any|some|more|other"
    r"|reasons?|stuff|things?|anyway|obviously|personally|actually|basically|literally"
    r"|seriously|sadly|apparently|cheers|ok|okay|yeah|yes|sure|right|now|today|tonight"
    r"|lately|again|always|either|here|there|mate|guys|everything|anything|nothing"
    r"|something|whatever|ever)\b)"
    r"[a-z][a-z0-9'-]*"
)
_LIST_ITEM = re.compile(
    # a later item may carry its level: "Polish and English, and a little German"
    r"^\s*(?:(?:and|or|&)\s+)?(?:(?:a\s+(?:little|bit)(?:\s+of)?|basic)\s+)?(?P<item>"
    + _ITEM_WORD
    + r"(?:\s+"
    + _ITEM_WORD
    + r"){0,2}(?:\s+(?:and|or|&)\s+"
    + _ITEM_WORD
    + r"(?:\s+"
    + _ITEM_WORD
    + r"){0,2})?)\W*$",
    _I,
)
_LIST_TAIL = re.compile(r"^\W*$")


def _list_family(c: Candidate) -> str | None:
    """The list a candidate is an item of ("taste:like", "allergy", "language"), if any."""
    if c.intent is not Intent.ASSERT:
        return None
    if c.key.startswith(("taste.", "interest.", "recommend.")):
        return c.key.split(".")[0] + ":" + c.normalized
    row = taxonomy.spec(c.key)
    return row.key.split(".")[0] if row is not None and row.value_type == "list" else None


def _list_head(clause: str, c: Candidate) -> tuple[str, str] | None:
    """(the words before the item, the list family) when ``c``'s item ends ``clause``."""
    family = _list_family(c)
    if family is None:
        return None
    item = c.key.split(".", 1)[1].replace("_", " ") if family.startswith("taste:") else c.value
    pos = clause.lower().rfind(item.lower()) if item else -1
    if pos <= 0 or not _LIST_TAIL.match(clause[pos + len(item) :]):
        return None
    return clause[:pos], family


_LIST_JOIN = (
    r"\s*(?:,|&|\+|\band\b|\bor\b|\bplus\b)\s*(?:(?:a|an|one|two|three|four|five|\d+|some)\s+)?"
)


def _list_siblings(cands: list[Candidate], text: str) -> list[Candidate]:
    """Two items of one list read by two rows under the same bare key ("two cats and a dog":
    ``pet.species`` = cat, ``pet.species`` = dog): the later one becomes a sibling, so the
    second item does not replace the first. Only items the text joins as a list ("X and a
    Y"): "milk upsets me, I'm lactose intolerant" names one substance twice."""
    seen: dict[str, Candidate] = {}
    out: list[Candidate] = []
    for c in cands:
        row = taxonomy.spec(c.key) if c.intent is Intent.ASSERT else None
        if row is None or row.key != c.key or row.value_type != "list" or c.correction:
            out.append(c)
            continue
        first = seen.setdefault(c.key, c)
        joined = first is not c and re.search(
            re.escape(first.value)
            + _LIST_JOIN
            + re.escape(c.value)
            + "|"
            + re.escape(c.value)
            + _LIST_JOIN
            + re.escape(first.value),
            text,
            _I,
        )
        out.append(_sibling(c) if joined and first.normalized != c.normalized else c)
    return out


#: Keys a trailing laugh does not take back (a pet named with "lol" is still the pet).
_LAUGH_PROOF = ("pet.",)
#: An emergency exception said on its own, after calls were refused in a sentence before.
_EMERGENCY_OK = re.compile(
    r"^\W*(?:(?:but|unless|except|although|though|well)\W+)?(?:only\s+)?(?:if|when|unless|in\s+case\s+of|for)?\s*"
    r"(?:it's|its|it\s+is|there's|theres|there\s+is)?\s*(?:a\s+|an\s+)?(?:real|genuine|true|actual|proper|big)?\s*"
    r"(?:emergenc(?:y|ies)|life\s+or\s+death)\b[^.!?]{0,40}?\b(?:then\s+)?(?:ok|okay|fine|sure|alright|all\s+right"
    r"|go\s+ahead|that's\s+(?:ok|okay|fine)|you\s+can|different)\b",
    _I,
)
#: "I take it every day" right after a sentence that named a drug ("can I drink on warfarin?
#: I take it every day"): the pronoun is the drug.
_TAKE_IT = re.compile(
    r"^(?P<head>\W*(?:(?:and|but|well|yes|yeah|yep)\W+)?i(?:'ve|\s+have)?\s+(?:(?:already|also|still|actually)\s+)?"
    r"(?:take|use|been\s+taking|been\s+on|'m\s+on|am\s+on))\s+(?:it|them)\b",
    _I,
)
_DRUG_NAMED = re.compile(r"\b(?:" + alt(k for k in L.MEDICATIONS if k.isascii()) + r")\b", _I)


#: "asking for myself", "it's for me", "got diagnosed last year" after a question about a
#: condition ("what snacks are ok for type 2 diabetics?"): the condition is the user's.
_FOR_MYSELF = re.compile(
    r"^\W*(?:(?:and|but|oh|well|btw)\W+)?(?:(?:i'm|i\s+am)\s+)?(?:asking|it's|its|it\s+is|this\s+is)\s+for\s+"
    r"(?:myself|me)\b|^\W*(?:i\s+)?(?:just\s+|recently\s+|only\s+)?got\s+diagnosed\s+(?!with\b)",
    _I,
)
_CONDITION_NAMED = re.compile(
    r"\b(" + alt(k for k in L.CONDITIONS if k.isascii() and len(k) > 3) + r")s?\b", _I
)


def _drug_named_before(sents: list[str]) -> list[str]:
    """The sentences with "it" put back as the drug the sentence before named, and a
    condition asked about put before "asking for myself"."""
    out = list(sents)
    for n in range(1, len(sents)):
        m = _TAKE_IT.match(sents[n])
        drugs = _DRUG_NAMED.findall(sents[n - 1]) if m else []
        if m and len(set(d.lower() for d in drugs)) == 1:
            out[n] = m.group("head") + " " + drugs[0] + sents[n][m.end() :]
        elif _FOR_MYSELF.match(sents[n]):
            named = {c.lower() for c in _CONDITION_NAMED.findall(sents[n - 1])}
            if len(named) == 1:
                out[n] = f"I have {named.pop()}. {sents[n]}"
    return out


def _notes_as_written(cands: list[Candidate], raw: str) -> list[Candidate]:
    """A free-form note keeps the user's own characters: the rules read Traditional Chinese
    as Simplified ("我不會開車" is read as 我不会开车), so a note's words are taken back from
    the turn as written; the Simplified reading stays in ``normalized`` for matching."""
    written = normalize_text(raw)
    read = written.translate(L.T2S)
    if read == written:
        return cands  # nothing was converted: the note is already as written
    out = []
    for c in cands:
        at = read.find(c.value) if c.key.startswith("note.") and c.value else -1
        if at >= 0 and (said := written[at : at + len(c.value)]) != c.value:
            c = dataclasses.replace(c, value=said, normalized=c.normalized or c.value)
        out.append(c)
    return out


def _sibling(c: Candidate) -> Candidate:
    """A later item of a list as ``<key>.<slug>``, beside the first one, not replacing it."""
    row = taxonomy.spec(c.key)
    if row is None or row.key != c.key:
        return c
    return dataclasses.replace(c, key=f"{c.key}.{L.slugify(c.normalized)}")


#: A profile bio of short dotted fragments with a bare age: "34. nurse. mum of 2. vegan."
_BIO_FRAGMENT = re.compile(r"[^.!?|\n]{1,40}?(?:\.|\s*\||$)")
_BIO_AGE = re.compile(r"^\s*(?:1[3-9]|[2-9]\d)\s*[.|]?$")
_DOTTED_NUMBER = re.compile(r"\d\.\d")


def _bio_as_list(text: str) -> str:
    """A dotted bio read as the list it is: "i'm 34, nurse, mum of 2, vegan"."""
    if len(text) > 200 or "," in text or text.count(".") + text.count("|") < 2:
        return text
    if _DOTTED_NUMBER.search(text):
        return text  # "Date of birth: 1979.11.30", "4.5k": the dots are inside a number
    frags = [m.group(0) for m in _BIO_FRAGMENT.finditer(text) if m.group(0).strip(" .|")]
    if (
        len(frags) < 3
        or "".join(frags).strip() != text.strip()
        or not any(_BIO_AGE.match(f) for f in frags)
        or any(len(f.split()) > 4 or first_person(f) for f in frags)
    ):
        return text
    first = frags[0].split()[0].lower().strip(" .|")
    return ("i'm a " if first in L.JOB_HEADS else "i'm ") + ", ".join(f.strip(" .|") for f in frags)


#: A message signed with the user's name: "...? Thanks, Priya", "Cheers,\nTom", "Best
#: regards,\nHannah Okafor", "\n- Lukas", "ok that works for me - Marcus". The sign-off
#: closes the message; the name is read as "my name is X" in a sentence of its own.
_SIGNOFF = re.compile(
    r"(?:(?<=[.!?:)\n])|^)[ \t]*(?P<off>(?:(?:many|thanks?|thank\s+you)\s+)?"
    r"(?:thanks|thank\s+you|thx|cheers|ta"
    r"|(?:best|kind|warm|warmest|many)\s+(?:regards|wishes)|regards|best|all\s+the\s+best|sincerely"
    r"|yours(?:\s+(?:truly|sincerely))?|take\s+care|talk\s+soon|love)"
    r"(?:\s+(?:again|so\s+much|a\s+lot|in\s+advance))?)[ \t]*[,!.]?[ \t]*\n?[ \t]*"
    r"(?P<n>(?-i:[A-Z][a-z'-]+)(?:[ \t]+(?-i:[A-Z][a-z'-]+))?)[ \t]*[.!]?\s*$"
    r"|(?:\n|(?<=\w)[ \t]+)[ \t]*[-\u2013\u2014~][ \t]*"
    r"(?P<n2>(?-i:[A-Z][a-z'-]+)(?:[ \t]+(?-i:[A-Z][a-z'-]+))?)[ \t]*$",
    _I,
)
#: A lowercase sign-off on a line of its own, after a dash or after a line closing with
#: thanks or a kiss: "thanks for the help!\n- tom", "perfect, thanks so much x\nellie".
_SIGNOFF_LOWER = re.compile(
    r"(?:\n[ \t]*[-\u2013\u2014~][ \t]*"
    r"|(?:\b(?:thanks|thank\s+you|thx|cheers|ta)(?:\s+(?:again|so\s+much|a\s+lot))?|\sx{1,3})"
    r"[ \t]*[!.]*[ \t]*\n[ \t]*)"
    r"(?P<n>[a-z][a-z'-]{1,15})[ \t]*[.!]?\s*$"
)
#: Who a closing "thanks, X" thanks when it is not the user signing: assistants and crowds.
_NOT_SIGNER = frozenset(
    (
        *("claude", "chatgpt", "gpt", "siri", "alexa", "google", "gemini", "copilot", "bot"),
        *("assistant", "buddy", "mate", "man", "dude", "bro", "all", "everyone", "guys"),
        *("team", "folks", "love", "dear", "hon", "sir", "madam", "so", "again", "lots"),
    )
)


def _signoff_as_name(text: str) -> str:
    """A trailing sign-off said again as the sentence it means: "... my name is Priya."."""
    if len(text) > 4000 or text.count("\n") > 60:
        return text
    m = _SIGNOFF.search(text, max(0, len(text) - 120))
    if m is None or m.start() == 0:
        ml = _SIGNOFF_LOWER.search(text, max(0, len(text) - 120))
        if ml is None or ml.start() == 0 or not lower_name_ok(ml.group("n")):
            return text
        return f"{text[: ml.start()].rstrip()}\nmy name is {ml.group('n').capitalize()}."
    name = m.group("n") or m.group("n2") or ""
    if (
        not name
        or name.split()[0].lower() in _NOT_SIGNER
        or not_a_name(name)
        or L.lookup(L.FOODS, name) is not None
        or (m.group("n2") and len(name.split()) > 1 and "\n" not in m.group(0))
    ):
        return text
    off = (m.group("off") or "").strip()
    return f"{text[: m.start()].rstrip()}\n{off + '.' if off else ''}\nmy name is {name}."


#: Chinese chat drops the "我" too: "现居杭州", "吃素第五年了", "离婚好几年了", "对芒果过敏",
#: "大三学生": a clause that opens with one of these predicates (after a time adverb) is
#: read with its subject put back ("我", or "我是" before a school year); "吃素的人…" is
#: about people who do, not the user.
#: A drug by its name's ending, with its verb: "吃氨氯地平", "服二甲双胍".
_DRUG_TAKEN_ZH = (
    r"(?:吃|服用?)[\u4e00-\u9fff]{1,6}(?:地平|沙坦|普利|洛尔|他汀|双胍|胰岛素|格列[\u4e00-\u9fff]{1,2}|嘌醇"
    r"|左甲状腺素|甲巯咪唑)(?=$|[，,。]|片)"
)
_SUBJECTLESS_ZH = (
    (
        "我",
        re.compile(
            r"^\W*(?:已经|目前|现在|一直|平时)?(?![^，,。]{0,8}的(?:人|朋友|家庭|话))(?=现居|现住|常住|定居|吃素|吃全素|吃斋|离婚|离异|已婚|未婚"
            r"|丧偶|退休|对[\u4e00-\u9fff]{1,8}过敏|[\u4e00-\u9fff]{1,3}不耐受|(?:只)?吃清真"
            # a drug taken, after the condition it treats: "我有高血压，在吃氨氯地平"
            r"|(?:在|正在|每天|长期)"
            + _DRUG_TAKEN_ZH
            # where one lives, said again: "(我是厦门人，)现在也在厦门生活"
            + r"|(?:也|还)?(?:住)?在[\u4e00-\u9fff]{2,4}(?:生活|定居|安家)(?=$|[，,。]))"
        ),
    ),
    ("我是", re.compile(r"^\W*(?=[大研博高初][一二三四五六](?:的)?学生)")),
    # a drug said with only its verb is taken now: "(我有高血压，)吃缬沙坦" reads "我在吃缬沙坦"
    ("我在", re.compile(r"^\W*(?=" + _DRUG_TAKEN_ZH + ")")),
)


def _subject_for(clause: str) -> tuple[int, str] | None:
    """Where a subject-less first-person clause dropped its subject, and which one."""
    for subject, rx in _SUBJECTLESS_EN:
        if rx.match(clause):
            lead = _LEAD_RX.match(clause)
            return (lead.end() if lead else 0), subject
    for subject, rx in _SUBJECTLESS_ZH:
        if m := rx.match(clause):
            return m.end(), subject
    return None


def _overlaps(start: int, end: int, spans: list[tuple[int, int]]) -> bool:
    return any(start < e and s < end for s, e in spans)


def _whole(sent: Sentence, at: datetime) -> Clause:
    """The whole sentence as one clause (what sentence-wide handlers read)."""
    return Clause(
        sent.text, 0, sent, PERMANENT_RE.search(sent.text) is not None, third_party(sent.text), at
    )


#: "here in X", "as someone living in X": where the speaker is, inside a remark on a thing.
_HERE_IN_RE = re.compile(
    r"\bhere\s+in\s+\w|\bas\s+(?:someone|somebody|a\s+person|an?\s+[a-z]+)\s+(?:who\s+lives|living|based)\s+in\b",
    re.IGNORECASE,
)


def _said_signals(c: Candidate, clause_text: str, sent_text: str, *, quoted: bool) -> Candidate:
    """``c`` with the signals of how its clause was said: quoted or pasted, a remark about
    a thing or a trend, a past state."""
    signals = set(c.signals)
    if quoted:
        signals.add("quoted")
    if generic_remark(clause_text, sent_text) and not (
        c.key.startswith("location.") and _HERE_IN_RE.search(clause_text)
    ):
        signals.add("generic")  # ("the rain here in Glasgow ..." still says where the user is)
    if c.intent is Intent.ASSERT and past_state(clause_text, c.key, sent_text):
        signals.add("past")
    return (
        c if len(signals) == len(c.signals) else dataclasses.replace(c, signals=frozenset(signals))
    )


def _read_sentence(sent_text: str, at: datetime, *, correcting: bool) -> Sentence:
    """The flags of one sentence that apply to every candidate read in it."""
    return Sentence(
        text=sent_text,
        question=is_self_question(sent_text),
        hypothetical=HYPOTHETICAL_RE.search(sent_text) is not None
        or MAYBE.search(sent_text) is not None
        or MODAL_RE.search(sent_text) is not None,
        correction=correcting,
        implicit_cue=IMPLICIT_CUE_RE.search(sent_text) is not None
        and REFUSED_AGAIN_RE.search(sent_text) is None,
        scope=scope_of(sent_text),
        valid_until=parse_until(sent_text, at),
        transient=TRANSIENT_RE.search(sent_text) is not None,
        task=TASK_RE.search(sent_text) is not None,
    )


#: The user buying for someone: "给我爸买按摩椅", "帮我老婆挑个包", "想给我妈订个酒店".
_BUY_FOR_ZH = re.compile(
    r"^\W*(?:我)?(?:想|要|打算|准备)?(?:帮|给|替|为)我的?[\u4e00-\u9fff]{1,3}?(?:买|挑|选|订|购|置办|淘)"
)


def _finish(c: Candidate, clause: Clause, sent: Sentence, *, marker: bool, joke: bool) -> Candidate:
    signals = set(c.signals)
    interest = c.key.startswith("interest.")
    if marker:
        signals.add("explicit_marker")
    if sent.question and not interest and not declared_aside(clause.text, sent.text):
        signals.add("question")
    if sent.hypothetical:
        signals.add("hypothetical")
    couple = c.key == "relationship.status" and _COUPLE.search(sent.text) is not None
    # "my wife Grace and I are moving to Accra": the user moves with them
    couple = couple or (c.key.startswith("location.") and _WITH_ME.search(sent.text) is not None)
    # "I'm Tomasz, but Tom is fine": the short form offered is the user's own name
    offered = c.key == "name.preferred" and SHORT_IS_FINE.match(clause.text) is not None
    # "给我爸买按摩椅，预算一万出头": the user buys for someone, the budget is the user's
    # (said in a clause of its own: "帮我老公挑手机，他预算三千" stays his)
    buyer = (
        c.key.startswith("budget.")
        and _BUY_FOR_ZH.search(sent.text) is not None
        and not third_party(clause.text)
    )
    # "my son sleeps early, so no messages after 9": a request to the assistant in a clause of
    # its own keeps the user's contact away, whoever the sentence spoke of before
    asked = (
        c.key.startswith("contact.")
        and not third_party(clause.text)
        and _ASKED_AWAY.match(clause.text) is not None
        and _OTHER_OBJECT.search(clause.text) is None
    )
    if (
        clause.third_party
        and not c.key.startswith("family.")
        and not couple
        and not offered
        and not buyer
        and not asked
    ):
        signals.add("third_party")
    if joke:
        signals.add("joke")
    # a passing state ("I have a headache this morning", "drinking a coffee as we speak")
    # is no durable note or event; the keyed facts ("我现在住成都") stay
    if sent.transient and not clause.permanent and _passing(c.key, sent.text):
        signals.add("transient")
    if (
        c.key.startswith(("diet", "taste.", "food.", "medication"))
        and not clause.permanent
        and _FOR_NOW_ZH.search(sent.text) is not None
        and _FROM_NOW_ZH.search(sent.text) is None
        and _DIAGNOSED_RE.search(sent.text) is None
    ):
        signals.add("transient")  # "今天我吃素", "这几天在吃布洛芬止痛": for now only
    if c.key.startswith("budget.") and not clause.permanent and _THIS_TRIP_ZH.search(clause.text):
        signals.add("task")  # "这趟预算五百以内", "这次出差预算两千": for this one only
    if (
        c.key.startswith("budget.")
        and not clause.permanent
        and _NOW_BUDGET_ZH.search(sent.text) is not None
        and _FROM_NOW_ZH.search(sent.text) is None
    ):
        signals.add("transient")  # "这个月手头紧 预算只有五百": this month's, not a standing limit
    if (
        c.key.startswith(("contact.", "language", "response.", "accessibility", "payment."))
        and not clause.permanent
        and _FOR_NOW_ZH.search(sent.text) is not None
        and _FROM_NOW_ZH.search(sent.text) is None
    ):
        # "今天别给我打电话", "今天用英文跟我聊吧", "这几天眼睛不好，字大一点", "今天用微信付吧":
        # for now only
        signals.add("transient")
    if (
        c.key.startswith("recommend.")
        and not clause.permanent
        and (
            _THIS_TIME_ZH.search(clause.text) is not None
            or _FOR_NOW_ZH.search(sent.text) is not None
        )
        and _FROM_NOW_ZH.search(sent.text) is None
    ):
        signals.add("task")  # "这次别推荐理财产品了": this answer's, not a standing refusal
    if c.key.startswith("contact.") and _OTHERS_QUIET_ZH.search(sent.text):
        signals.add("third_party")  # "晚上十一点后别打扰我老公": his hours, not the user's
    if (
        c.key.startswith("contact.call")
        and c.value == "allowed"
        and _MAY_I_CALL_ZH.search(sent.text) is not None
    ):
        signals.add("question")  # "打电话可以吗", "给你打电话可以吗": asked, not allowed
    if c.intent is Intent.ASSERT and _NOT_ME_ZH.match(clause.text):
        signals.add("negated")  # "不是我对花生过敏": someone else, not the user
    if c.key.startswith("contact.") and not clause.permanent and _BRIEF_ZH.search(sent.text):
        signals.add("transient")  # "我下午要开会别打电话": not a standing rule
    if (
        sent.task
        and not marker
        and not clause.permanent
        and not _reason_after_task(clause)
        and not _limit_after_task(c.key, clause)
    ):
        signals.add("task")
    explicit = c.explicit or ((marker or clause.permanent) and not interest)
    correction = sent.correction and not interest and c.intent is Intent.ASSERT
    return dataclasses.replace(
        c,
        explicit=explicit or correction,
        correction=correction or c.correction,
        permanent=c.permanent or (clause.permanent and c.kind is Kind.CONSTRAINT),
        scope=sent.scope if c.scope is Scope.GLOBAL else c.scope,
        valid_until=c.valid_until or sent.valid_until,
        span=sent.text.strip()[:500],
        signals=frozenset(signals),
        extractor="rules",
    )


#: A later clause of a one-off request that says something of the user in their own
#: words, the reason for the request: "帮我推荐个餐厅，我吃素", "查下附近医院，我住南京"
#: ("…，我要靠窗的" / "…，我想住两晚" ask for this one booking and stay one-off).
#: A clause that asks the assistant to keep away: "so no messages ...", "please nothing after".
_ASKED_AWAY = re.compile(
    r"^\W*(?:(?:so|and|but|then|therefore|hence)\W+)?(?:please\s+|pls\s+|kindly\s+)?(?:no|nothing|don't"
    r"|do\s+not|dont|never)\b",
    _I,
)
_OTHER_OBJECT = re.compile(r"\b(?:him|her|them|his|their|hers|theirs)\b", _I)
_SELF_REASON_ZH = re.compile(r"^\W*(?:因为|毕竟|反正|而且|不过|对了)?我(?![们要想需得])")
#: The same in English: "find me a laptop, I don't want to go over 900", "suggest dinner,
#: I'm gluten-free" ("…, I want the window" / "I'd like two nights" stay one-off).
_SELF_REASON_EN = re.compile(
    r"^\W*(?:(?:because|since|as|cause|cuz|coz|bc|and|but)\s+)?i(?:'m|\s+am|'ve|\s+have|\s+can't"
    r"|\s+cannot|\s+don't|\s+do\s+not|\s+never|\s+only|\s+always)\b",
    _I,
)


#: A later clause that rates something for the user, a standing preference or limit
#: beside the one-off request: "text me when it ships, SMS is best for me", "find me a
#: jacket, 120 is my max", "ping me on Telegram, that's the easiest way to reach me".
_SELF_RATING_EN = re.compile(
    r"\b(?:is|are|'s|works?)\s+(?:always\s+|usually\s+|just\s+)?(?:the\s+)?(?:best|easiest|better"
    r"|preferred|ideal|quickest|fastest|simplest)(?:\s+(?:way|option|channel))?\s+(?:for|to\s+(?:reach"
    r"|contact|get\s+hold\s+of))\s+me\b|\b(?:is|'s)\s+my\s+(?:limit|max(?:imum)?|budget|ceiling|cap)\b",
    _I,
)


#: A spending limit said in its own clause after a Chinese request: "帮我挑个手机，预算两千五",
#: "帮我看下沙发，五千到八千之间" (a bare price, "…，五百块左右", and a limit inside the request,
#: "给我推荐几个三千以内的手机", stay with the one-off request).
_LIMIT_WORDS_ZH = re.compile(
    r"预算|以内|之内|不超过|别超过|不要超过|不能超过|不能高于|最多|封顶|上限|之间|至少|起码|最少"
)


def _limit_after_task(key: str, clause: Clause) -> bool:
    """Whether a budget candidate is a limit named in words beside a one-off request."""
    return (
        key.startswith("budget.")
        and clause.start > 0
        and TASK_RE.search(clause.text) is None
        and _LIMIT_WORDS_ZH.search(clause.text) is not None
    )


def _reason_after_task(clause: Clause) -> bool:
    """Whether ``clause`` is a first-person reason given after a one-off request, not the
    request itself (its facts are lasting ones: "帮我找个早餐店，我乳糖不耐")."""
    return (
        clause.start > 0
        and TASK_RE.search(clause.text) is None
        and (
            _SELF_REASON_ZH.match(clause.text) is not None
            or _SELF_REASON_EN.match(clause.text) is not None
            or _SELF_RATING_EN.search(clause.text) is not None
        )
    )


#: Asking whether a call is fine ("打电话可以吗", "给你打电话方便吗"), with no "me" to call
#: ("可以打电话给我吗" asks to be called).
_MAY_I_CALL_ZH = re.compile(r"^(?!.*(?:给我|打我|打给我|联系我|call我)).*[吗么]\W*$")
#: A laughing face: "😂", "🤣".
_LAUGH_FACE = re.compile("[😂🤣]")
#: A laugh that opens a sentence: "哈哈你好可爱", "lol you're funny".
_OPENING_LAUGH = re.compile(r"^\W*(?:哈哈+|嘿嘿+|lol|lmao|haha+|hehe+)", _I)
#: A free-form self-label note: "我是坚定的肉食主义者", "我是地球人".
_SELF_LABEL_NOTE_ZH = re.compile(r"^\W*我(?:就|也|可|真|本来就)?是")
#: "diagnosed with diabetes this morning" is news of a lasting condition, not a passing one.
#: This one trip or order: a budget said with it is for this one only ("这次最多花800"
#: is read as the user's limit, as dev16zh has it).
_THIS_TRIP_ZH = re.compile(r"这趟|这一趟|这单")
#: This once: "这次别推荐理财了", "这回先别推" (a refusal for this answer only).
_THIS_TIME_ZH = re.compile(r"这次|这回|本次|这一次")
_DIAGNOSED_RE = re.compile(r"\bdiagnos|确诊|查出|诊断", _I)


def _passing(key: str, sentence: str) -> bool:
    """Whether a candidate said with a present-moment word is a passing state: a note, an
    event, or a condition that was not just diagnosed ("a migraine this afternoon")."""
    if key.startswith(("note.", "event.")):
        return True
    if key.startswith("medication") and COURSE_RE.search(sentence):
        return True  # "I'm on antibiotics for a week": a course, not a standing medication
    return key.startswith("health.condition") and _DIAGNOSED_RE.search(sentence) is None


#: A span of days or a meeting that makes a contact rule a one-off: "我下午要开会别打电话",
#: "这几天别打电话给我" ("下午打" or "中午到下午两点" are standing times of day).
_BRIEF_ZH = re.compile(r"这几天|这两天|这会儿|待会儿?|一会儿|这周|本周|要开会|在开会|在忙")


#: "my sister and I", "me and my wife": the user is one of the subject.
_WITH_ME = re.compile(
    r"\band\s+(?:i|me)\s+(?:(?:both|just|recently|finally|now|currently|also)\s+)?(?:are|were|have|'ve"
    r"|will|'ll|live|moved|relocated|'re)\b",
    re.IGNORECASE,
)


#: A meal or a few days: what is eaten or taken then is for now ("今天我吃素", "这几天在吃
#: 布洛芬"), unless it starts something ("从今天起我吃素", "我今天开始吃二甲双胍").
_FOR_NOW_ZH = re.compile(
    r"今天|今晚|这顿|这餐|这几天|这两天|这(?:个)?(?:礼拜|星期)|这周(?!末)|本周"  # "这礼拜在控糖"
    r"|这个月|本月"  # "这个月戒酒", "这个月别给我打电话"
)
#: A spending limit for now: this month's or this week's ("这个月手头紧 预算只有五百", "本月预算
#: 三千以内"), or money tight lately ("最近手头紧，三百以内") (not "每个月预算五百").
_NOW_BUDGET_ZH = re.compile(
    r"这个月|本月|这月|这周(?!末)|本周|这(?:个)?(?:礼拜|星期)|这几天|这两天|今天|今晚"
    r"|下个?月|下周|下个?礼拜|下个?星期"  # "下个月预算五千": next month's, not a standing limit
    r"|(?:最近|近期|这阵子|这段时间|这段日子|目前|眼下|现在)[^，,。]{0,3}(?:手头|手里|钱|经济|资金)"
    r"[^，,。]{0,3}(?:紧|不宽裕|不富裕|拮据|不多|有限|吃紧)"
)
#: ("十点以后" is a time of the night, not "from now on": "今晚十点以后别找我" is tonight's)
_FROM_NOW_ZH = re.compile(r"开始|起|(?<![点时分号])以后|往后|今后")
#: Someone else as the one not to disturb or to reach: "晚上十一点后别打扰我老公", "别打电话给
#: 她", "别吵孩子睡觉" (the user's own: "别打扰我", "给我老公打电话也行" is read as the user's).
_OTHERS_QUIET_ZH = re.compile(
    r"(?:打扰|吵|吵醒|叫醒|打给|打电话给|发消息给|发信息给|联系)\s*(?:我的?)?(?:老公|老婆|丈夫|妻子|爸|妈|爸爸|妈妈"
    r"|爸妈|父母|孩子|儿子|女儿|宝宝|室友|舍友|家人|爷爷|奶奶|外公|外婆|老人)"
    r"|(?:打扰|吵|吵醒|叫醒|打给|打电话给|联系)\s*(?:他|她)(?!们的?)"
)
#: "不是我对花生过敏", "其实不是我在北京": the user is not the one it is about.
_NOT_ME_ZH = re.compile(r"^\W*(?:其实|而且|但|可|都)?(?:并)?不是我(?![的们])")


#: "my husband and I", "me and my wife", "our anniversary": the user is half of the couple.
_COUPLE = re.compile(
    r"\b(?:and\s+i|and\s+me|me\s+and|we|we're|we've|our|us)\b"
    # a partner who died makes the user a widow(er): "我老伴前年走了"
    r"|(?:老伴|丈夫|老公|妻子|老婆|爱人|先生|太太|媳妇儿?)[\u4e00-\u9fff]{0,3}(?:走了|去世|过世|不在了)",
    re.IGNORECASE,
)


#: A sentence that makes the amount of the question before it the user's limit.
_LIMIT_AFTER = re.compile(
    r"^\W*(?:that(?:'s|\s+is|\s+would\s+be)\s+(?:(?:my|the)\s+(?:absolute\s+|hard\s+|upper\s+)?"
    r"(?:limit|max(?:imum)?|budget|ceiling|cap|top\s+end)|all\s+i\s+(?:can|want\s+to|wanna)\s+"
    r"(?:spend|pay|afford))|(?:i\s+)?can(?:'t|not)\s+(?:spend|pay|afford|go)\s+(?:any\s+)?more"
    r"|(?:i\s+)?(?:don't|do\s+not|won't)\s+want\s+to\s+(?:spend|pay)\s+more)\b",
    _I,
)
_ONE_OFF = frozenset({"task", "question", "hypothetical", "transient"})


def _firmer(new: Candidate, old: Candidate) -> bool:
    """Whether ``new`` states the same value more firmly than ``old``: with fewer one-off
    signals, or as plainly and explicitly where ``old`` was only implied."""
    new_off, old_off = new.signals & _ONE_OFF, old.signals & _ONE_OFF
    return new_off < old_off or (new_off == old_off and new.explicit and not old.explicit)


#: List keys whose first item takes the bare key (``_rules_packs._PLAIN_FIRST``).
_ADDS_UP = frozenset(["allergy.food", "allergy.medication", "allergy.other", "health.condition"])
_CJK_RE = re.compile(f"[{CJK}]")


def _dedupe(cands: list[Candidate]) -> list[Candidate]:
    seen: dict[tuple[str, str, str], int] = {}
    out: list[Candidate] = []
    for c in _refine(cands):
        k = (c.intent.value, c.key, c.normalized)
        if k not in seen:
            seen[k] = len(out)
            out.append(c)
        elif _firmer(c, out[seen[k]]):
            # the same value said twice, once inside a one-off request and once as a
            # standing fact ("text me when it ships, SMS is best for me"): the fact stays
            out[seen[k]] = c
    # two allergens or conditions named in Chinese in two clauses of one turn ("海鲜我过敏，芒
    # 果也过敏"): both stay, the later one as the additive ``<key>.<slug>`` sibling (a
    # correction, which replaces the first, keeps the bare key; English says "also" for it,
    # and reads "milk upsets me, I'm lactose intolerant" as one item said twice)
    firsts: dict[str, str] = {}
    for i, c in enumerate(out):
        if (
            c.intent is not Intent.ASSERT
            or c.key not in _ADDS_UP
            or c.correction
            or not _CJK_RE.search(c.value)
        ):
            continue
        if firsts.setdefault(c.key, c.normalized) != c.normalized:
            out[i] = dataclasses.replace(c, key=f"{c.key}.{L.slugify(c.normalized)}")
    # one item read twice by two rows ("Executive Club" inside "British Airways Executive
    # Club"): the shorter reading of the same family is dropped
    items = [(_family_of(c.key), c.normalized.lower()) for c in out if c.intent is Intent.ASSERT]
    return [
        c
        for c in out
        if c.intent is not Intent.ASSERT
        or not _family_of(c.key)
        or not any(
            fam == _family_of(c.key)
            and len(norm) > len(c.normalized)
            and _inside(c.normalized.lower(), norm)
            for fam, norm in items
        )
    ]


#: The pet's name in a sentence of its own: "got a puppy last week! her name is Daisy".
_PET_NAME_NEXT = re.compile(
    r"^\W*(?:and\s+)?(?:her|his|its|their)\s+names?\s+(?:is|are|'s)\s+"
    r"(?P<n>(?-i:[A-Z])[a-z'-]+)(?:\s+(?:and|&)\s+(?P<n2>(?-i:[A-Z])[a-z'-]+))?\W*$",
    re.IGNORECASE,
)


def _pet_named_next(cands: list[Candidate], sents: list[str]) -> list[Candidate]:
    """A name given right after the sentence that says the user has a pet."""
    pets = [
        c
        for c in cands
        if c.key.startswith("pet.species") and c.intent is Intent.ASSERT and not c.signals
    ]
    if not pets or any(c.key.startswith("pet.names") for c in cands):
        return cands
    for sent in sents[1:]:
        m = _PET_NAME_NEXT.match(sent)
        if m is None:
            continue
        for name in filter(None, (m.group("n"), m.group("n2"))):
            if name.lower() in L.NAME_STOP:
                continue
            cands.append(
                dataclasses.replace(
                    pets[0], key=f"pet.names.{L.slugify(name)}", value=name, normalized=name.lower()
                )
            )
    return cands


#: "no, it's Siobhan, not Sarah. you keep getting my name wrong": the name given as "it's X"
#: in one sentence, the next (or the one before) saying it is the user's name.
_ITS_X = re.compile(
    r"^\W*(?:(?:no|nope|oh|sorry|actually)\W+)*it's\s+(?P<n>(?-i:[A-Z])[a-z'-]+)"
    r"(?:\s*,?\s*not\s+(?-i:[A-Z])[a-z'-]+)?\W*$",
    re.IGNORECASE,
)
_ABOUT_MY_NAME = re.compile(
    r"\b(?:(?:getting|got|spell(?:ing|ed|t)?|say(?:ing)?|write|writing|typed?|misspell(?:ing|ed)?)\s+my\s+name"
    r"|my\s+name\s+(?:wrong|right|is\s+spelt|is\s+spelled))\b",
    re.IGNORECASE,
)


#: Names people type lowercase where the wording marks them as names: a pet or child list
#: after its noun ("i have 2 cats, luna and mochi", "we have twins, ollie and finn"), names
#: in brackets ("my kids (mia 6, leo 9)", "raj (my husband) cooks"), "she's called bella",
#: the pet or partner named before an adverb or a verb ("my dog biscuit hates the hoover",
#: "my wife sarah usually books"), and an employer after the role ("accountant at deloitte").
_LOW = r"[a-z][a-z'-]{1,15}"
_KIDS = r"(?:kids|children|sons|daughters|boys|girls|twins|triplets)"
_PARTNER = r"(?:husband|wife|partner|boyfriend|girlfriend|fianc[eé]e?|hubby|bf|gf)"
_LOW_LIST = rf"(?P<list>{_LOW}(?:\s*(?:,|and|&)\s*{_LOW}){{0,5}})"
_NAMED_RX: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("pet", re.compile(rf"\b(?:{PETS_EN})\s*,\s*{_LOW_LIST}\s*(?:[.!]|$)", re.I)),
    (
        "pet",
        re.compile(
            rf"\b(?:my|our)\s+(?:{PETS_EN})\s+(?P<list>{_LOW})\s+(?:(?:always|never|just|still"
            r"|really|usually|also)\s+)?[a-z]+s\b",
            re.I,
        ),
    ),
    (
        "named",
        re.compile(
            rf"\b(?:(?:she|he|it)(?:'s|\s+is)\s+called|(?:her|his|its)\s+name(?:'s|\s+is))\s+"
            rf"(?P<list>{_LOW})\s*(?:[.!,]|$)",
            re.I,
        ),
    ),
    (
        "child",
        re.compile(
            rf"\b(?:my|our)\s+(?:(?:two|three|four|\d|little|young|lovely|grown)\s+)?{_KIDS}\s*\(\s*(?P<list>{_LOW}\s*\d{{0,2}}(?:\s*(?:,|and|&)\s*{_LOW}\s*\d{{0,2}})"
            r"{0,5})\s*\)",
            re.I,
        ),
    ),
    (
        "child",
        re.compile(
            rf"\b(?:have|got)\s+(?:\w+\s+)?{_KIDS}\s*,\s*(?P<list>{_LOW}(?:\s*(?:,|and|&)\s*{_LOW}){{1,5}})\s*(?:[.!]|$)",
            re.I,
        ),
    ),
    ("partner", re.compile(rf"^\W*(?P<list>{_LOW})\s*\(\s*my\s+{_PARTNER}\s*\)", re.I)),
    (
        "partner",
        re.compile(
            rf"\bmy\s+{_PARTNER}\s+(?P<list>{_LOW})\s+(?:and\s+i\b|(?:usually|always|often|normally"
            r"|mostly|sometimes|also|just)\s+[a-z]+s\b|live\b)",
            re.I,
        ),
    ),
    (
        "employer",
        re.compile(rf"\b(?:at|for)\s+(?P<list>{_LOW})\s*(?:[,.!]|$|(?=\s+as\s+an?\b))", re.I),
    ),
)
#: Nouns that follow a pet word and are no pet's name ("my dog walker charges").
_NOT_PET_NAME = frozenset(
    (
        *("food", "walker", "sitter", "bed", "bowl", "hair", "toy", "toys", "flap", "litter"),
        *("tag", "lead", "leash", "collar", "insurance", "vet", "kennel", "cage", "tank"),
        *("house", "door", "park", "groomer", "trainer", "treat", "tray", "box", "crate"),
    )
)
#: Words after "at" that are no employer ("nurse at night", "engineer at heart").
_NOT_EMPLOYER = frozenset(
    (
        *("night", "nights", "home", "work", "weekends", "school", "uni", "university"),
        *("college", "hospital", "heart", "present", "moment", "least", "most", "best", "times"),
        *("all", "once", "first", "last", "lunch", "weekend", "sea", "church", "office"),
        *("clinic", "hospitals", "schools", "night-time", "nighttime", "midnight", "noon"),
    )
)


#: The user's own child said before "her name is ...": "i have a daughter", "my son".
_MY_CHILD = re.compile(
    r"\b(?:i|we)(?:'ve)?\s+(?:have|got)\s+(?:an?\s+|one\s+|two\s+|\d\s+)?(?:little\s+|baby\s+)?"
    r"(?:daughter|son|girl|boy|kid)s?\b|\bmy\s+(?:little\s+|baby\s+)?(?:daughter|son)\b",
    re.I,
)
#: Someone else as the subject before an employer's "at X" ("my husband works at tesco").
_SOMEONE_ELSE = re.compile(r"\b(?:my\s+(?!job\b|work\b|own\b)\w+|he|she|they|his|her)\b", re.I)


def _low_name(name: str, *, pet: bool) -> bool:
    """A lowercase word in a name's slot; a pet may be named after a food ("biscuit")."""
    return lower_name_ok(name) and not not_a_name(name) and (pet or L.lookup(L.FOODS, name) is None)


def _low_names(found: str, *, kid_ages: bool = False) -> list[str]:
    words = re.split(r"\s*(?:,|\band\b|&)\s*", found.strip())
    names = [re.sub(r"\s*\d+$", "", w).strip() for w in words] if kid_ages else words
    return [n for n in names if n]


def _named_in_passing(cands: list[Candidate], text: str) -> list[Candidate]:
    """Lowercase names in the slots of ``_NAMED_RX`` (each name must pass the name check)."""
    if len(text) > 2000:
        return cands
    keys = {".".join(c.key.split(".")[:2]) for c in cands}
    has_pet = any(c.key.startswith("pet.species") and c.intent is Intent.ASSERT for c in cands)
    has_job = any(c.key in ("job.title", "industry") and c.intent is Intent.ASSERT for c in cands)
    child_said = _MY_CHILD.search(text) is not None
    out = list(cands)
    for what, rx in _NAMED_RX:
        m = rx.search(text)
        if m is None:
            continue
        names = _low_names(m.group("list"), kid_ages=what == "child")
        if not names or not all(_low_name(n, pet=what == "pet") for n in names):
            continue
        if what == "named":
            what = "pet" if has_pet else "child" if child_said else ""
        if what == "pet" and (not has_pet or "pet.names" in keys):
            continue
        if what == "pet" and any(n.lower() in _NOT_PET_NAME or n.endswith("s") for n in names):
            continue
        if what == "child" and "family.child" in keys:
            continue
        if what == "partner" and ("family.partner" in keys or names[0].endswith("s")):
            continue
        if what == "employer" and (
            not has_job
            or "job.employer" in keys
            or names[0].lower() in _NOT_EMPLOYER
            or _SOMEONE_ELSE.search(re.split(r"[.;!?]", text[: m.start()])[-1]) is not None
        ):
            continue
        key = {
            "pet": "pet.names",
            "child": "family.child.names",
            "partner": "family.partner.name",
            "employer": "job.employer",
        }.get(what)
        if key is None:
            continue
        kind = Kind.FACT if key in ("pet.names", "job.employer") else Kind.RELATIONSHIP
        for n, name in enumerate(names):
            value = name.capitalize() if key != "job.employer" else name.title()
            slot = (
                key
                if n == 0 or key in ("family.partner.name", "job.employer")
                else f"{key}.{L.slugify(name)}"
            )
            c = cand(kind, slot, value)
            out.append(dataclasses.replace(c, span=m.group(0).strip()[:200]))
            if key in ("family.partner.name", "job.employer"):
                break
    return out


def _name_said_apart(cands: list[Candidate], sents: list[str]) -> list[Candidate]:
    """The user's name as "it's X" beside a sentence about getting the name right."""
    if any(c.key == "name" for c in cands) or not any(_ABOUT_MY_NAME.search(s) for s in sents):
        return cands
    for n, sent in enumerate(sents):
        m = _ITS_X.match(sent)
        near = sents[max(0, n - 1) : n + 2]
        if m and not not_a_name(m.group("n")) and any(_ABOUT_MY_NAME.search(s) for s in near):
            c = cand(Kind.FACT, "name", m.group("n"))
            return [*cands, dataclasses.replace(c, span=sent.strip()[:200], correction=True)]
    return cands


def _join_open_ends(cands: list[Candidate]) -> list[Candidate]:
    """Quiet hours said as two open ends in two sentences ("nothing after 9pm. nothing
    before 7am either"): one range, as when both ends share a sentence."""
    ends = {
        c.value.split()[0]: n
        for n, c in enumerate(cands)
        if c.key == "contact.quiet_hours"
        and c.intent is Intent.ASSERT
        and c.value.split()[0] in ("after", "before")
    }
    if (
        set(ends) != {"after", "before"}
        or len([c for c in cands if c.key == "contact.quiet_hours"]) != 2
    ):
        return cands
    first, last = cands[ends["after"]], cands[ends["before"]]
    span = f"{first.value.split()[1]}-{last.value.split()[1]}"
    joined = dataclasses.replace(first, value=span, normalized=span)
    return [joined if n == ends["after"] else c for n, c in enumerate(cands) if n != ends["before"]]


def _calls_in_a_window(cands: list[Candidate]) -> list[Candidate]:
    """Quiet hours, not calls refused for good: "no calls between 10pm and 7am", "don't
    ring me before 8am" (quiet hours read where the hours parse). A refusal said apart
    ("never call me, and no texts after 9pm") stays."""
    return [
        c
        for c in cands
        if not (
            c.key == "contact.call"
            and c.intent is Intent.ASSERT
            and CALLS_IN_A_WINDOW.search(c.span)
        )
    ]


def _family_of(key: str) -> str:
    """The list family a ``<key>.<slug>`` sibling belongs to ("" for a scalar key)."""
    for fam in _LIST_FAMILIES:
        if key == fam or key.startswith(fam + "."):
            return fam
    return ""


def _inside(short: str, long: str) -> bool:
    return re.search(r"(?<!\w)" + re.escape(short) + r"(?!\w)", long) is not None


#: List-valued key families whose items are names or phrases (a shorter item inside a
#: longer one is the same item read twice); enum lists are codes and are left alone.
_LIST_FAMILIES = (
    "travel.loyalty",
    "travel.airline.avoid",
    "allergy.food",
    "allergy.medication",
    "allergy.other",
    "health.condition",
    "medication",
    "interest",
    "recommend.never",
    "food.like",
    "food.dislike",
    "diet.avoid",
)

#: A role said with how it is held: "freelance graphic designer" is the role "graphic
#: designer", held self-employed.
_QUALIFIED_JOB = re.compile(
    r"^(?P<q>freelance|freelancing|self[\s-]employed|independent|contract|contracting)\s+(?P<role>\S.*)$",
    _I,
)


#: "mail" meaning e-mail (Indian English): "on mail", "over mail", "mail id", "drop a mail",
#: "revert ... on mail"; "by mail" / "by post" stay letters.
_EMAIL_AS_MAIL = re.compile(
    r"\b(?:on|over)\s+(?:the\s+)?mail\b|\bmail\s+id\b|\b(?:drop|send|shoot)\s+(?:me\s+)?a\s+mail\b"
    r"|\brevert\b[^.]{0,30}\bmail\b",
    _I,
)
#: A role that is a course of study: "med student", "second-year law student", "PhD candidate".
_STUDENT = re.compile(
    r"(?:^|\s)(?:student|undergrad(?:uate)?|postgrad(?:uate)?|phd\s+candidate|doctoral\s+candidate)$",
    _I,
)
_INTOLERANCE = re.compile(r"^([a-z][a-z -]{1,30}?)\s+intolerance$", _I)
_PROGRAMME = re.compile(r"^(\S.{1,40}?)\s+(?:programme|program|scheme)$", _I)


#: A Chinese role said with its employer before 的 ("腾讯的产品经理"); a kind of place
#: ("医院的护士", "公司的会计") is no employer's name.
_EMPLOYER_ROLE_ZH = re.compile(r"^([\u4e00-\u9fffA-Za-z]{2,8}?)的([\u4e00-\u9fff]{2,8})$")
_NOT_EMPLOYER_ZH = frozenset(
    [
        "公司",
        "医院",
        "学校",
        "银行",
        "工厂",
        "单位",
        "政府",
        "超市",
        "餐厅",
        "饭店",
        "酒店",
        "机关",
        "大学",
        "中学",
        "小学",
        "幼儿园",
        "诊所",
        "药店",
        "部门",
        "事业单位",
        "国企",
        "外企",
        "私企",
        "央企",
        "律所",
        "事务所",
        "门店",
        "商场",
        "社区",
        "街道",
        "物业",
        "一家公司",
        "家里",
        "自己",
    ]
)
#: The status a partner's name says (the spouse or partner keys the family rows store).
_PARTNER_STATUS = {
    "family.wife": "married",
    "family.husband": "married",
    "family.spouse": "married",
    "family.boyfriend": "partnered",
    "family.girlfriend": "partnered",
}


#: A loyalty tier said like a role: "Gold member", "platinum status", "diamond elite".
_TIER_MEMBER = re.compile(
    r"^(?:an?\s+)?(?:gold|silver|platinum|diamond|titanium|bronze|elite|executive\s+platinum"
    r"|globalist|explorist|ambassador)(?:\s+(?:elite|tier|level))?\s+(?:member|status|card\s*holder)s?$",
    re.IGNORECASE,
)


#: A condition with how bad it is in front: "轻微的哮喘", "严重的胃病", "轻度抑郁症".
_SEVERITY_ZH = re.compile(
    r"^(?:轻微|轻度|中度|重度|严重|比较严重|很严重|一点|有点)的?([\u4e00-\u9fff]{2,8})$"
)
#: A condition named with what it is to the user: "偏头痛的老毛病", "胃病的问题".
_OLD_TROUBLE_ZH = re.compile(r"^([\u4e00-\u9fff]{2,8}?)的(?:老)?(?:毛病|问题|病根|病史)$")


def _refine(cands: list[Candidate]) -> Iterator[Candidate]:
    """Values normalized across handlers: a qualified role splits into role and status; a
    country read as the city lived in ("living in spain") is the country; a condition named
    "<substance> intolerance" is that intolerance; a spouse or partner named says the
    relationship status when the turn states none ("just got engaged to my boyfriend")."""
    stated = any(c.key == "relationship.status" for c in cands)
    # "I'm a Gold member with Marriott": a tier of the programme named, neither a job title
    # nor an employer
    programmes = {c.normalized.casefold() for c in cands if c.key.startswith("travel.loyalty")}
    tiered = bool(programmes) and any(
        c.key == "job.title" and _TIER_MEMBER.match(c.normalized) for c in cands
    )
    for c in cands:
        if tiered and (
            (c.key == "job.title" and _TIER_MEMBER.match(c.normalized))
            or (c.key == "job.employer" and c.normalized.casefold() in programmes)
        ):
            continue
        if c.key == "contact.channel" and c.normalized == "mail" and _EMAIL_AS_MAIL.search(c.span):
            # Indian English "revert on mail", "my mail id", "drop a mail": e-mail, not post
            c = dataclasses.replace(c, normalized="email")
        country = L.COUNTRIES.get(c.normalized.lower()) if c.key == "location.city" else None
        if country is not None and c.normalized.lower() in L.CITIES:
            # a city-state ("I live in Singapore") is the city lived in and the country
            yield dataclasses.replace(c, key="location.country", normalized=country)
        elif country is not None:
            c = dataclasses.replace(c, key="location.country", normalized=country)
        elif c.key == "location.country" and c.normalized.lower() in L.CITIES:
            yield c  # "我住在新加坡": the city-state is the country and the city lived in
            c = dataclasses.replace(c, key="location.city")
        if c.key.startswith("travel.loyalty") and (m := _PROGRAMME.match(c.normalized)):
            # "member of the Flying Blue programme": the programme is "Flying Blue"
            slug = L.slugify(m.group(1))
            c = dataclasses.replace(c, key=f"travel.loyalty.{slug}", normalized=m.group(1))
        if c.key.startswith(("allergy", "intolerance")) and "我" in (c.value or ""):
            # voice text without commas: "…能不能吃海鲜我对虾过敏": the allergen is after 我对
            said = c.value.rsplit("我对", 1)[-1] if "我对" in c.value else ""
            if not said or "我" in said:
                continue
            key = allergy_key(said) if c.key.startswith("allergy") else c.key
            c = dataclasses.replace(c, key=key, value=said, normalized=L.canonical_value(key, said))
        if c.key.startswith("health.condition") and (m := _SEVERITY_ZH.match(c.normalized)):
            # "我有轻微的哮喘", "严重的胃病": the condition, without how bad it is
            said = m.group(1)
            c = dataclasses.replace(
                c, value=said, normalized=L.canonical_value("health.condition", said)
            )
        if c.key.startswith("health.condition") and (m := _OLD_TROUBLE_ZH.match(c.normalized)):
            # "我有偏头痛的老毛病": the condition, not the words around it
            c = dataclasses.replace(c, value=m.group(1), normalized=m.group(1))
        if c.key.startswith("health.condition") and (m := _INTOLERANCE.match(c.normalized)):
            # "diagnosed with sorbitol intolerance": the intolerance, by its substance
            c = dataclasses.replace(c, key="intolerance", value=m.group(1), normalized=m.group(1))
        if c.key == "job.title" and c.intent is Intent.ASSERT and _STUDENT.search(c.normalized):
            # "final year med student here": a student by status, whatever the subject
            yield dataclasses.replace(c, key="job.status", value=c.value, normalized="student")
        m = _EMPLOYER_ROLE_ZH.match(c.normalized) if c.key == "job.title" else None
        if m is not None and c.intent is Intent.ASSERT and m.group(1) not in _NOT_EMPLOYER_ZH:
            # "我是腾讯的产品经理": the employer, then the role held there
            role = m.group(2)
            yield dataclasses.replace(
                c, key="job.employer", value=m.group(1), normalized=m.group(1)
            )
            c = dataclasses.replace(c, value=role, normalized=role)
        status = _PARTNER_STATUS.get(c.key)
        if status is not None and c.intent is Intent.ASSERT and not stated:
            # "我老公叫赵磊", "my boyfriend is called Sam": the partner named says the status
            yield dataclasses.replace(
                c,
                key="relationship.status",
                kind=taxonomy.kind_of("relationship.status", c.kind),
                value=status,
                normalized=status,
            )
        m = _QUALIFIED_JOB.match(c.normalized) if c.key == "job.title" else None
        if m is None or c.intent is not Intent.ASSERT:
            yield c
            continue
        role = m.group("role").strip()
        yield dataclasses.replace(c, value=role, normalized=role)
        status = "self_employed" if m.group("q").lower()[0] in "fsi" else "employed"
        yield dataclasses.replace(c, key="job.status", value=m.group("q"), normalized=status)


#: An assignment or a text to practise or check, said before the text itself: "老师让我们写
#: 自我介绍", "英语作业要写…", "作文题目：…", "下面是范文", "面试的自我介绍模板：…", "跟我读：…",
#: "帮我看看这句语法对不对" (a text the user asks to have written for them, "帮我写个自我介绍，
#: 我叫林婉清", gives the user's own facts and is not one).
_TEXT_KIND_ZH = r"(?:作业|作文|范文|例文|样文|模板|样例|示例|例句|题目|考题|试题|造句|课文)"
_TEXT_FRAME_ZH = re.compile(
    r"(?:老师|教练|面试官|考官|学校)(?:让|叫|要|要求|布置)(?:我们|大家|我|学生)?[^，,。:：]{0,4}?"
    r"(?:写|做|练|准备|背|读|念|用)"
    # the kind of text opening the turn: "作文题目：…", "下面是范文 …", "语文作业 写一段话…"
    r"|^\W*(?:这是|下面是|以下是|下面|以下)?(?:我的)?(?:英语|语文|中文|日语|口语|写作|考试|面试)?的?"
    + _TEXT_KIND_ZH
    # or named with what it asks or a colon: "英语作业要写自我介绍，…", "自我介绍模板：…"
    + r"|作业(?:是|要|要求|让)?(?:写|介绍)|"
    + _TEXT_KIND_ZH
    + r"[^，,。]{0,6}?[:：]|例子\s*[:：]"
    + r"|跟(?:着)?我(?:一起)?(?:读|念)|跟着我(?:一起)?说|跟我一起说|跟读|朗读|背诵|听写|默写"
    + r"|语法(?:对不对|对吗|有没有问题|有问题吗|错没错)|语病|病句|通不通顺|通顺吗"
)


def _said_after(c: Candidate, text: str, sent_at: int, sent_text: str, frame_end: int) -> bool:
    """Whether what ``c`` was read from lies after ``frame_end`` in ``text`` (its value, or
    the item of its key, found in its sentence; else the end of the sentence)."""
    for probe in (c.value or "", c.key.rsplit(".", 1)[-1]):
        if probe and (at_ := text.find(probe, sent_at, sent_at + len(sent_text))) >= 0:
            return at_ >= frame_end
    return sent_at + len(sent_text) > frame_end


#: Someone else's name for the user, the clause up to the name: "同学都叫我小胖", "室友管我叫
#: 大胃王", "班上的人叫我学霸" (not the user's own offer: "叫我阿杰就行", "你可以叫我小王").
_CALL_ADVERBS = r"(?:都|总|老|也|一直|经常|平时|总是|老是|还|常)"
_OTHERS_CALL_ZH = re.compile(
    r"^\W*(?!你|您|请|可以|就|以后|直接|麻烦|那|还是|" + _CALL_ADVERBS + r"*(?:叫|喊|称呼|管)我)"
    r"[^，,。!！?？\s]{1,8}?" + _CALL_ADVERBS + r"*(?:叫|喊|称呼|管)我(?:叫|为|作|做)?\s*$"
)
_CLAUSE_EDGE = re.compile(r"[，,。!！?？;；\s]")
#: The user turning the label down after it: "其实我一点都不胖", "我才不是", "冤枉啊",
#: "可我成绩一般", "烦死了" ("其实我挺喜欢的" keeps it).
_LABEL_DENIED_ZH = re.compile(
    r"[^\n]{0,14}?(?:其实(?!我?(?:挺|很|也|还|蛮|倒)?(?:喜欢|爱|习惯|乐意))|实际上"
    r"|我(?:才|又|并|根本|压根|哪里?|一点|一点儿)(?:都|也)?(?:不|没)|我不是|冤枉|才怪|胡说|瞎(?:叫|喊)"
    r"|乱(?:叫|喊)|哪有|(?:可|但|但是|可是|不过)我[^，,。!！]{0,8}?(?:不|没|一般)|烦(?:死了|人)|讨厌"
    r"|不喜欢|不爱听|不想(?:被|听)|难听|反感|受不了|(?:别|不要)(?:这么|这样)叫)"
)


#: The year the user was born, said alone: "我是97年的", "我是2001年出生的", "本人90后" is no year.
_BORN_YEAR_ZH = re.compile(
    r"(?:我|俺|本人)(?:是)?(?P<y>(?:19|20)?\d{2})年(?:的|生的|出生的|出生)(?=$|[，,。.!！\s])"
)


def _birth_year_joined(cands: list[Candidate], text: str) -> list[Candidate]:
    """The year said apart from a birthday of month and day ("我是97年的，生日在12月24号")
    completes it (1997-12-24); the year is no note of its own."""
    m = _BORN_YEAR_ZH.search(text)
    if m is None or not any(
        c.key == "birthday" and re.fullmatch(r"\d{2}-\d{2}", c.normalized or "") for c in cands
    ):
        return cands  # ("我是97年的" alone stays the user's words)
    y = m.group("y")
    year = int(y) if len(y) == 4 else (1900 + int(y) if int(y) > 30 else 2000 + int(y))
    out = []
    for c in cands:
        if c.key.startswith("note") and _BORN_YEAR_ZH.search(c.value or ""):
            continue
        if c.key == "birthday" and re.fullmatch(r"\d{2}-\d{2}", c.normalized or ""):
            c = dataclasses.replace(c, normalized=f"{year}-{c.normalized}")
        out.append(c)
    return out


def _taste_named_elsewhere(cands: list[Candidate]) -> list[Candidate]:
    """A taste whose item is a brand or channel read as its own key in the same turn ("長榮是
    我最愛的航空公司": the airline, not a taste for 长荣) is that fact, not a second record."""
    keyed = {
        c.value
        for c in cands
        if c.intent is Intent.ASSERT
        and c.value
        and c.key.startswith(("travel.", "hotel.", "payment.", "contact.channel"))
    }
    if not keyed:
        return cands
    return [
        c
        for c in cands
        if not (
            c.key.startswith("taste.")
            and c.intent is Intent.ASSERT
            and re.sub(r"是$", "", c.key.removeprefix("taste.")) in keyed
        )
    ]


def _label_denied(cands: list[Candidate], text: str) -> list[Candidate]:
    """A name others call the user, turned down right after ("我同学叫我小胖 其实我一点都
    不胖", "他们都叫我学霸，我才不是"), is no name the user goes by: marked negated."""
    out = []
    for c in cands:
        if c.key in ("name", "name.preferred") and c.intent is Intent.ASSERT and c.value:
            at_ = text.find(c.value)
            edge = max((m.end() for m in _CLAUSE_EDGE.finditer(text, 0, max(0, at_))), default=0)
            if (
                at_ > 0
                and _OTHERS_CALL_ZH.match(text[edge:at_]) is not None
                and _LABEL_DENIED_ZH.match(text, at_ + len(c.value)) is not None
            ):
                c = dataclasses.replace(c, signals=c.signals | {"negated"})
        out.append(c)
    return out


#: A turn that opens by owning a mistake ("说错了", "不对不对", "my mistake", "I was wrong").
_BARE_CORRECTION_RE = re.compile(
    r"^\W*(?:刚才|刚刚|前面|之前)?(?:我)?(?:说|写|打|记|搞|弄)(?:错|反)了|^\W*不对"
    # ("嗯…其实也不是": a hesitation before it)
    r"|^\W*(?:(?:嗯|哦|噢|啊|呃|额)\W*)*其实(?:也)?(?:没有|不是)"
    # "哦不对，那是我邻居家的狗", "啊不对…": an interjection before owning the mistake
    r"|^\W*(?:哦|噢|喔|啊|呃|额|诶|欸|嗯)+\W*不对"
    # "等下，我说反了", "等等，写反了": a pause before owning the mistake
    r"|^\W*(?:等下|等等|等一下|稍等|不好意思|抱歉|sorry)\W*(?:我)?(?:说|写|打|记|搞|弄)(?:错|反)了"
    r"|^\W*(?:(?:oh|oops|sorry|wait)\W+)*(?:my\s+mistake|my\s+bad|i\s+was\s+wrong"
    r"|i\s+got\s+(?:it|that)\s+wrong|wrong\s+(?:person|one))\b",
    _I,
)


# ---- forget requests ------------------------------------------------------------------
_FORGET_EN = re.compile(
    r"\b(?:forget|delete|remove|erase|clear|wipe|drop)\s+(?:about\s+)?(?:everything\s+(?:about|on)\s+"
    r"|all\s+(?:about\s+)?|any\s+(?:info\s+)?(?:about\s+)?)?(?:(?:that|this|the)\s+(?P<said>(?:home\s+|e-?mail\s+)?address"
    r"|e-?mail|nickname)\b(?!\s+(?:that|which)\b)|(?P<that>that|the\s+fact\s+that)\s+"
    r"(?P<clause>.{3,200})|my\s+(?P<obj>[^,.;!?]{2,40})|(?P<where>where\s+i\s+live)\b)",
    _I,
)
#: A retraction that names a topic, not the words it takes back: "ignore the budget I gave",
#: "scratch what I said about the budget", "scratch the budget thing" take back the stored
#: budget, whichever turn said it (not the turn just before).
_NAMED_RETRACT_EN = re.compile(
    r"\b(?:(?:ignore|disregard|scratch|strike|undo|never\s*mind)\s+"
    r"(?:what\s+i\s+(?:just\s+)?(?:said|told\s+you|wrote|mentioned|typed|gave\s+you)\s+about\s+)?"
    r"|forget\s+what\s+i\s+(?:just\s+)?(?:said|told\s+you|wrote|mentioned|typed)\s+about\s+)"
    r"(?:the|my|that)\s+(?P<obj>"
    + alt(k for k in L.FORGET_TOPICS if k.isascii() and "." not in k and " " not in k)
    + r")(?=\s+(?:i\s+(?:just\s+)?(?:gave|said|mentioned|told\s+you|wrote|typed|sent|put)"
    r"|thing|bit|part|stuff|figure|number|one|info)\b|\s*(?:[,.;!]|$))",
    _I,
)
_FORGET_ZH = re.compile(
    r"(?:别记|不要记|忘掉|忘记|忘了|删除|删掉|删了|清除|去掉|清空)(?:关于)?(?:掉)?(?P<me>我的?)(?P<obj>[^，,。.!?！？；;]{1,20})"
)


def _forget_key(obj: str) -> str | None:
    t = phrase(obj, 4).lower().rstrip("s") if obj.isascii() else CUT_ZH.sub("", obj.strip())
    # the words as said, too: the table's "where i live" is all stopwords to ``phrase``
    for k in (t, t + "s", phrase(obj, 4).lower(), " ".join(obj.lower().split())):
        if k in L.FORGET_TOPICS:
            return L.FORGET_TOPICS[k]
    return None


_KIND_OF_PREFIX = {
    "contact": Kind.PREFERENCE,
    "diet": Kind.PREFERENCE,
    "budget": Kind.PREFERENCE,
    "language": Kind.PREFERENCE,
    "seat": Kind.PREFERENCE,
    "interest": Kind.PREFERENCE,
    "taste": Kind.PREFERENCE,
    "family": Kind.RELATIONSHIP,
    "device": Kind.RELATIONSHIP,
    "rule": Kind.CONSTRAINT,
    "recommend": Kind.CONSTRAINT,
}


def _forget(c: Candidate, value: str | None = None) -> Candidate:
    return dataclasses.replace(
        c, intent=Intent.FORGET, explicit=True, value=c.value if value is None else value
    )


#: Forgetting said of someone, not asked of the assistant: "sometimes i forget my address",
#: "we always forget my address" (a request's subject is "you", or none; "I said forget my
#: address" and "can we forget my budget" still ask)
_SOMEONE_FORGETS = re.compile(
    r"(?:\b(?:i|he|she|they|people|everyone|my\s+\w+)|\bwe(?=\s+(?:always|often|sometimes|"
    r"usually|keep|kept|tend)\b))(?:\s+(?:always|often|sometimes|usually|never|just|keep|kept|"
    r"tend\s+to|might|may|did|do|does|constantly|still|also))*\s*$",
    _I,
)
#: ... or not asked at all: "don't forget my address", "did you forget where I live?", "how
#: could you forget", "you'll forget where I live", "I'd hate for you to forget"
_NOT_ASKED = re.compile(
    r"(?:\b(?:don'?t|dont|do\s+not|never|didn'?t|did\s+not|won'?t|not)|\b(?:did|have|has|had)"
    r"\s+you|\bhow\s+(?:could|can|did)\s+you|\byou(?:'ll|\s+will|\s+always|\s+keep|\s+never|"
    r"\s+might|\s+may|\s+did|\s+often)|\bhate\s+for\s+you\s+to)\s+(?:\w+\s+)?$",
    _I,
)


def _asks_to_forget(text: str, start: int, end: int) -> bool:
    """The forget verb at ``start`` is a request: not forgetfulness said of someone, not
    negated, not a question about forgetting ("forget where I live? no way")."""
    before = text[:start].replace("\u2019", "'")
    if _SOMEONE_FORGETS.search(before) or _NOT_ASKED.search(before):
        return False
    return not (not before.strip() and text[end:].lstrip().startswith("?"))


def _h_forget(cl: Clause) -> Iterator[Hit]:
    for m in _FORGET_EN.finditer(cl.text):
        if not _asks_to_forget(cl.text, m.start(), m.end()):
            continue
        if m.group("clause"):
            sub = Clause(m.group("clause"), 0, cl.sentence, False, False, cl.at)
            for _s, _e, c in _run(sub):
                if c.intent is Intent.ASSERT:
                    yield m.start(), m.end(), _forget(c)
        elif m.group("said"):
            # "forget that address, it was a typo": the value just given, by what it is (a
            # bare "address" may be a home or an e-mail one)
            said = m.group("said").lower()
            keys: tuple[str, ...] = (
                ("name.preferred",)
                if said == "nickname"
                else ("location.address",)
                if said.startswith("home")
                else ("contact.email",)
                if "mail" in said
                else ("location.address", "contact.email")
            )
            for said_key in keys:
                kind = _KIND_OF_PREFIX.get(said_key.split(".")[0], Kind.FACT)
                c = cand(kind, said_key, "", explicit=True, intent=Intent.FORGET)
                yield m.start(), m.end(), c
        elif (said := m.group("where") or m.group("obj")) and (key := _forget_key(said)):
            kind = _KIND_OF_PREFIX.get(key.split(".")[0], Kind.FACT)
            yield m.start(), m.end(), cand(kind, key, "", explicit=True, intent=Intent.FORGET)
    for m in _NAMED_RETRACT_EN.finditer(cl.text):
        if key := _forget_key(m.group("obj")):
            kind = _KIND_OF_PREFIX.get(key.split(".")[0], Kind.FACT)
            yield m.start(), m.end(), cand(kind, key, "", explicit=True, intent=Intent.FORGET)
    for m in _FORGET_ZH.finditer(cl.text):
        if key := _forget_key(m.group("obj")):
            kind = _KIND_OF_PREFIX.get(key.split(".")[0], Kind.FACT)
            yield m.start(), m.end(), cand(kind, key, "", explicit=True, intent=Intent.FORGET)
        else:
            sub = Clause("我" + m.group("obj"), 0, cl.sentence, False, False, cl.at)
            for _s, _e, c in _run(sub):
                if c.intent is Intent.ASSERT:
                    yield m.start(), m.end(), _forget(c)


# ---- registry ---------------------------------------------------------------------------
_Handler = Callable[[Clause], Iterator[Hit]]
_Entry = tuple[_Handler, tuple[str, ...] | None]
#: Form fields and their labels ("Name: Priya Raman", "age 63", "DOB: 14/02/1990", "full
#: name is ..."): each label is said again as the sentence a user would type, and the
#: clause rules read that; the field's own words stay the span.
_FORM_LABELS: tuple[tuple[str, str], ...] = (
    (r"(?:full\s+|first\s+|given\s+)?name", "my name is {}"),
    (r"nick\s*name|preferred\s+name", "call me {}"),
    (r"age", "i'm {}"),
    (r"dob|d\.o\.b\.?|date\s+of\s+birth|birth\s*day|b-?day", "my birthday is {}"),
    (r"occupation|profession|job(?:\s+title)?|role|position", "i'm a {}"),
    (r"employer|company|workplace", "i work at {}"),
    (r"city|home\s*town|location|based\s+in", "i live in {}"),
    (r"e-?mail(?:\s+address)?", "my email is {}"),
    (
        r"(?:best|preferred)\s+contact(?:\s+method)?|contact\s+(?:method|preference)",
        "contact me by {}",
    ),
    (r"(?:drug\s+|food\s+|medication\s+|known\s+)?allerg(?:y|ies)", "i'm allergic to {}"),
    (
        r"(?:frequent\s+fl(?:y|i)er|loyalty|membership)(?:\s+(?:programme|program|scheme|club|number"
        r"|no\.?))?",
        "i'm a member of {}",
    ),
    (
        r"(?:daily\s+|regular\s+|current\s+)?(?:meds|medications?|medicines?)",
        "my medications are {}",
    ),
    (r"diet", "i'm {}"),
    (r"time\s*zone|tz", "my timezone is {}"),
    (r"pronouns", "my pronouns are {}"),
    (r"hobbies|interests|hobby", "i enjoy {}"),
)
_FORM_RX = re.compile(
    r"(?:^|(?<=[,;|:]))\W*(?:my\s+)?(?P<label>"
    + "|".join(f"(?:{rx})" for rx, _ in _FORM_LABELS)
    + r")\s*(?P<sep>:|=|\s+[-–]\s+|\s+is\b|'s\b|\s+(?=\d))\s*(?P<v>[^,;|]+?)\s*"
    r"(?=[,;|]|$|\s+(?:if|btw|lol|please|pls|thanks)\b)",
    _I,
)
#: Labels whose value is a list, and one more item of it after a comma (no label of its own).
_LIST_FIELD = re.compile(
    r"^(?:(?:drug\s+|food\s+|medication\s+|known\s+)?allerg|(?:daily\s+|regular\s+|current\s+)?(?:meds|medic)|hobb|interests)",
    _I,
)
_EACH_ITEM = re.compile(r"^(?:hobb|interests)", _I)
_FIELD_ITEM = re.compile(r"\s*,\s*(?P<item>[^,;|:=]{1,60}?)\s*(?=[,;|.]|$)")
#: Labels that also read as a sentence with "is" ("full name is ...", "my age is 40").
_SAID_WITH_IS = re.compile(
    r"^(?:(?:full|first|given)\s+)?name$|^age$|^(?:dob|date\s+of\s+birth)$|^e-?mail"
    r"|^time\s*zone$|^pronouns$",
    _I,
)
_FORM_LABEL_RX = tuple((re.compile(rf"^(?:{rx})$", _I), say) for rx, say in _FORM_LABELS)


def h_form(cl: Clause) -> Iterator[Hit]:
    """Form-style fields: the label said as a sentence, read by the clause rules."""
    for m in _FORM_RX.finditer(cl.text):
        label = " ".join(m.group("label").lower().split())
        say = next((s for rx, s in _FORM_LABEL_RX if rx.match(label)), None)
        if say is None:
            continue
        if m.group("sep").strip() not in (":", "=", "", "-", "–") and not _SAID_WITH_IS.match(
            label
        ):
            continue  # "my job is killing me": only a field's colon makes "job" a label
        values, end = [m.group("v")], m.end()
        while _LIST_FIELD.match(label) and (more := _FIELD_ITEM.match(cl.text, end)):
            # "Allergies: kiwi, strawberries": the field's value is the whole list
            values, end = [*values, more.group("item")], more.end()
        # a list of activities is read item by item ("Hobbies: hiking, photography, baking"),
        # the other lists as one "X and Y" value
        each = values if _EACH_ITEM.match(label) else [" and ".join(values)]
        for value in each:
            said = dataclasses.replace(cl, text=say.format(value))
            for _s, _e, c in _claim(said, _CLAUSE_HANDLERS, []):
                if not c.key.startswith(("note", "rule")):
                    yield m.start(), end, c
        # "my name's Katharina but please just Kathi": the short form is the one to use
        short = JUST_NAME.match(cl.text, end) if say.startswith("my name") else None
        if short is not None and short.group("n").lower() not in L.NAME_STOP:
            said_short = cand(Kind.FACT, "name.preferred", short.group("n"))
            yield short.start("n"), short.end("n"), said_short


_SENTENCE_HANDLERS: tuple[_Entry, ...] = (
    (
        h_form,
        (
            ":",
            "name",
            "age",
            "dob",
            "d.o.b",
            "birth",
            "day",
            "occupation",
            "profession",
            "job",
            "role",
            "position",
            "employer",
            "company",
            "workplace",
            "city",
            "town",
            "location",
            "based",
            "mail",
            "contact",
            "allerg",
            "flyer",
            "flier",
            "loyalty",
            "member",
            "med",
            "diet",
            "zone",
            "tz",
            "pronouns",
            "hobb",
            "interests",
        ),
    ),
    (h_correction, ("not", "isn't", "wasn't", "no", "不是", "不对", "错了", "更正", "纠正")),
    (h_address, ("address", "地址", "住址")),
    (
        h_move,
        (
            "mov",
            "relocat",
            "retiring to",
            "run a",
            "run an",
            "run our",
            "run my",
            "own a",
            "we're a",
            "we are a",
            "emigrat",
            "left",
            "搬",
            "调去",
            "调到",
            "调往",
            "派到",
            "派去",
            "派往",
            "based",
            "live",
            "living",
            "located",
            "resid",
            "home",
            "flat",
            "i'm in",
            "i am in",
            "expat",
            "we're in",
            "we are in",
            "之前",
            "以前",
            "原来",
            "过去",
            "本来",
            "那几年",
            "那些年",
            "早些年",
            "前些年",
            "早年",
            "那时",
            "当年",
        ),
    ),
    (h_sentence_rows, SENTENCE_HINTS),
)
_CLAUSE_HANDLERS: tuple[_Entry, ...] = (
    (
        _h_forget,
        (
            "forget",
            "delete",
            "remove",
            "ignore",
            "disregard",
            "scratch",
            "strike",
            "undo",
            "never",
            "erase",
            "clear",
            "wipe",
            "drop",
            "记",
            "忘",
            "删",
            "清除",
            "去掉",
            "清空",
        ),
    ),
    (
        h_quiet,
        (
            "到",
            ":",
            "after",
            "past",
            "before",
            "quiet",
            "点",
            " to ",
            "until",
            "till",
            "between",
            "-",
            "–",
            "and",
        ),
    ),
    (
        h_birthday,
        (
            "born",
            "birthday",
            "b-day",
            "bday",
            "today",
            "生日",
            "出生",
            "生于",
            "号生",
            "日生",
            "it's",
            "its ",
            "it is",
            "which is",
        ),
    ),
    (h_turning_age, ("turn", "be ")),
    (h_children_count, ("boy", "girl", "son", "daughter", "kid", "child", "twins", "triplets")),
    (
        h_name,
        (
            "name",
            "call",
            "i'm",
            "am",
            "fine",
            "ok",
            "good",
            "great",
            "easier",
            "better",
            "it's",
            "here",
            "go by",
            "this is",
            "叫",
            "喊",
            "称呼",
            "名字",
            "名是",
            "我是",
        ),
    ),
    (h_call, ("call", "phone", "ring", "电话", "来电", "打给我", "给我打", "打过来")),
    (h_channel, tuple(L.CHANNELS)),
    (
        h_recommend,
        (
            "recommend",
            "suggest",
            "offer",
            "pitch",
            "push",
            "sell",
            "promot",
            "advertis",
            "send",
            "point me",
            "steer me",
            "direct me",
            "推",
            "介绍",
            "安利",
        ),
    ),
    (
        h_allergy_reaction,
        ("give", "gave", "make", "made", "set", "bring", "brought", "swell", "can't", "cannot"),
    ),
    (h_rows, None),
    (
        h_hard_no,
        (
            " no",
            "off-limits",
            "off limits",
            "off the table",
            "not an option",
            "never an option",
            " pass",
            "nope",
        ),
    ),
    (h_food_said, ("avoid", " do ", "into", "keen", "fussed", "fan of")),
    (h_role_fragment, tuple(L.JOB_HEADS)),
    (h_here_in, ("here in", "living in", "lives in", "based in", "lived in")),
    (h_paid_this_way, None),
    (h_only_channel, None),
    *F.CLAUSE_HANDLERS,
)
#: The move handler alone, for a clause read again with its subject put back.
_MOVES: tuple[_Entry, ...] = tuple(e for e in _SENTENCE_HANDLERS if e[0] is h_move)


_HINT_RES: dict[tuple[str, ...], re.Pattern[str]] = {}


def _hint_matches(hint: tuple[str, ...] | None, low: str) -> bool:
    """Whether a lowercased text contains one of ``hint``'s substrings (``None``: always)."""
    if hint is None:
        return True
    rx = _HINT_RES.get(hint)
    if rx is None:
        rx = _HINT_RES[hint] = re.compile(alt(hint))
    return rx.search(low) is not None


def _claim(
    clause: Clause, handlers: tuple[_Entry, ...], used: list[tuple[int, int]]
) -> Iterator[Hit]:
    """Run ``handlers`` in order; a hit overlapping a span claimed by an earlier handler is
    dropped (one handler may yield several candidates for one span). A handler whose hint
    does not match the clause is skipped without running its patterns. A handler that
    fails is logged and skipped: one bad rule never costs the turn its other candidates."""
    low = clause.text.lower()
    for handler, hint in handlers:
        if not _hint_matches(hint, low):
            continue
        mine: list[tuple[int, int]] = []
        try:
            for start, end, c in handler(clause):
                if not _overlaps(start, end, used):
                    mine.append((start, end))
                    yield start, end, c
        except Exception:  # a bug in one rule must not drop the turn's other candidates
            logger.exception("rule %s failed on a clause of %d chars", handler.__name__, len(low))
        used.extend(mine)


def _run(clause: Clause) -> Iterator[Hit]:
    """Run the clause handlers except "forget" on ``clause`` (for "forget that I ...")."""
    yield from _claim(clause, tuple(e for e in _CLAUSE_HANDLERS if e[0] is not _h_forget), [])
