"""context() answers the key a query names: outranked values are added, faded inferences
are shown as something to confirm, never asserted and never silently lost."""

from __future__ import annotations

import pytest

from shared_core import FakeClock, MemoryConfig, UserMemory
from shared_core.embed import HashingEmbedder
from shared_core.entities import ChangeAction, Status

SIGNAL = "Can you email me the invoice this time?"
CONFIRM = "Ask to confirm before acting:"


def _consensus(mem: UserMemory, clock: FakeClock, user: str = "u") -> None:
    for i in range(3):
        clock.advance(days=2)
        mem.observe(user, SIGNAL, session_id=f"{user}-s{i}", system_context="support")
        mem.end_session(user, f"{user}-s{i}")
    assert mem.profile(user, system_context="support").get("contact.channel") == "email"


def _confirm_lines(ctx: str) -> list[str]:
    lines = ctx.splitlines()
    if CONFIRM not in lines:
        return []
    out = []
    for line in lines[lines.index(CONFIRM) + 1 :]:
        if not line.startswith("- "):
            break
        out.append(line)
    return out


def test_faded_inference_is_asked_about_not_asserted_and_not_lost(mem, clock):
    _consensus(mem, clock)
    clock.advance(days=30)
    assert "contact.channel" not in mem.profile("u", system_context="support")  # faded
    assert not any(
        r.record.key == "contact.channel"
        for r in mem.recall("u", "How should we notify you?", system_context="support")
    )
    ctx = mem.context("u", "How should we notify you?", system_context="support")
    confirm = _confirm_lines(ctx)
    assert len(confirm) == 1, ctx
    line = confirm[0]
    assert line.startswith('- contact.channel = "email" (inferred on ')
    assert "3 signals" in line and "ask before relying on it" in line
    # it is not presented as a known preference
    assert (
        "Preferences and facts:" not in ctx
        or 'contact.channel = "email"'
        not in ctx.split("Preferences and facts:")[1].split("Relevant past conversations:")[0]
    )


def test_faded_inference_only_when_the_query_names_the_key(mem, clock):
    _consensus(mem, clock)
    clock.advance(days=30)
    ctx = mem.context("u", "What was my last invoice amount?", system_context="support")
    assert not any("contact.channel" in line for line in _confirm_lines(ctx))


def test_key_answers_can_be_turned_off(clock):
    m = UserMemory.from_url(
        "sqlite:///:memory:",
        clock=clock,
        embedder=HashingEmbedder(),
        config=MemoryConfig(max_key_answers=0),
    )
    _consensus(m, clock)
    clock.advance(days=30)
    ctx = m.context("u", "How should we notify you?", system_context="support")
    assert _confirm_lines(ctx) == []
    m.close()


def test_no_confirmation_before_consensus_or_after_an_explicit_value(mem, clock):
    for i in range(2):  # two signals: still pending
        clock.advance(days=1)
        mem.observe("u", SIGNAL, session_id=f"p{i}", system_context="support")
    clock.advance(days=30)
    ctx = mem.context("u", "How should we notify you?", system_context="support")
    assert "email" not in ctx.split("Relevant past conversations:")[0].lower()

    _consensus(mem, clock, "v")
    clock.advance(days=1)
    ch = mem.observe("v", "From now on, text me by SMS.", system_context="support")
    assert any(c.action in (ChangeAction.UPDATED, ChangeAction.ADDED) for c in ch)
    clock.advance(days=30)
    ctx = mem.context("v", "How should we notify you?", system_context="support")
    assert _confirm_lines(ctx) == []
    head = ctx.split("Relevant past conversations:")[0]
    assert 'contact.channel = "text"' in head and "email" not in head.lower()


def test_outranked_value_of_the_asked_key_is_added(mem, clock):
    _consensus(mem, clock)
    clock.advance(days=3)  # still recallable, but its effective confidence is low
    # many unrelated turns that share the query's words outrank it
    for i in range(12):
        mem.observe(
            "u",
            f"Please notify me about the outage number {i}.",
            session_id="x",
            system_context="support",
        )
    rec = mem.history("u", "contact.channel", system_context="support")[-1]
    assert rec.status is Status.ACTIVE
    ranked = mem.recall("u", "notify me about the outage", k=6, system_context="support")
    ctx = mem.context("u", "notify me about the outage", system_context="support")
    assert all(r.record.key != "contact.channel" for r in ranked)  # outranked
    assert 'contact.channel = "email"' in ctx.split("Relevant past conversations:")[0]
    assert not any("contact.channel" in line for line in _confirm_lines(ctx))


def test_budget_drops_past_turns_before_the_faded_confirmation(mem, clock):
    from shared_core.tokens import count_tokens

    mem.remember("u", "name", "Ingrid", kind="fact", system_context="support")
    _consensus(mem, clock)
    clock.advance(days=30)
    q = "Can you email me how you will notify me?"
    full = mem.context("u", q, system_context="support")
    assert _confirm_lines(full) and "Relevant past conversations:" in full
    episodes = full.count("(session ")
    trimmed = mem.context("u", q, system_context="support", token_budget=count_tokens(full) - 1)
    assert trimmed.count("(session ") < episodes  # a past turn went first
    assert _confirm_lines(trimmed) == _confirm_lines(full)
    tight = mem.context("u", q, system_context="support", token_budget=40)
    assert "contact.channel" not in tight
    assert "Ingrid" in tight


@pytest.mark.parametrize("bad", [-1, "2", 1.5, True, None])
def test_max_key_answers_validated(bad):
    from shared_core.errors import ConfigError

    with pytest.raises(ConfigError):
        MemoryConfig(max_key_answers=bad)


def test_session_episode_does_not_list_a_pending_signal_as_stated(mem, clock):
    mem.observe("u", SIGNAL, session_id="s1", system_context="support")
    ep = mem.end_session("u", "s1")
    assert ep is not None
    assert "contact.channel" not in ep.value
    assert ep.metadata["statements"] == []


def test_resumed_session_is_not_counted_twice(mem, clock):
    mem.observe("u", "hello", session_id="s1")
    clock.advance(hours=5)  # the short-term session state expired (TTL 30 min)
    mem.observe("u", "hello again", session_id="s1")
    state = mem.records.user_state("u")
    assert state is not None and state.sessions == 1


def test_turns_that_stated_a_replaced_value_are_not_injected_for_that_key(mem, clock):
    mem.observe("u", "I have hypertension.", session_id="s1", system_context="health")
    clock.advance(days=10)
    ch = mem.observe("u", "I have hypertension.", session_id="s2", system_context="health")
    assert any(c.action is ChangeAction.REINFORCED for c in ch)
    restated = next(c.record for c in ch if c.action is ChangeAction.EPISODE)
    rec = mem.history("u", "health.condition", system_context="health")[-1]
    assert restated.provenance.turn_id in rec.metadata["restated_in"]
    clock.advance(days=10)
    mem.observe("u", "I no longer have hypertension.", session_id="s3", system_context="health")
    clock.advance(days=1)
    ctx = mem.context("u", "What health conditions do I have?", system_context="health")
    assert '"I have hypertension."' not in ctx  # neither the statement nor its restatement
    assert "health.condition" not in ctx
    # asked about the past conversation itself, the turns are still there
    past = mem.context(
        "u", "Last time, when did I tell you about my hypertension?", system_context="health"
    )
    assert '"I have hypertension."' in past


def test_the_same_confirmation_question_is_asked_once(mem, clock):
    mem.observe("u", "Never call me.", session_id="s1")
    clock.advance(days=1)
    mem.observe("u", "You may call me.", session_id="s2")
    clock.advance(hours=1)
    mem.observe("u", "You may call me.", session_id="s3")
    questions = [c.question for c in mem.records.conflicts("u", "default") if c.question]
    assert len(questions) == 1  # said again while open: the same question, more evidence
    held = [r for r in mem.history("u", "contact.call") if r.status is Status.PENDING]
    assert len(held) == 1 and held[0].evidence == 2
    ctx = mem.context("u", "Can we phone you?")
    lines = [line for line in ctx.splitlines() if "Which one should I follow?" in line]
    assert len(lines) == 1
    # dated on both sides: the question stays open for days, so "now" would mislead
    assert "On 2026-04-01 you said contact.call" in lines[0] and "on 2026-04-02 you" in lines[0]
