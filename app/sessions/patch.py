"""RFC 6902 patches between two per-seat messages, fast enough for every socket.

The generic diff of jsonpatch is thorough but slow, and treats the sliding log window
as a wholesale rewrite. Messages are small trees of dicts and lists, and the log only
ever slides forward, so: recurse into dicts, express a slid list as removals at the
front plus appends at the end, and replace anything else that changed.
"""

from __future__ import annotations

from typing import Any

Patch = list[dict[str, Any]]


def _escape(key: str) -> str:
    return key.replace("~", "~0").replace("/", "~1")


def same(a: Any, b: Any) -> bool:
    """JSON equality: unlike ``==``, true is not 1 and 1 is not 1.0."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(same(v, b[k]) for k, v in a.items())
    if isinstance(a, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b, strict=True))
    return bool(a == b)


def make_patch(old: Any, new: Any, path: str = "") -> Patch:
    if old == new and same(old, new):  # == first: a quick no for most changed subtrees
        return []
    if isinstance(old, dict) and isinstance(new, dict):
        ops: Patch = []
        for key in old:
            if key not in new:
                ops.append({"op": "remove", "path": f"{path}/{_escape(key)}"})
        for key, value in new.items():
            where = f"{path}/{_escape(key)}"
            if key not in old:
                ops.append({"op": "add", "path": where, "value": value})
            else:
                ops.extend(make_patch(old[key], value, where))
        return ops
    if isinstance(old, list) and isinstance(new, list):
        slid = _slide(old, new, path)
        if slid is not None:
            return slid
    return [{"op": "replace", "path": path, "value": new}]


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
