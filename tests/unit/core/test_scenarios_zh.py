"""The same stories in Chinese."""

from __future__ import annotations

from shared_core import ChangeAction, Source, Status
from shared_core.demo import session_date
from tests.unit.core.context_sections import sections


def test_zh_sms_never_call_recalled_much_later(mem, clock):
    mem.observe("u", "记住，我只接受短信通知，永远不要给我打电话", at=session_date(3))
    for n in range(4, 50):
        mem.observe("u", f"我的路由器第{n}次断线了", session_id=f"s{n}", at=session_date(n))
    clock.set(session_date(50))
    prof = mem.profile("u")
    assert mem.history("u", "contact.channel")[-1].normalized == "sms"
    assert mem.history("u", "contact.call")[-1].normalized == "never"
    assert "contact.call" in prof
    res = mem.recall("u", "跟上次一样，别打电话，发短信给我", k=3)
    assert {"contact.channel", "contact.call"} <= {r.record.key for r in res}
    sec = sections(mem.context("u", "跟上次一样，别打电话，发短信给我"))
    call, channel = sec.item("hard", "contact.call"), sec.item("soft", "contact.channel")
    assert (call.value, channel.value) == ("never", "短信")
    assert "on 2026-04-12" in call.cite and "on 2026-04-12" in channel.cite


def test_zh_allergy_correction(mem):
    mem.observe("u", "我对青霉素过敏", system_context="health", at=session_date(22))
    mem.observe("u", "其实不是青霉素，是头孢", system_context="health", at=session_date(23))
    hist = mem.history("u", "allergy.medication")
    assert [h.version for h in hist] == [1, 2]
    assert hist[0].normalized == "penicillin" and hist[0].status is Status.SUPERSEDED
    assert hist[1].status is Status.ACTIVE and hist[1].normalized != "penicillin"


def test_zh_budget_newer_wins(mem):
    mem.observe("u", "我的预算是五千", at=session_date(10))
    mem.observe("u", "最多两万", at=session_date(18))
    hist = mem.history("u", "budget.max")
    assert [h.normalized for h in hist] == ["5000", "20000"]


def test_zh_hard_constraint_and_joke(mem):
    mem.observe("u", "别给我推荐信用卡")
    (rec,) = mem.history("u", "recommend.信用卡")
    assert rec.hard and rec.normalized == "never"
    assert mem.profile("u") == {"recommend.信用卡": "never"}
    ch = mem.observe("u", "我喜欢爵士乐，哈哈开玩笑的")
    assert not [c for c in ch if c.action is ChangeAction.ADDED]


def test_zh_never_mind(mem):
    mem.observe("u", "我的预算是五千", session_id="s1")
    mem.observe("u", "算了不用了", session_id="s1")
    assert "budget.max" not in mem.profile("u")


def test_zh_tenant_and_context_isolation(mem):
    mem.observe("alice", "我对青霉素过敏", system_context="health")
    assert mem.recall("bob", "青霉素皮试", system_context="health", k=5) == []
    assert mem.recall("alice", "青霉素过敏", system_context="support", k=5) == []
    assert mem.recall("alice", "青霉素过敏", system_context="health", k=5)


def test_zh_implicit_needs_three(mem, clock):
    for i in range(3):
        clock.advance(hours=2)
        mem.observe("u", "这次发短信给我吧", session_id=f"s{i}")
        if i < 2:
            assert "contact.channel" not in mem.profile("u")
    rec = mem.history("u", "contact.channel")[-1]
    assert rec.source is Source.INFERRED and rec.evidence == 3 and rec.scope_ref == ""
    assert mem.profile("u")["contact.channel"] == "短信"
