"""Deterministic long-horizon evaluation set for user memory (English and Chinese).

Every user has 50-200 sessions of routine support / health dialogue. A few turns
declare preferences, facts and constraints, explicitly or implicitly; later turns change,
contradict, correct, retract ("never mind"), negate, joke about, or merely mention them
hypothetically or about someone else, and everything is buried under unrelated turns.
Probes are placed after sessions 10, 50, 100, 200, after every state change and at random
points; each names a key, a query phrased differently from the declarations, and the
ground truth at that moment: the current value(s) (or ``None``: nothing was ever said /
it was taken back), the session(s) and date of the statement the value comes from, values
that are stale (superseded or retracted) or false (jokes, hypotheticals, other people),
and whether a confirmation question is due (a contradiction within a week, without a
correction marker).

Usage::

    python benchmarks/evalset.py --users-en 40 --users-zh 20 --out benchmarks/data

writes ``evalset_en.jsonl`` and ``evalset_zh.jsonl`` (one user per line). The same seed
always gives the same files.
"""

from __future__ import annotations

import argparse
import copy
import json
import random
import re
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from evalset_bank import BANKS, NAMES, ROUTINE, Bank

__all__ = ["CHECKPOINTS", "generate", "generate_user", "main", "write_jsonl"]

SUPPORT, HEALTH = "support", "health"
CHECKPOINTS = (10, 50, 100, 200)
CONFIRM_WINDOW = timedelta(days=7)
_BASE = datetime(2025, 1, 6, 9, 0, tzinfo=UTC)
_FALLBACK = {"flip": "declare"}


@dataclass
class KeyState:
    """Ground truth of one (context, key) slot while the story is generated."""

    values: list[str] = field(default_factory=list)  # current canonical value(s)
    sessions: list[int] = field(default_factory=list)  # sessions the value was stated in
    dates: list[str] = field(default_factory=list)
    set_at: datetime | None = None
    explicit: bool = False
    stale: list[str] = field(default_factory=list)  # superseded or retracted values
    false: list[str] = field(default_factory=list)  # jokes, hypotheticals, other people
    confirm_due: bool = False
    permanent: bool = False  # the current value was worded as a standing rule ("never ...")
    pending_alt: list[str] = field(default_factory=list)  # also acceptable while confirm_due
    tags: list[str] = field(default_factory=list)
    implicit: dict[str, list[int]] = field(default_factory=dict)
    ever_said: bool = False


@dataclass
class Effect:
    key: str
    op: str  # declare change flip correct restate add negate implicit joke distract
    value: str


@dataclass
class Event:
    session: int
    context: str
    turns: list[str]
    effects: list[Effect]
    retract_next: bool = False  # followed by "never mind" in the same session


def _tag(st: KeyState, tag: str) -> None:
    """Record what last happened to the slot (most recent last)."""
    if tag in st.tags:
        st.tags.remove(tag)
    st.tags.append(tag)


def _supersede(st: KeyState, new: list[str]) -> None:
    for v in st.values:
        if v not in new and v not in st.stale:
            st.stale.append(v)
    for v in new:
        if v in st.stale:
            st.stale.remove(v)


#: the design's permanent wording ("never", "永远不要"): such a rule stands until explicitly
#: revoked, so a plain contradiction of it is a confirmation question whatever its age
_PERMANENT_WORDING = re.compile(
    r"\bnever\b(?!\s*mind)|\bdon't\s+ever\b|永远|再也不|从不|绝不", re.I
)


def apply_effect(st: KeyState, eff: Effect, session: int, at: datetime, text: str = "") -> None:
    """Advance the ground truth of one slot by one statement (``text``: its wording)."""
    day = at.date().isoformat()
    op, v = eff.op, eff.value
    if op in ("joke", "distract"):
        if v not in st.values and v not in st.false:
            st.false.append(v)
        _tag(st, "joked" if op == "joke" else "distracted")
        return
    if op == "implicit":
        if st.explicit and st.values:
            if v not in st.values:
                _tag(st, "implicit_vs_explicit")
            return
        seen = st.implicit.setdefault(v, [])
        if session not in seen:
            seen.append(session)
        if len(seen) >= 3 and st.values != [v]:
            _supersede(st, [v])
            st.values, st.sessions = [v], list(seen)
            st.dates = [day]
            st.set_at, st.explicit, st.ever_said = at, False, True
            st.permanent = False
            _tag(st, "implicit")
        return
    if op == "negate":
        _supersede(st, [])
        st.values, st.sessions, st.dates, st.confirm_due = [], [], [], False
        st.pending_alt, st.permanent = [], False
        _tag(st, "forgotten")
        return
    if (op == "restate" and st.values) or (
        op in ("declare", "change", "flip") and st.values == [v]
    ):
        if session not in st.sessions:
            st.sessions.append(session)
            st.dates.append(day)
        st.permanent = st.permanent or _PERMANENT_WORDING.search(text) is not None
        return
    st.confirm_due, st.pending_alt = False, []
    if op == "add":
        st.values = [*st.values, v]
        st.sessions, st.dates = [*st.sessions, session], [*st.dates, day]
        _tag(st, "additive")
        st.set_at, st.explicit, st.ever_said = at, True, True
        return
    recent = st.set_at is not None and at - st.set_at < CONFIRM_WINDOW
    had = bool(st.values)
    # a plain contradiction (no "actually" / "from now on") of a value set within a week,
    # or of a "never" rule, is not certain: a confirmation question is due and, until it is
    # answered, the previous value is an acceptable answer too
    due = op == "flip" and had and (recent or st.permanent)
    st.pending_alt = list(st.values) if due else []
    _supersede(st, [v])
    st.confirm_due = due
    st.values, st.sessions, st.dates = [v], [session], [day]
    st.set_at, st.explicit, st.ever_said = at, True, True
    st.permanent = _PERMANENT_WORDING.search(text) is not None
    st.implicit.clear()
    if had:
        _tag(st, {"correct": "corrected", "flip": "contradicted"}.get(op, "changed"))
    elif op == "restate":  # said again after it was forgotten: it holds again
        _tag(st, "changed")


def _retract(before: KeyState, after: KeyState) -> KeyState:
    """ "Never mind" right after a statement: the slot goes back, the value becomes stale."""
    out = copy.deepcopy(before)
    for v in after.values:
        if v not in out.values and v not in out.stale:
            out.stale.append(v)
    out.false = list(after.false)
    _tag(out, "retracted")
    return out


def _category(st: KeyState, probe_ctx: str, key_ctx: str) -> str:
    """The probe's category: what happened to the slot most recently."""
    if probe_ctx != key_ctx:
        return "cross_context"
    if not st.ever_said:
        return "never_said"
    if not st.values:
        return next((t for t in reversed(st.tags) if t in ("forgotten", "retracted")), "forgotten")
    return st.tags[-1] if st.tags else "stable"


# ---------------------------------------------------------------------------------------
# one user
# ---------------------------------------------------------------------------------------
def _fmt(template: str, value: str, surface: str, old_surface: str = "") -> str:
    cap = surface[:1].upper() + surface[1:]
    k = value[:-3] if value.isdigit() and value.endswith("000") else value
    return template.format(v=surface, V=cap, old=old_surface, k=k)


class _Story:
    """Builds the events of one user, then the sessions and probes."""

    def __init__(
        self, rng: random.Random, bank: Bank, lang: str, idx: int, n_sessions: int, name: str
    ) -> None:
        self.rng, self.bank, self.lang = rng, bank, lang
        self.idx, self.n, self.name = idx, n_sessions, name
        self.events: list[Event] = []
        self.ctx_of: dict[int, str] = {}
        self.load: dict[int, int] = {}

    def place(
        self,
        want: int,
        context: str,
        turns: list[str],
        effects: list[Effect],
        retract_next: bool = False,
    ) -> int:
        s = max(1, min(want, self.n))
        while True:
            ok = self.ctx_of.get(s, context) == context and self.load.get(s, 0) < 2
            if ok or s >= self.n:
                break
            s += 1
        if self.ctx_of.get(s, context) != context:  # the last session is full: go back
            s = next(x for x in range(self.n, 0, -1) if self.ctx_of.get(x, context) == context)
        self.ctx_of[s] = context
        self.load[s] = self.load.get(s, 0) + 1
        self.events.append(Event(s, context, turns, effects, retract_next))
        return s

    def say(self, key: str, kind: str, value: str, old: str = "") -> str:
        slot = self.bank.slots[key]
        pool = slot.templates.get(kind) or slot.templates.get(_FALLBACK.get(kind, ""), {})
        choices = pool.get(value) or pool.get("*") or []
        surface = slot.surface(value, self.rng)
        old_surface = slot.surface(old, self.rng) if old else ""
        return _fmt(self.rng.choice(choices), value, surface, old_surface)

    def has(self, key: str, kind: str) -> bool:
        return bool(self.bank.slots[key].templates.get(kind))

    def build(self) -> None:
        rng, n = self.rng, self.n
        self.place(
            rng.randint(1, 3),
            SUPPORT,
            [self.say("name", "declare", self.name)],
            [Effect("name", "declare", self.name)],
        )
        keys = [k for k in self.bank.slots if k != "name"]
        chosen = [k for k in keys if rng.random() < 0.7]
        implicit_only = "contact.channel" in chosen and rng.random() < 0.25
        for key in chosen:
            slot = self.bank.slots[key]
            if key == "contact.channel" and implicit_only:
                v = rng.choice(slot.values)
                start = rng.randint(2, max(3, n // 3))
                for j in range(3):
                    self.place(
                        start + 2 * j,
                        slot.context,
                        [self.say(key, "implicit", v)],
                        [Effect(key, "implicit", v)],
                    )
                continue
            self._key_story(key, rng.randint(1, max(2, n // 4)))

    def _key_story(self, key: str, start: int) -> None:
        rng, slot = self.rng, self.bank.slots[key]
        ctx = slot.context
        cur = rng.choice(slot.values)
        self.place(start, ctx, [self.say(key, "declare", cur)], [Effect(key, "declare", cur)])
        s = start
        budget = max(1, self.n // 40)
        for _ in range(rng.randint(0, budget + 1)):
            s += rng.randint(3, max(4, self.n // 5))
            if s > self.n:
                break
            others = [v for v in slot.values if v != cur]
            ops = [
                "change",
                "restate",
                "joke",
                "distract",
                "retract",
                "flip",
                "correct",
                "implicit",
                "negate",
                "add",
            ]
            need = {"retract": "change", "flip": "declare", "restate": "declare"}
            op = rng.choice([o for o in ops if self.has(key, need.get(o, o))])
            new = rng.choice(others) if others else cur
            if op in ("joke", "distract", "implicit"):
                v = new
                s = self.place(s, ctx, [self.say(key, op, v)], [Effect(key, op, v)])
            elif op == "restate":
                self.place(s, ctx, [self.say(key, "declare", cur)], [Effect(key, "restate", cur)])
            elif op == "retract":
                s = self.place(
                    s,
                    ctx,
                    [self.say(key, "change", new, old=cur)],
                    [Effect(key, "change", new)],
                    retract_next=True,
                )
            elif op == "correct":
                # a wrong value, corrected in the next turn of the same session
                s = self.place(
                    s,
                    ctx,
                    [self.say(key, "declare", new), self.say(key, "correct", cur, old=new)],
                    [Effect(key, "declare", new), Effect(key, "correct", cur)],
                )
            elif op == "negate":
                s = self.place(s, ctx, [self.say(key, "negate", cur)], [Effect(key, "negate", cur)])
                s += rng.randint(5, 20)
                if s <= self.n and rng.random() < 0.5:
                    self.place(
                        s, ctx, [self.say(key, "declare", new)], [Effect(key, "declare", new)]
                    )
                    cur = new
                continue
            elif op == "add":
                s = self.place(s, ctx, [self.say(key, "add", new)], [Effect(key, "add", new)])
                break  # keep additive stories simple: nothing after
            elif op == "flip":
                s = self.place(s, ctx, [self.say(key, "flip", new)], [Effect(key, "flip", new)])
                cur = new
            else:
                s = self.place(
                    s, ctx, [self.say(key, "change", new, old=cur)], [Effect(key, "change", new)]
                )
                cur = new


class _Turns:
    """The turns of one session, a few minutes apart."""

    def __init__(self, start: datetime, rng: random.Random) -> None:
        self.t, self.rng = start, rng
        self.turns: list[dict[str, Any]] = []

    def add(self, role: str, text: str, key: str = "") -> None:
        turn = {"role": role, "text": text, "at": self.t.isoformat()}
        if key:  # the taxonomy key this user turn states (the benchmarks' evidence label)
            turn["key"] = key
        self.turns.append(turn)
        self.t += timedelta(minutes=self.rng.randint(1, 3))


def generate_user(
    seed: int, lang: str, idx: int, n_sessions: int, probes_per_point: int = 4
) -> dict[str, Any]:
    """One user's sessions and probes (a JSON-ready dict)."""
    rng = random.Random(f"{seed}:{lang}:{idx}")
    bank = BANKS[lang]
    user_id = f"{lang}_u{idx:03d}"
    name = NAMES[lang][idx % len(NAMES[lang])]
    if idx >= len(NAMES[lang]):
        name = f"{name} {idx}" if lang == "en" else f"{name}{idx}"
    story = _Story(rng, bank, lang, idx, n_sessions, name)
    story.build()
    canaries = {
        SUPPORT: [f"ORD-{lang}{idx:03d}{rng.randint(10000, 99999)}"],
        HEALTH: [f"RX-{lang}{idx:03d}{rng.randint(10000, 99999)}"],
    }
    events_by_session: dict[int, list[Event]] = {}
    for ev in story.events:
        events_by_session.setdefault(ev.session, []).append(ev)

    states: dict[str, KeyState] = {k: KeyState() for k in bank.slots}
    at = _BASE + timedelta(days=rng.randint(0, 30), hours=rng.randint(0, 8))
    sessions: list[dict[str, Any]] = []
    probe_points = set(CHECKPOINTS) | {n_sessions}
    probe_points |= {rng.randint(2, n_sessions) for _ in range(3)}
    probes: list[dict[str, Any]] = []
    canary_sessions = {SUPPORT: rng.randint(1, 5), HEALTH: -1}
    for n in range(1, n_sessions + 1):
        evs = events_by_session.get(n, [])
        ctx = evs[0].context if evs else (HEALTH if rng.random() < 0.3 else SUPPORT)
        if ctx == HEALTH and canary_sessions[HEALTH] < 0:
            canary_sessions[HEALTH] = n
        sid = f"{user_id}_s{n:03d}"
        sess = _Turns(at, rng)
        add = sess.add
        q, a = rng.choice(ROUTINE[lang][ctx])
        if canary_sessions[ctx] == n:
            q = q + " " + bank.canary_text[ctx].format(c=canaries[ctx][0])
        add("user", q)
        add("assistant", a)
        for ev in evs:
            before = {e.key: copy.deepcopy(states[e.key]) for e in ev.effects}
            for text, eff in zip(ev.turns, ev.effects, strict=False):
                add("user", text, key=eff.key)
                apply_effect(states[eff.key], eff, n, sess.t, text)
                add("assistant", bank.ack)
            for extra in ev.turns[len(ev.effects) :]:
                add("user", extra)
            if ev.retract_next:
                add("user", rng.choice(bank.retract))
                for key, b in before.items():
                    states[key] = _retract(b, states[key])
                add("assistant", bank.ack)
            probe_points.add(n)
        if rng.random() < 0.5:
            q2, a2 = rng.choice(ROUTINE[lang][ctx])
            add("user", q2)
            add("assistant", a2)
        t = sess.t
        sessions.append({"n": n, "session_id": sid, "system_context": ctx, "turns": sess.turns})
        day = t + timedelta(days=rng.choice((1, 2, 3, 4, 5, 7)))
        at = day.replace(hour=rng.randint(8, 19), minute=rng.randint(0, 59))
        if n in probe_points:  # asked just before the next session starts
            when = at - timedelta(minutes=1) if n < n_sessions else t + timedelta(days=1)
            probes.extend(
                _probes(
                    rng,
                    bank,
                    user_id,
                    n,
                    when,
                    states,
                    changed={e.key for ev in evs for e in ev.effects},
                    k=probes_per_point,
                    sessions=sessions,
                )
            )
    return {
        "user_id": user_id,
        "lang": lang,
        "name": name,
        "n_sessions": n_sessions,
        "canaries": canaries,
        "sessions": sessions,
        "probes": probes,
    }


def _probes(
    rng: random.Random,
    bank: Bank,
    user_id: str,
    after: int,
    at: datetime,
    states: dict[str, KeyState],
    *,
    changed: set[str],
    k: int,
    sessions: list[dict[str, Any]],
) -> list[dict[str, Any]]:
    keys = sorted(changed)
    rest = [x for x in bank.slots if x not in changed]
    rng.shuffle(rest)
    keys += rest[: max(0, k - len(keys))]
    out = []
    for key in keys:
        slot = bank.slots[key]
        ctx = slot.context
        if rng.random() < 0.12:  # ask in the other context: must abstain
            ctx = HEALTH if slot.context == SUPPORT else SUPPORT
        st = states[key] if ctx == slot.context else KeyState()
        dates = [sessions[s - 1]["turns"][0]["at"][:10] for s in st.sessions]
        out.append(
            {
                "id": f"{user_id}_p{after:03d}_{key}_{ctx}",
                "after_session": after,
                "at": at.isoformat(),
                "system_context": ctx,
                "key": key,
                "query": rng.choice(slot.probes),
                "category": _category(st, ctx, slot.context),
                "tags": list(st.tags),
                "expected": {
                    "values": list(st.values),
                    "source_sessions": [sessions[s - 1]["session_id"] for s in st.sessions],
                    "source_dates": sorted(set(dates) | set(st.dates)),
                    "stale": [
                        v for v in st.stale if v not in st.values and v not in st.pending_alt
                    ],
                    "false": [
                        v for v in st.false if v not in st.values and v not in st.pending_alt
                    ],
                    "confirm_due": st.confirm_due,
                    "also_acceptable": list(st.pending_alt),
                    "explicit": st.explicit,
                },
            }
        )
    return out


def generate(
    seed: int = 7,
    users_en: int = 40,
    users_zh: int = 20,
    sessions: tuple[int, ...] = (50, 100, 200),
) -> dict[str, list[dict[str, Any]]]:
    """The whole set: ``{"en": [user, ...], "zh": [user, ...]}``.

    Args:
        seed: master seed.
        users_en / users_zh: users per language.
        sessions: session counts, assigned round-robin (user ``i`` gets
            ``sessions[i % len(sessions)]``).
    """
    out: dict[str, list[dict[str, Any]]] = {}
    for lang, count in (("en", users_en), ("zh", users_zh)):
        out[lang] = [
            generate_user(seed, lang, i, sessions[i % len(sessions)]) for i in range(count)
        ]
    return out


def write_jsonl(data: dict[str, list[dict[str, Any]]], out_dir: Path) -> list[Path]:
    """Write ``evalset_<lang>.jsonl`` files; returns their paths."""
    out_dir.mkdir(parents=True, exist_ok=True)
    paths = []
    for lang, users in data.items():
        path = out_dir / f"evalset_{lang}.jsonl"
        with path.open("w", encoding="utf-8") as fh:
            for user in users:
                fh.write(json.dumps(user, ensure_ascii=False) + "\n")
        paths.append(path)
    return paths


def main(argv: list[str] | None = None) -> int:
    """Command line entry point."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--users-en", type=int, default=40)
    ap.add_argument("--users-zh", type=int, default=20)
    ap.add_argument(
        "--sessions",
        default="50,100,200",
        help="comma-separated session counts, assigned round-robin",
    )
    ap.add_argument("--out", type=Path, default=Path(__file__).parent / "data")
    args = ap.parse_args(argv)
    counts = tuple(int(x) for x in args.sessions.split(","))
    data = generate(args.seed, args.users_en, args.users_zh, counts)
    for path in write_jsonl(data, args.out):
        users = [json.loads(line) for line in path.read_text("utf-8").splitlines()]
        n_probes = sum(len(u["probes"]) for u in users)
        n_turns = sum(len(s["turns"]) for u in users for s in u["sessions"])
        print(f"{path}: {len(users)} users, {n_turns} turns, {n_probes} probes")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
