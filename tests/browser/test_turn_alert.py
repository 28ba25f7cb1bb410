"""The turn alert (app/static/notify.js): when a push makes it the page's seat's move, a beep, and
for a player who opted in, a browser notification while the page is unfocused. The page's
AudioContext and Notification are stubbed so the test counts what the script asked for."""

from __future__ import annotations

from typing import Any

import pytest

from tests.browser.conftest import sign_in_as_guest
from tests.conftest import Player, new_table

pytestmark = pytest.mark.browser

STUBS = """
window.__beeps = 0;
window.__notes = [];
class FakeAudio {
  constructor() { this.state = "running"; this.currentTime = 0; this.destination = {}; }
  resume() {}
  createOscillator() {
    window.__beeps += 1;
    return {type: "", frequency: {setValueAtTime() {}}, connect() {}, start() {}, stop() {}};
  }
  createGain() { return {gain: {setValueAtTime() {}, exponentialRampToValueAtTime() {}}, connect() {}}; }
}
window.AudioContext = FakeAudio;
function FakeNotification(title) { window.__notes.push(title); this.close = function () {}; }
FakeNotification.permission = "granted";
FakeNotification.requestPermission = function () { return Promise.resolve("granted"); };
window.Notification = FakeNotification;
document.hasFocus = function () { return false; };  // the player looks at another window
"""


def test_a_push_that_makes_it_my_move_beeps_and_notifies_once_opted_in(server: Any, browser: Any) -> None:
    from playwright.sync_api import expect

    expect.set_options(timeout=10_000)
    host = Player(server.url, "Hana")
    match_id = new_table(host, players=2)
    context = browser.new_context()
    context.add_init_script(STUBS)
    page = context.new_page()
    beeps = lambda: page.evaluate("window.__beeps")  # noqa: E731
    try:
        page.goto(f"{server.url}/matches/{match_id}")
        sign_in_as_guest(page, "Bolek")
        page.locator("#join-table").click()
        expect(page.locator("#seats tr.you")).to_contain_text("Bolek")
        status = page.locator("#prompt")  # the prompt bar says whose move it is
        expect(status).to_have_attribute("data-my-turn", "0")
        assert beeps() == 0, "no beep on a page load"

        assert host.post(f"/api/matches/{match_id}/start").status_code == 200
        expect(status).to_have_attribute("data-my-turn", "1")  # the push: both seats bid
        page.wait_for_function("window.__beeps === 1")
        assert page.evaluate("window.__notes") == [], "no notification without the opt-in"

        page.locator("#drawer-settings > summary").click()  # the seat's own settings, beside the board
        toggle = page.locator("#notify-opt-in")
        expect(toggle).to_be_visible()
        toggle.check()
        page.wait_for_function("localStorage.getItem('warroom.notify-turn') === '1'")

        # the host bids: a push, and it is still this seat's move: no second beep
        seq = host.match(match_id)["seq"]
        assert host.act(match_id, "bid:p1:round1", "0", seq=seq).status_code == 200
        expect(page.locator("#status")).to_have_attribute("data-seq", str(seq + 1))
        expect(page.locator("#notify-opt-in")).to_be_checked()  # re-rendered, still as stored
        assert beeps() == 1

        page.locator("#decisions form.decision[data-decision='bid:p2:round1'] button[name=choice]").first.click()
        expect(status).to_have_attribute("data-my-turn", "0")  # the host's turn now

        for _ in range(20):  # the host plays its turn until this seat is asked again
            m = host.match(match_id)
            mine = [d for d in m["pending"] if not d["optional"]]
            if not mine:
                break
            assert host.act(match_id, mine[0]["decision"], mine[0]["choices"][-1]["id"],
                            seq=m["seq"]).status_code == 200
        expect(status).to_have_attribute("data-my-turn", "1")
        page.wait_for_function("window.__beeps === 2")
        assert page.evaluate("window.__notes") == ["Your move — Hana's game"]  # the table's name
    finally:
        context.close()
