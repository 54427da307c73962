"""The 50-session support scenario used by ``usermemory demo``, the tests and the notebooks.

A user talks to a support agent 50 times over six months. Most sessions are routine
(router resets, invoices, shipping); a few carry statements that matter later:

* session 3 (2026-04-12): "I only accept SMS notifications, never call me."
* session 10: a budget of 5000; session 18: "Actually, at most 20000."
* session 12: "Please don't ever recommend credit cards to me."
* sessions 20, 24, 27: browsing credit cards (an implicit interest, 3 signals)
* session 22 (health context): a penicillin allergy, corrected in session 23 to cephalexin
* session 30: "In an emergency you may call me."
* session 50: "like last time, don't call me, just text me" - what does the agent know?
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

__all__ = [
    "DEMO_USER",
    "SESSION_50_QUERY",
    "DemoSession",
    "DemoTurn",
    "demo_sessions",
    "session_date",
]

DEMO_USER = "cust_1042"
SESSION_50_QUERY = "like last time, don't call me, just text me"
_FIRST = datetime(2026, 4, 4, 9, 30, tzinfo=UTC)

_ROUTINE = [
    (
        "My router keeps dropping the connection every evening.",
        "Let's reset it: hold the button 10 s.",
    ),
    ("Can I get a copy of last month's invoice?", "Sent to your account inbox."),
    ("My parcel has not arrived yet, order 55812.", "It is delayed at the depot, 2 more days."),
    ("How do I reset my password?", "Use 'forgot password' on the login page."),
    ("The app crashes when I open settings.", "Please update to version 4.2."),
    ("Is there an outage in my area?", "No outage reported right now."),
    ("I want to change my billing date.", "Done: billing moves to the 5th."),
    ("What does the premium plan include?", "Faster support and 2 TB of storage."),
    ("My speed test shows 20 Mbps instead of 100.", "I've refreshed your line profile."),
    ("Can you explain this extra fee?", "It is the one-off activation fee."),
]

_KEY_TURNS: dict[int, tuple[str, list[str]]] = {
    3: (
        "support",
        ["Hi, about the outage alerts: I only accept SMS notifications, never call me."],
    ),
    10: ("support", ["I'm looking at the fibre upgrade. My budget is 5000."]),
    12: ("support", ["Please don't ever recommend credit cards to me."]),
    18: ("support", ["Actually, my budget is at most 20000 now."]),
    20: ("support", ["I've been looking at credit cards lately."]),
    22: ("health", ["For the pharmacy service: I'm allergic to penicillin."]),
    23: ("health", ["Sorry, I got it wrong: I'm allergic to cephalexin, not penicillin."]),
    24: ("support", ["I've been looking at credit cards lately."]),
    27: ("support", ["I've been looking at credit cards lately."]),
    30: ("support", ["In an emergency you may call me."]),
    35: ("support", ["I love jazz, haha just kidding."]),
    40: ("support", ["My device is dev_8821."]),
}


@dataclass(frozen=True, slots=True)
class DemoTurn:
    session: int
    session_id: str
    system_context: str
    role: str
    text: str
    at: datetime


@dataclass(frozen=True, slots=True)
class DemoSession:
    number: int
    session_id: str
    started: datetime
    turns: list[DemoTurn] = field(default_factory=list)

    def play(self, mem: Any, clock: Any) -> None:
        """Observe every turn at its time on ``mem`` (a ``UserMemory``), then end the session.

        ``clock`` (a ``FakeClock`` the memory uses) is set to each turn's time first.
        """
        for t in self.turns:
            clock.set(t.at)
            mem.observe(
                DEMO_USER,
                t.text,
                role=t.role,
                session_id=t.session_id,
                system_context=t.system_context,
                at=t.at,
            )
        mem.end_session(DEMO_USER, self.session_id, at=self.turns[-1].at)


def session_date(n: int) -> datetime:
    """Session ``n`` (1-based) starts on 2026-04-04 + 4 days per session (session 3: 12 April)."""
    return _FIRST + timedelta(days=4 * (n - 1))


def demo_sessions(count: int = 49) -> Iterator[DemoSession]:
    """Sessions 1..count (session 50 is the query, not part of the history)."""
    for n in range(1, count + 1):
        sid = f"s{n:02d}"
        start = session_date(n)
        ctx, texts = _KEY_TURNS.get(n, ("support", []))
        routine_q, routine_a = _ROUTINE[n % len(_ROUTINE)]
        turns: list[DemoTurn] = []
        t = start
        for text in [routine_q, *texts]:
            turns.append(DemoTurn(n, sid, ctx, "user", text, t))
            t += timedelta(minutes=1)
            turns.append(
                DemoTurn(
                    n,
                    sid,
                    ctx,
                    "assistant",
                    routine_a if text == routine_q else "Noted, thank you.",
                    t,
                )
            )
            t += timedelta(minutes=1)
        yield DemoSession(n, sid, start, turns)
