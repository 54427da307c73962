"""The assistant's question travels in the session state to the next user turn only:
taken atomically with the turn index, cleared by any other turn, kept per session, the same
through observe and observe_messages, and kept by a retried attempt (issue 12)."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest

from shared_core import FakeClock, UserMemory
from shared_core.errors import ConflictError

ASK = "Which town do you live in?"


def facts(mem: UserMemory, user: str = "u") -> dict[str, dict[str, Any]]:
    return {
        r["key"]: r
        for r in mem.export(user)["records"]
        if r["kind"] != "episode" and r["status"] == "active"
    }


def say(mem: UserMemory, session: str, *turns: tuple[str, str], user: str = "u") -> None:
    for role, text in turns:
        mem.observe(user, text, role=role, session_id=session)


def test_the_next_user_turn_answers_the_question(mem: UserMemory) -> None:
    say(mem, "s", ("assistant", f"Happy to help. {ASK}"), ("user", "Bath."))
    rec = facts(mem)["location.city"]
    assert rec["value"].lower() == "bath"
    assert rec["metadata"]["answering"] == ASK
    assert rec["provenance"]["span"] == "Bath."
    assert rec["provenance"]["role"] == "user"
    assert mem.sessions.get_state("u", "s").get("asked") is None  # taken by the answer


def test_the_question_applies_to_the_very_next_user_turn_only(mem: UserMemory) -> None:
    say(mem, "s", ("assistant", ASK), ("user", "hang on"), ("user", "Bath"))
    assert "location.city" not in facts(mem)


@pytest.mark.parametrize(
    "between",
    [("assistant", "Sorry, one moment."), ("tool", "weather: 14C, light rain")],
)
def test_any_other_turn_in_between_clears_it(mem: UserMemory, between: tuple[str, str]) -> None:
    say(mem, "s", ("assistant", ASK), between, ("user", "Bath"))
    assert facts(mem) == {}


def test_a_later_question_replaces_the_earlier_one(mem: UserMemory) -> None:
    say(mem, "s", ("assistant", ASK), ("assistant", "Any allergies?"), ("user", "latex"))
    assert set(facts(mem)) == {"allergy.other"}


def test_a_system_turn_leaves_the_question_as_observe_messages_does(mem: UserMemory) -> None:
    say(mem, "s", ("assistant", ASK), ("system", "Be brief."), ("user", "Bath"))
    assert "location.city" in facts(mem)


def test_another_session_does_not_see_the_question(mem: UserMemory) -> None:
    say(mem, "s1", ("assistant", ASK))
    say(mem, "s2", ("user", "Bath"))
    assert facts(mem) == {}
    say(mem, "s1", ("user", "Bath"))  # the asked session still has it
    assert "location.city" in facts(mem)


def test_another_user_does_not_see_the_question(mem: UserMemory) -> None:
    say(mem, "s", ("assistant", ASK), user="a")
    say(mem, "s", ("user", "Bath"), user="b")
    assert facts(mem, "b") == {}


def test_interleaved_sessions_keep_their_own_questions(mem: UserMemory) -> None:
    say(mem, "s1", ("assistant", ASK))
    say(mem, "s2", ("assistant", "Any allergies I should know of?"))
    say(mem, "s2", ("user", "latex"))
    say(mem, "s1", ("user", "Bath"))
    got = facts(mem)
    assert got["location.city"]["metadata"]["answering"] == ASK
    assert got["allergy.other"]["metadata"]["answering"] == "Any allergies I should know of?"


def test_concurrent_sessions_do_not_mix(mem: UserMemory) -> None:
    towns = ["Bath", "Leeds", "York", "Derby", "Exeter", "Hull", "Ely", "Wells"]

    def one(n: int) -> None:
        user = f"u{n}"
        for k in range(3):
            say(mem, f"s{k}", ("assistant", ASK), user=user)
        for k in range(3):
            say(mem, f"s{k}", ("user", towns[(n + k) % len(towns)]), user=user)

    with ThreadPoolExecutor(max_workers=4) as pool:
        list(pool.map(one, range(len(towns))))
    for n in range(len(towns)):
        recs = [
            r
            for r in mem.history(f"u{n}", "location.city")
            if r.key == "location.city" and r.metadata.get("answering") == ASK
        ]
        said = {r.value for r in recs}
        assert said == {towns[(n + k) % len(towns)] for k in range(3)}


def test_observe_messages_carries_the_question_the_same_way(mem: UserMemory) -> None:
    msgs = [
        {"role": "user", "content": "hi, I need a new bike"},
        {"role": "assistant", "content": "Sure! What's your budget for it?"},
        {"role": "system", "content": "(the app's prompt: skipped)"},
        {"role": "user", "content": "about 700 pounds"},
        {"role": "assistant", "content": ASK},
        {"role": "tool", "content": "shop search: 12 results"},
        {"role": "user", "content": "Bath"},
    ]
    mem.observe_messages("u", msgs, session_id="m")
    got = facts(mem)
    assert got["budget.max"]["metadata"]["answering"] == "What's your budget for it?"
    assert "location.city" not in got  # the tool turn came in between


def test_observe_and_observe_messages_store_the_same(clock: FakeClock) -> None:
    turns = [
        ("assistant", "Got it. Are you vegan?"),
        ("user", "yep"),
        ("assistant", "How should I address you?"),
        ("user", "Robbie is fine"),
    ]
    out = []
    for batched in (False, True):
        with UserMemory.from_url("sqlite:///:memory:", clock=clock) as m:
            if batched:
                m.observe_messages(
                    "u", [{"role": r, "content": t} for r, t in turns], session_id="s"
                )
            else:
                say(m, "s", *turns)
            out.append(
                {(k, r["value"], r["metadata"].get("answering")) for k, r in facts(m).items()}
            )
    assert out[0] == out[1]
    assert {k for k, _, _ in out[0]} == {"diet", "name.preferred"}


def test_a_retried_attempt_keeps_the_question_it_took(mem: UserMemory) -> None:
    say(mem, "s", ("assistant", ASK))
    real = mem._commit
    calls = {"n": 0}

    def flaky(batch: Any, user_id: str) -> None:
        calls["n"] += 1
        if calls["n"] == 1:
            raise ConflictError("another writer got there first")
        real(batch, user_id)

    mem._commit = flaky  # type: ignore[method-assign]
    say(mem, "s", ("user", "Bath"))
    assert calls["n"] == 2  # the turn was computed twice, the question taken once
    assert facts(mem)["location.city"]["metadata"]["answering"] == ASK


def test_an_assistant_turn_without_a_question_stores_no_state_for_it(mem: UserMemory) -> None:
    say(mem, "s", ("assistant", "Done: your order is on its way."))
    assert "asked" not in mem.sessions.get_state("u", "s")
    say(mem, "s", ("assistant", ASK))
    assert mem.sessions.get_state("u", "s")["asked"] == ASK


def test_the_question_is_kept_masked_as_the_session_keeps_turns(clock: FakeClock) -> None:
    from shared_core.config import MemoryConfig

    cfg = MemoryConfig(pii_mode="mask_all")
    with UserMemory.from_url("sqlite:///:memory:", clock=clock, config=cfg) as m:
        say(m, "s", ("assistant", "Shall I use jo.bloggs@example.com, or which address?"))
        asked = m.sessions.get_state("u", "s")["asked"]
        assert "jo.bloggs@example.com" not in asked and asked.endswith("which address?")


def test_an_erase_takes_the_pending_question_with_it(mem: UserMemory) -> None:
    """The question waits in the session state, which an erase deletes: an answer after
    the erase frames nothing from what was asked before it."""
    say(mem, "s", ("assistant", ASK))
    mem.forget("u")
    assert "asked" not in mem.sessions.get_state("u", "s")
    say(mem, "s", ("user", "Bath"))
    assert facts(mem) == {}


def test_hostile_turns_keep_the_state_bounded_and_store_nothing(mem: UserMemory) -> None:
    from shared_core.errors import UserMemoryError
    from shared_core.ingest.answers import MAX_QUESTION_CHARS

    say(mem, "s", ("assistant", "x " * 15_000 + ASK))  # 30 KB, the question at the end
    asked = mem.sessions.get_state("u", "s")["asked"]
    assert len(asked) <= MAX_QUESTION_CHARS and asked.endswith(ASK)
    say(mem, "s", ("user", "Bath, " * 5_000))  # far longer than any framed answer
    assert "location.city" not in facts(mem)
    say(mem, "s", ("assistant", "?" * 30_000), ("user", "?" * 30_000))
    for bad in ("", None, 42):
        with pytest.raises(UserMemoryError):
            mem.observe("u", bad, role="user", session_id="s")  # type: ignore[arg-type]
    say(mem, "s", ("assistant", ASK), ("user", "Bath"))  # nothing before it was lost
    assert facts(mem)["location.city"]["value"].lower() == "bath"
