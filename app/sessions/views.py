"""What one seat may see: the game's filtered view, its own decisions, its log."""

from __future__ import annotations

import copy
from typing import Any

import orjson

from app.games.protocol import Decision, Msg, waiting_note_of
from app.models import Match
from app.sessions.replay import LoadedMatch, MatchHead

# games may key a view's dicts by numbers: JSON makes them strings, as json.dumps did
JSON_OPTIONS = orjson.OPT_NON_STR_KEYS
# how deep views share their parts (``share``): deeper ones cost more to compare than they save
SHARED_DEPTH = 2


def msg_payload(msg: Msg | None) -> dict[str, Any] | None:
    return None if msg is None else {"id": msg.id, "params": msg.params}


def decision_payload(d: Decision) -> dict[str, Any]:
    """A decision as the API and the pages carry it: English texts, and (when the game has
    them) the same as message ids for the page's language."""
    return {
        "decision": d.id,
        "kind": d.kind,
        "prompt": d.prompt,
        "prompt_msg": msg_payload(d.prompt_msg),
        "choices": [{"id": c.id, "label": c.label, "msg": msg_payload(c.msg)} for c in d.choices],
        "min": d.min,
        "max": d.max,
        "undoable": d.undoable,
        "group": d.group,
        "optional": d.optional,
    }


def pending_for(loaded: LoadedMatch, seat: str | None, status: str) -> list[dict[str, Any]]:
    """The seat's decisions, built once per (seq, seat, status) and shared by every reader
    of that seq (the POST reply, every socket of the seat): nobody changes them."""
    if seat is None or status != "active":
        return []
    key = ("pending", seat, status)
    encoded = for_this_seq(loaded)
    cached = encoded.get(key)
    if cached is None:
        # the decisions that keep someone waiting first: a page's board answers pending[0]
        mine = [d for d in decisions(loaded) if d.seat == seat]
        pending = [decision_payload(d) for d in sorted(mine, key=lambda d: d.optional)]
        cached = encoded[key] = (pending, orjson.dumps(pending, option=JSON_OPTIONS))
    return cached[0]  # type: ignore[no-any-return]


def decisions(loaded: LoadedMatch) -> list[Decision]:
    """The rules' pending decisions at the loaded seq, asked once for the move, its reply and
    every seat's message (nobody changes the list)."""
    encoded = for_this_seq(loaded)
    pending = encoded.get("decisions")
    if pending is None:
        pending = encoded["decisions"] = loaded.game.pending(loaded.state)
    return pending  # type: ignore[no-any-return]


def for_this_seq(loaded: LoadedMatch) -> dict[Any, Any]:
    """What was built and encoded for ``loaded``'s current seq (a new seq starts afresh)."""
    if loaded.encoded_seq != loaded.seq:
        loaded.encoded.clear()
        loaded.encoded_seq = loaded.seq
    return loaded.encoded


def seat_view(loaded: LoadedMatch, seat: str | None) -> dict[str, Any]:
    """The game's view for ``seat`` at the loaded seq, as a copy that shares nothing with
    the state: later moves change the state in place, never a view already handed out."""
    key = (loaded.seq, seat)
    view = loaded.views.get(key)
    if view is None:
        blob = orjson.dumps(loaded.game.view(loaded.state, seat), option=JSON_OPTIONS)
        view = loaded.views[key] = share(loaded, orjson.loads(blob))
        for_this_seq(loaded)[("view", seat)] = blob
    return view


def share(loaded: LoadedMatch, view: dict[str, Any]) -> dict[str, Any]:
    """``view`` with its parts (two levels deep) that read exactly as in another seat's view of
    this seq, or in the one before, replaced by that very object: the board everyone sees is
    one object, and one that did not change is the one sent before, which a patch then skips
    at a glance (and diffs once for every seat it changed for). Nobody changes a view."""
    encoded = for_this_seq(loaded)
    now = encoded.get("shared")
    if now is None:
        now = encoded["shared"] = {}
        loaded.shared_before, loaded.shared_now = loaded.shared_now, now
    before = loaded.shared_before

    def same_as_seen(path: str, value: Any) -> Any:
        if not isinstance(value, dict | list) or not value:
            return value
        if isinstance(value, dict) and path.count("/") < SHARED_DEPTH:
            value = {k: same_as_seen(f"{path}/{k}", v) for k, v in value.items()}
            # its parts are shared already (equal ones are one object): they say what it holds
            # without encoding it all again; a number stands with its type (true is not 1)
            key: tuple[Any, ...] = (path, tuple(_part_key(k, v) for k, v in value.items()))
        else:
            key = (path, orjson.dumps(value, option=JSON_OPTIONS))
        seen = now.get(key)
        if seen is None:
            seen = now[key] = before.get(key, value)
        return seen

    return {k: same_as_seen(f"/{k}", v) for k, v in view.items()}


def _part_key(key: str, part: Any) -> tuple[Any, ...]:
    """What a shared part of a view says, in a few words: a (non-empty) dict or list by its
    identity (equal ones are one object), anything else by its type and value."""
    if isinstance(part, dict | list):
        return (key, id(part)) if part else (key, type(part).__name__)
    return (key, type(part).__name__, part)


def view_json(loaded: LoadedMatch, seat: str | None) -> bytes:
    view = seat_view(loaded, seat)
    encoded = for_this_seq(loaded)
    blob = encoded.get(("view", seat))
    if blob is None:  # the view was built before this seq's encodings were
        blob = encoded[("view", seat)] = orjson.dumps(view, option=JSON_OPTIONS)
    return blob  # type: ignore[no-any-return]


def answered_json(loaded: LoadedMatch, seat: str, status: str, applied: bool) -> bytes:
    """The reply to an answer (``ActionOut``), from the very encodings of the seat's view and
    decisions at this seq that its sockets' messages are built from."""
    pending_for(loaded, seat, status)
    pending = for_this_seq(loaded).get(("pending", seat, status))
    pending_blob = pending[1] if pending is not None else b"[]"
    return b"".join((b'{"seq":', str(loaded.seq).encode(), b',"view":', view_json(loaded, seat),
                     b',"pending":', pending_blob, b',"applied":', b"true" if applied else b"false", b"}"))


def event_text(event: dict[str, Any], seat: str | None) -> str:
    """The fuller private text for its seat, the public text for everyone else."""
    if seat is not None:
        private = event.get("private") or {}
        if seat in private:
            return str(private[seat])
    return str(event["text"])


def event_msg(event: dict[str, Any], seat: str | None) -> dict[str, Any] | None:
    """The message id of the line ``event_text`` picks for this seat (None: English text only)."""
    if seat is not None and seat in (event.get("private") or {}):
        return (event.get("private_msg") or {}).get(seat)
    return event.get("msg")


def log_lines(entries: list[tuple[int, list[dict[str, Any]]]], seat: str | None) -> list[dict[str, Any]]:
    return [{"seq": seq, "text": event_text(e, seat), "msg": event_msg(e, seat)} for seq, events in entries
            for e in events]


def tail_lines(loaded: LoadedMatch, seat: str | None) -> list[dict[str, Any]]:
    """``log_lines`` of the loaded tail, each entry's lines built once per seat while it stays
    in the tail: successive messages share them (and patches see at once they did not change)."""
    lines = loaded.lines
    out: list[dict[str, Any]] = []
    for entry in loaded.tail:
        key = (entry[0], seat)
        mine = lines.get(key)
        if mine is None:
            mine = lines[key] = log_lines([entry], seat)
        out.extend(mine)
    if len(lines) > 8 * (len(loaded.tail) + 1):  # entries that slid out of the tail
        kept = {seq for seq, _ in loaded.tail}
        for key in [k for k in lines if k[0] not in kept]:
            del lines[key]
    return out


def seat_message(loaded: LoadedMatch | None, match: Match | MatchHead, seat: str | None) -> dict[str, Any]:
    """The full per-seat message: what GET /api/matches/{id} and the WebSocket carry.

    Before the start (``loaded`` None) there is nothing to see: seats may still change,
    so not even one's own future hand is shown."""
    if loaded is None:
        return {"seq": 0, "status": match.status, "view": {}, "pending": [], "waiting_on": [], "log": [],
                "outcome": None, "waiting_note": None}
    return {
        "seq": loaded.seq,
        "status": match.status,
        "view": seat_view(loaded, seat),
        "pending": pending_for(loaded, seat, match.status),
        "waiting_on": list(match.waiting_on),
        "log": tail_lines(loaded, seat),
        "outcome": copy.deepcopy(match.outcome),
        "waiting_note": waiting_note(loaded, seat) if match.status == "active" else None,
    }


def waiting_note(loaded: LoadedMatch, seat: str | None) -> dict[str, Any] | None:
    """What the table waits for, in the game's words (``SaysWhatItWaitsFor``; public facts only)."""
    return msg_payload(waiting_note_of(loaded.game, loaded.state, seat))
