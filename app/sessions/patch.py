"""RFC 6902 patches between two per-seat messages, fast enough for every socket.

The generic diff of jsonpatch is thorough but slow, and treats the sliding log window
as a wholesale rewrite. Messages are small trees of dicts and lists, and the log only
ever slides forward, so: recurse into dicts, express a slid list as removals at the
front plus appends at the end, a list changed in the middle (a card played from a hand,
one seat's count changed) as the changes of its items between the ends that stayed,
and replace anything else that changed, or whatever a patch would only make longer.
"""

from __future__ import annotations

from typing import Any

import orjson

Patch = list[dict[str, Any]]

_STRICT = orjson.OPT_SORT_KEYS | orjson.OPT_NON_STR_KEYS


def _escape(key: str) -> str:
    return key.replace("~", "~0").replace("/", "~1")


def same(a: Any, b: Any) -> bool:
    """JSON equality: unlike ``==``, true is not 1 and 1 is not 1.0."""
    if a is b:
        return True
    if type(a) is not type(b) or a != b:
        return False
    if isinstance(a, dict | list):  # equal by ``==``: their encodings tell true from 1, in C
        return orjson.dumps(a, option=_STRICT) == orjson.dumps(b, option=_STRICT)
    return True


Memo = dict[tuple[int, int, str], tuple[Any, Any, Patch]]


def make_patch(old: Any, new: Any, path: str = "", memo: Memo | None = None) -> Patch:
    """``memo``: patches of the parts already diffed for another socket (shared parts of two
    messages, by identity: app.sessions.views.share), kept with the parts themselves."""
    if same(old, new):
        return []
    return _differ(old, new, path, memo)


def _differ(old: Any, new: Any, path: str, memo: Memo | None = None) -> Patch:
    """The patch from ``old`` to ``new``, which are known to differ."""
    if isinstance(old, dict) and isinstance(new, dict):
        ops: Patch = []
        for key in old:
            if key not in new:
                ops.append({"op": "remove", "path": f"{path}/{_escape(key)}"})
        alike: list[Any] = []  # equal by ``==``: told apart from true/1 all at once, below
        for key, value in new.items():
            if key not in old:
                ops.append({"op": "add", "path": f"{path}/{_escape(key)}", "value": value})
                continue
            was = old[key]
            if was is value:
                continue
            if type(was) is type(value) and was == value:
                if isinstance(value, dict | list):
                    alike.append(key)
                continue
            where = f"{path}/{_escape(key)}"
            if memo is None or not isinstance(value, dict | list):
                ops.extend(_differ(was, value, where))
                continue
            known = memo.get((id(was), id(value), where))
            if known is None:
                known = memo[(id(was), id(value), where)] = (was, value, _differ(was, value, where, memo))
            ops.extend(known[2])
        if alike and not same([old[k] for k in alike], [new[k] for k in alike]):
            for key in alike:
                ops.extend(make_patch(old[key], new[key], f"{path}/{_escape(key)}"))
        # a message's own top levels ("", "/view") are never worth weighing: they are whole views
        return _shorter(ops, new, path) if path.count("/") > 1 else ops
    if isinstance(old, list) and isinstance(new, list):
        slid = _slide(old, new, path)
        if slid is not None:
            return slid
        return _shorter(_between_ends(old, new, path), new, path)
    return [{"op": "replace", "path": path, "value": new}]


def _shorter(ops: Patch, new: Any, path: str) -> Patch:
    """``ops``, or the one replace that says the same in fewer bytes."""
    if len(ops) < 2 or not path:
        return ops
    replace = [{"op": "replace", "path": path, "value": new}]
    return replace if len(orjson.dumps(replace)) <= len(orjson.dumps(ops)) else ops


def _between_ends(old: list[Any], new: list[Any], path: str) -> Patch:
    """Keep the items both lists start and end with; patch the ones between pairwise, then
    remove the old ones left over or add the new ones (indices as each op finds the list)."""
    shortest = min(len(old), len(new))
    head = 0
    while head < shortest and same(old[head], new[head]):
        head += 1
    tail = 0
    while tail < shortest - head and same(old[len(old) - 1 - tail], new[len(new) - 1 - tail]):
        tail += 1
    old_mid, new_mid = old[head:len(old) - tail], new[head:len(new) - tail]
    paired = min(len(old_mid), len(new_mid))
    ops: Patch = []
    for i in range(paired):
        ops.extend(make_patch(old_mid[i], new_mid[i], f"{path}/{head + i}"))
    ops += [{"op": "remove", "path": f"{path}/{head + paired}"} for _ in range(len(old_mid) - paired)]
    ops += [{"op": "add", "path": f"{path}/{head + paired + j}", "value": v} for j, v in enumerate(new_mid[paired:])]
    return ops


def _slide(old: list[Any], new: list[Any], path: str) -> Patch | None:
    """``new`` is ``old`` with k items dropped from the front and some appended."""
    for dropped in range(len(old) + 1):
        kept = len(old) - dropped
        if kept > len(new) or (kept and not same(old[dropped], new[0])):
            continue
        if same(old[dropped:], new[:kept]):
            if dropped + (len(new) - kept) >= len(new) and new:
                return None  # nothing kept worth keeping: a replace is shorter
            ops: Patch = [{"op": "remove", "path": f"{path}/0"} for _ in range(dropped)]
            ops += [{"op": "add", "path": f"{path}/-", "value": v} for v in new[kept:]]
            return ops
    return None
