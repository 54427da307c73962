"""The ``/me`` page in real headless Chromium (Debian's chromium + chromium-driver, selenium):
view, correct, delete one, pause, export, erase; escaping; keyboard; phone width; Chinese.
Screenshots go to ``$USERMEMORY_ARTIFACTS`` (default ``<tmp>/usermemory-artifacts/browser``).
Under CI=true a missing Chromium fails the tests instead of skipping them."""

from __future__ import annotations

import json
import os
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from server_support import auth

from shared_core.server.page import STRINGS

CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"
ARTIFACTS = Path(
    os.environ.get("USERMEMORY_ARTIFACTS")
    or Path(tempfile.gettempdir()) / "usermemory-artifacts" / "browser"
)
HOSTILE = '<script>window.__pwned = 1</script><img src=x onerror="window.__pwned = 2">'


def _need_chromium() -> None:
    if os.path.exists(CHROMIUM) and os.path.exists(CHROMEDRIVER):
        return
    msg = "Chromium not installed: apt-get install -y chromium chromium-driver (see .ci/run)"
    if os.environ.get("CI") == "true":
        pytest.fail(msg)
    pytest.skip(msg)


@pytest.fixture
def browser(tmp_path) -> Iterator[object]:
    _need_chromium()
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    downloads = tmp_path / "downloads"
    downloads.mkdir()
    opts = webdriver.ChromeOptions()
    opts.binary_location = CHROMIUM
    for flag in (
        "--headless=new",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--disable-dev-shm-usage",
        f"--user-data-dir={tmp_path / 'profile'}",
        "--window-size=1100,1400",
    ):
        opts.add_argument(flag)
    opts.add_experimental_option(
        "prefs",
        {"download.default_directory": str(downloads), "download.prompt_for_download": False},
    )
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=opts)
    driver.implicitly_wait(0)
    driver.downloads = downloads  # type: ignore[attr-defined]
    try:
        yield driver
    finally:
        driver.quit()


def _shot(driver, name: str) -> Path:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    path = ARTIFACTS / f"{name}.png"
    assert driver.save_screenshot(str(path)), path
    assert path.stat().st_size > 1000
    return path


def _seed(live) -> tuple[str, str]:
    """alice has rules, preferences, a correction history and a hostile value; returns
    (API key, alice's end-user token)."""
    _, key = live.key("acme")
    for text in (
        "Never call me, text me instead.",
        "I'm vegetarian.",
        "I live in Berlin.",
    ):
        r = httpx.post(
            f"{live.url}/v1/observe",
            json={"user_id": "alice", "text": text, "session_id": "s1"},
            headers=auth(key),
        )
        assert r.status_code == 200, r.text
    r = httpx.post(
        f"{live.url}/v1/remember",
        json={"user_id": "alice", "key": "nickname", "value": HOSTILE, "kind": "fact"},
        headers=auth(key),
    )
    assert r.status_code == 200
    httpx.post(  # bob's data must never appear on alice's page
        f"{live.url}/v1/remember",
        json={"user_id": "bob", "key": "diet", "value": "bob-only-carnivore"},
        headers=auth(key),
    )
    tok = httpx.post(f"{live.url}/v1/tokens", json={"user_id": "alice"}, headers=auth(key))
    return key, tok.json()["token"]


def _profile(live, key: str, user: str = "alice") -> dict[str, str]:
    r = httpx.post(f"{live.url}/v1/profile", json={"user_id": user}, headers=auth(key))
    return r.json()["profile"]


def _memory(driver, key: str):
    from selenium.webdriver.common.by import By

    return driver.find_element(By.CSS_SELECTOR, f'li.memory[data-key="{key}"]')


def _wait(cond, timeout: float = 10.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = cond()
        if value:
            return value
        time.sleep(0.1)
    raise AssertionError("condition not met in time")


def test_me_page_view_correct_delete_pause_export_erase(live, browser):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    d = browser
    key, tok = _seed(live)
    d.get(f"{live.url}/me?token={tok}")
    assert d.current_url == f"{live.url}/me"  # the token left the address bar at once
    _shot(d, "01-view")

    # view: grouped by kind, with value, words, confidence and provenance
    kinds = [
        s.get_attribute("aria-labelledby") for s in d.find_elements(By.CSS_SELECTOR, "section.kind")
    ]
    assert "kind-constraint" in kinds and "kind-preference" in kinds
    call = _memory(d, "contact.call")
    assert call.find_element(By.CSS_SELECTOR, ".value").text == "never"
    assert "Never call me" in call.find_element(By.CSS_SELECTOR, ".words").text
    assert call.find_element(By.CSS_SELECTOR, ".confidence").text.endswith("%")
    assert call.find_element(By.CSS_SELECTOR, ".session").text == "s1"
    assert "bob-only-carnivore" not in d.page_source

    # stored text is shown, never run
    nick = _memory(d, "nickname")
    assert nick.find_element(By.CSS_SELECTOR, ".value").text == HOSTILE
    assert d.execute_script("return typeof window.__pwned") == "undefined"
    assert "&lt;script&gt;" in d.page_source
    assert not d.find_elements(By.CSS_SELECTOR, "li.memory img")

    # correct, by keyboard: open the form, type, press Enter
    diet = _memory(d, "diet")
    diet.find_element(By.CSS_SELECTOR, "details.correct summary").click()
    box = diet.find_element(By.CSS_SELECTOR, "input[name=value]")
    box.clear()
    box.send_keys("vegan", Keys.ENTER)
    _wait(lambda: d.find_elements(By.CSS_SELECTOR, '#done[data-done="corrected"]'))
    assert _memory(d, "diet").find_element(By.CSS_SELECTOR, ".value").text == "vegan"
    versions = _memory(d, "diet").find_elements(By.CSS_SELECTOR, "li.version")
    assert [v.get_attribute("data-status") for v in versions] == ["superseded", "active"]
    _shot(d, "02-corrected")
    assert _profile(live, key)["diet"] == "vegan"
    latest = live.mem.history("acme/alice", "diet")[-1]
    assert (latest.source.value, latest.provenance.actor.split(":")[0]) == ("user_declare", "user")

    # delete one memory
    _memory(d, "location.city").find_element(By.CSS_SELECTOR, "form.delete-form button").click()
    _wait(lambda: d.find_elements(By.CSS_SELECTOR, '#done[data-done="deleted"]'))
    assert not d.find_elements(By.CSS_SELECTOR, 'li.memory[data-key="location.city"]')
    assert "location.city" not in _profile(live, key)
    assert _profile(live, key)["diet"] == "vegan"  # only that one
    _shot(d, "03-deleted")

    # pause: writes are refused until resumed
    d.find_element(By.ID, "pause-button").click()
    _wait(lambda: d.find_elements(By.CSS_SELECTOR, '#memory-state[data-enabled="false"]'))
    r = httpx.post(
        f"{live.url}/v1/remember",
        json={"user_id": "alice", "key": "diet", "value": "keto"},
        headers=auth(key),
    )
    assert (r.status_code, r.json()["code"]) == (409, "memory_disabled")
    _shot(d, "04-paused")

    # export: the browser downloads everything about alice, and only alice
    d.find_element(By.ID, "export-link").click()
    path = _wait(lambda: next(iter(d.downloads.glob("*.json")), None))
    time.sleep(0.3)
    dump = json.loads(path.read_text(encoding="utf-8"))
    assert dump["user_id"] == "alice" and dump["state"]["memory_enabled"] is False
    assert {r["user_id"] for r in dump["records"]} == {"alice"}
    assert "bob-only-carnivore" not in path.read_text(encoding="utf-8")

    # erase everything, after a confirmation
    d.find_element(By.ID, "erase-link").click()
    submit = d.find_element(By.ID, "erase-submit")
    assert submit.get_attribute("disabled") is not None  # the script waits for the word
    d.find_element(By.ID, "confirm").send_keys("ERASE")
    assert submit.get_attribute("disabled") is None
    _shot(d, "05-erase-confirm")
    submit.click()
    _wait(lambda: d.find_elements(By.CSS_SELECTOR, '#message[data-state="erased"]'))
    _shot(d, "06-erased")
    assert "acme/alice" not in live.mem.users()
    assert live.mem.export("acme/alice")["records"] == []
    assert _profile(live, key, "bob") == {"diet": "bob-only-carnivore"}
    d.get(f"{live.url}/me")  # the sign-in cookie went with the data
    assert d.find_elements(By.CSS_SELECTOR, '#message[data-state="error"]')


def test_erase_without_the_word_erases_nothing(live, browser):
    from selenium.webdriver.common.by import By

    d = browser
    key, tok = _seed(live)
    d.get(f"{live.url}/me?token={tok}")
    d.get(f"{live.url}/me/erase")
    d.find_element(By.ID, "confirm").send_keys("yes")
    d.execute_script("document.getElementById('erase-submit').disabled = false")  # as without JS
    d.find_element(By.ID, "erase-submit").click()
    _wait(lambda: d.find_elements(By.CSS_SELECTOR, "p.error[role=alert]"))
    assert _profile(live, key)["diet"] == "vegetarian"


def test_keyboard_reaches_every_control(live, browser):
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.keys import Keys

    d = browser
    _, tok = _seed(live)
    d.get(f"{live.url}/me?token={tok}")
    reached = []
    for _ in range(80):
        ActionChains(d).send_keys(Keys.TAB).perform()
        el = d.switch_to.active_element
        reached.append(el.get_attribute("id") or el.get_attribute("class") or el.tag_name)
    assert reached[0] == "skip"
    for control in ("pause-button", "export-link", "erase-link"):
        assert control in reached, control
    assert "summary" in reached  # history and correct forms open by keyboard
    # the skip link moves focus to the memories
    d.get(f"{live.url}/me")
    ActionChains(d).send_keys(Keys.TAB).perform()
    ActionChains(d).send_keys(Keys.ENTER).perform()
    assert d.current_url.endswith("#main")
    _shot(d, "07-keyboard")


def test_readable_on_a_phone_and_in_chinese(live, browser):
    from selenium.webdriver.common.by import By

    d = browser
    _, tok = _seed(live)
    d.set_window_size(390, 844)
    d.get(f"{live.url}/me?token={tok}&lang=zh")
    assert d.find_element(By.TAG_NAME, "html").get_attribute("lang") == "zh-CN"
    assert d.find_element(By.TAG_NAME, "h1").text == STRINGS["zh"]["title"]
    assert d.find_element(By.ID, "kind-constraint").text == STRINGS["zh"]["kind.constraint"]
    # no sideways scrolling, text at a readable size
    width = d.execute_script("return document.documentElement.scrollWidth")
    inner = d.execute_script("return window.innerWidth")
    assert width <= inner, (width, inner)
    size = d.execute_script(
        "return parseFloat(getComputedStyle(document.querySelector('li.memory')).fontSize)"
    )
    assert size >= 14
    _shot(d, "08-phone-zh")
    d.get(f"{live.url}/me?lang=en")
    assert d.find_element(By.TAG_NAME, "h1").text == STRINGS["en"]["title"]


def test_page_refuses_without_a_valid_token(live):
    r = httpx.get(f"{live.url}/me")
    assert r.status_code == 401
    r = httpx.get(f"{live.url}/me?token=forged")
    assert r.status_code == 401
    # forms need the signed-in cookie and its CSRF value
    _, tok = _seed(live)
    with httpx.Client(base_url=live.url) as c:
        c.get(f"/me?token={tok}")
        r = c.post("/me/delete", data={"key": "diet", "csrf": "wrong"})
        assert r.status_code == 403
    assert "diet" in live.mem.profile("acme/alice")


def test_answering_and_correcting_close_the_open_questions(live, browser):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    d = browser
    _, key = live.key("acme")
    for sid, text in (
        ("s1", "Never call me, text me instead."),
        ("s1", "I live in Berlin."),
        ("s2", "You can call me now."),  # contradicts a permanent rule: waits as pending
        ("s2", "I live in Paris."),  # contradicts within the confirmation window
    ):
        r = httpx.post(
            f"{live.url}/v1/observe",
            json={"user_id": "carol", "text": text, "session_id": sid},
            headers=auth(key),
        )
        assert r.status_code == 200, r.text
    tok = httpx.post(f"{live.url}/v1/tokens", json={"user_id": "carol"}, headers=auth(key))
    d.get(f"{live.url}/me?token={tok.json()['token']}")

    def questions() -> dict[str, object]:
        return {
            li.get_attribute("data-key"): li
            for li in d.find_elements(By.CSS_SELECTOR, "li.conflict")
        }

    def api_conflicts() -> list[str]:
        r = httpx.post(f"{live.url}/v1/conflicts", json={"user_id": "carol"}, headers=auth(key))
        return sorted(c["key"] for c in r.json()["conflicts"])

    assert set(questions()) == {"contact.call", "location.city"}
    city = questions()["location.city"]
    choices = [
        b.get_attribute("data-value") for b in city.find_elements(By.CSS_SELECTOR, ".choice")
    ]
    assert sorted(choices) == ["Berlin", "Paris"]
    _shot(d, "07-questions")

    # answer one question with a button: the chosen value holds, the question is closed
    city.find_element(By.CSS_SELECTOR, '.choice[data-value="Berlin"]').click()
    _wait(lambda: d.find_elements(By.CSS_SELECTOR, '#done[data-done="resolved"]'))
    assert set(questions()) == {"contact.call"}
    assert _memory(d, "location.city").find_element(By.CSS_SELECTOR, ".value").text == "Berlin"
    assert api_conflicts() == ["contact.call"]

    # correcting the other key records the declaration and closes its question too
    call = _memory(d, "contact.call")
    assert call.find_element(By.CSS_SELECTOR, ".value").text == "never"
    call.find_element(By.CSS_SELECTOR, "details.correct summary").click()
    box = call.find_element(By.CSS_SELECTOR, "input[name=value]")
    box.clear()
    box.send_keys("allowed", Keys.ENTER)
    _wait(lambda: d.find_elements(By.CSS_SELECTOR, '#done[data-done="resolved"]'))
    assert questions() == {}
    assert _memory(d, "contact.call").find_element(By.CSS_SELECTOR, ".value").text == "allowed"
    _shot(d, "08-questions-closed")
    assert api_conflicts() == []
    profile = _profile(live, key, "carol")
    assert profile["contact.call"] == "allowed" and profile["location.city"] == "Berlin"
    audit = httpx.post(f"{live.url}/v1/audit", json={"user_id": "carol"}, headers=auth(key))
    resolved = [a for a in audit.json()["entries"] if a["action"] == "resolve"]
    assert len(resolved) == 2 and all(a["actor"].startswith("user:") for a in resolved)
