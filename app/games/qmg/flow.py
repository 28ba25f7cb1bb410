"""What keeps live play moving: auto-pass for reaction windows and what the table waits for.

Auto-pass (``AutoPasses``): a reaction window asks a seat when one of its countries has a
usable Status or *some* Response of its deck list could answer (reactions.py: being asked
reveals nothing). The window's own choices already list only what the seat truly holds and
may use now, so a window offering nothing but "pass" is one the seat cannot act in: ``idle``.
Passing it at once tells the other seats so (its timing); the seat's setting accepts that.

Waiting notes (``SaysWhatItWaitsFor``): the country and the kind of question, and for a
window the countries asked and the situation, all public; never the prompt's own options.
"""

from __future__ import annotations

from typing import Any

from app.games.protocol import Decision, Msg, Pass
from app.games.qmg.actions import countries_in_order
from app.games.qmg.data import COUNTRIES
from app.games.qmg.engine import current
from app.games.qmg.reactions import situation
from app.games.qmg.state import GameState
from app.games.qmg.text import say

PASS = "pass"

# the question's kind -> the note's message id ({country}); other kinds say "wait_deciding"
NOTES = {
    "setup_discard": "wait_setup_discard",
    "action": "wait_action",
    "build": "wait_build",
    "deploy": "wait_deploy",
    "battle": "wait_battle",
    "eliminate": "wait_eliminate",
    "pay_hand": "wait_pay",
    "discard_phase": "wait_discard_phase",
    "use_status": "wait_use_status",
    "realloc_discard": "wait_realloc",
    "realloc_pick": "wait_realloc",
}


def autopass(seat: str, decision: Decision) -> Pass | None:
    if decision.kind != "react" or decision.seat != seat or PASS not in decision.choice_ids():
        return None
    return Pass(choice=PASS, idle=decision.choice_ids() == [PASS])


def round_mark(state: GameState) -> str:
    return str(state.round)


def waiting_note(state: GameState) -> Msg | None:
    t = current(state)
    if t is None:
        return None
    q: dict[str, Any] = t["q"]
    if t["k"] == "window":
        asked = [c for c in countries_in_order(t["on"]) if state.seat_of(c) == q["seat"]]
        return say("wait_react", countries=asked, situation=situation(t["sit"]))
    prompt = q.get("prompt")
    named = prompt.get("params", {}).get("country") if isinstance(prompt, dict) else None
    # the country the prompt addresses (a deploy's chooser...), else the task's own country
    for country in (named, t.get("c"), t.get("chooser")):
        if isinstance(country, str) and country in state.countries and state.seat_of(country) == q["seat"]:
            return say(NOTES.get(str(q["kind"]), "wait_deciding"), country=country)
    return say("wait_deciding", country=[c for c in COUNTRIES if state.seat_of(c) == q["seat"]])
