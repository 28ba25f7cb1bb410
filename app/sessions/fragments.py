"""A rendered page push as fragments, and the difference between two pushes.

A page push is a sequence of top-level elements, each with a unique id, swapped in by htmx
out of band. A socket remembers the last render it was sent (never changed after), so the
next push need only carry the elements whose markup changed, plus an htmx ``delete`` for any
id that is gone. Nothing here knows the templates: the only convention is that an element
marked ``data-live-lines="afterbegin"`` (or ``"beforeend"``) holds lines, each a child with
its own id; when only lines came and went, the new lines go out alone (htmx inserts them at
that end of the list) and the old ones that left are deleted, instead of the whole element.

An element that may come and go between pushes needs a place in the page to land in: keep it
present and empty (today's panels do: a hidden section) rather than leaving it out."""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field

# a comment, or a start / end tag whose attribute values may hold ">" inside quotes
TAG = re.compile(r"""<!--.*?-->|<(/?)([A-Za-z][A-Za-z0-9:_-]*)((?:[^>"']|"[^"]*"|'[^']*')*)>""", re.S)
ATTR = re.compile(r"""([^\s"'>/=]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+)))?""")
VOID = frozenset(("area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "param", "source",
                  "track", "wbr"))
RAW = frozenset(("script", "style", "textarea", "title"))  # their text is not markup
LINE_ENDS = ("afterbegin", "beforeend")


def attributes(text: str) -> dict[str, str]:
    return {m.group(1).lower(): next((g for g in m.group(2, 3, 4) if g is not None), "")
            for m in ATTR.finditer(text)}


def digest(text: str) -> bytes:
    return hashlib.blake2b(text.encode(), digest_size=16).digest()


@dataclass(frozen=True)
class Line:
    id: str
    text: str
    hash: bytes


@dataclass(frozen=True)
class Lines:
    """An element's lines: the element's own id, tag and end, and its children in order."""

    container: str
    tag: str
    end: str  # "afterbegin" | "beforeend": where new lines are put
    shell: bytes  # the fragment's hash with the lines taken out
    lines: tuple[Line, ...]


@dataclass(frozen=True)
class Fragment:
    id: str | None  # None: an element without an id goes out in every push
    text: str
    hash: bytes
    lines: Lines | None = None


@dataclass
class Rendered:
    """One render of a page push: the text as made, and its fragments in order."""

    text: str
    fragments: list[Fragment]
    by_id: dict[str, Fragment] = field(default_factory=dict)

    def __post_init__(self) -> None:
        for f in self.fragments:
            if f.id is not None:
                self.by_id.setdefault(f.id, f)


@dataclass
class _Open:
    tag: str
    start: int
    inner: int  # where the element's content begins
    attrs: dict[str, str]
    inner_end: int | None = None  # where it ends, once its end tag is read


def split(html: str) -> Rendered:
    """The top-level elements of ``html``; text between them (whitespace) is dropped."""
    fragments: list[Fragment] = []
    stack: list[_Open] = []
    lines_at: _Open | None = None  # the line-holding element inside the current fragment
    children: list[tuple[str, int, int]] = []  # (id, start, end) of its direct children
    child: _Open | None = None
    pos = 0
    while True:
        m = TAG.search(html, pos)
        if m is None:
            break
        pos = m.end()
        if m.group(0).startswith("<!--"):
            continue
        closing, tag, rest = m.group(1) == "/", m.group(2).lower(), m.group(3)
        if not closing:
            attrs = attributes(rest)
            opened = _Open(tag, m.start(), m.end(), attrs)
            if stack and stack[-1] is lines_at:
                child = opened
            if tag in VOID or rest.rstrip().endswith("/"):
                if child is opened:  # a void line: its own end
                    children.append((attrs.get("id", ""), m.start(), m.end()))
                    child = None
                if not stack:
                    fragments.append(_fragment(html[m.start():m.end()], attrs, None, []))
                continue
            stack.append(opened)
            if lines_at is None and attrs.get("data-live-lines") in LINE_ENDS and attrs.get("id"):
                lines_at, children = opened, []
            if tag in RAW:  # skip to its end tag
                end = html.lower().find(f"</{tag}", pos)
                pos = len(html) if end < 0 else end
            continue
        # an end tag closes the nearest open element of its name (and any left open inside it)
        at = next((i for i in range(len(stack) - 1, -1, -1) if stack[i].tag == tag), None)
        if at is None:
            continue
        closed = stack[at]
        del stack[at:]
        if closed is child:
            children.append((closed.attrs.get("id", ""), closed.start, m.end()))
            child = None
        if not stack:
            fragments.append(_fragment(html[closed.start:m.end()], closed.attrs, lines_at, children,
                                       offset=closed.start))
            lines_at, children = None, []
        elif closed is lines_at:
            closed.inner_end = m.start()
    return Rendered(html, fragments)


def _fragment(text: str, attrs: dict[str, str], lines_at: _Open | None, children: list[tuple[str, int, int]],
              offset: int = 0) -> Fragment:
    whole = digest(text)
    fid = attrs.get("id") or None
    inner_end = lines_at.inner_end if lines_at is not None else None
    if lines_at is None or inner_end is None or not all(cid for cid, _, _ in children) \
            or len({cid for cid, _, _ in children}) != len(children):
        return Fragment(fid, text, whole)
    lines = tuple(Line(cid, text[s - offset:e - offset], digest(text[s - offset:e - offset]))
                  for cid, s, e in children)
    # the shell: everything but the lines (the text between them is whitespace and goes too)
    first, last = lines_at.inner - offset, inner_end - offset
    shell = digest(text[:first] + text[last:])
    return Fragment(fid, text, whole, Lines(lines_at.attrs["id"], lines_at.tag, lines_at.attrs["data-live-lines"],
                                           shell, lines))


def delete(fid: str) -> str:
    return f'<div id="{fid}" hx-swap-oob="delete"></div>'


def diff(before: Rendered | None, after: Rendered) -> str:
    """What a socket holding ``before`` needs to hold ``after``: every fragment (``before``
    None: a first push or a resync), else only what changed. Empty: nothing to send."""
    if before is None:
        return "".join(f.text for f in after.fragments)
    out: list[str] = []
    for f in after.fragments:
        old = before.by_id.get(f.id) if f.id is not None else None
        if old is None:
            out.append(f.text)
        elif old.hash != f.hash:
            out.append(_lines_only(old, f) or f.text)
    out += [delete(fid) for fid in before.by_id if fid not in after.by_id]
    return "".join(out)


def _lines_only(old: Fragment, new: Fragment) -> str | None:
    """Only the lines that came (and deletes for those that left), when nothing else changed
    and the lines that stayed are the same, in the same order, with the new ones at the end
    the element declares. None: send the whole fragment."""
    a, b = old.lines, new.lines
    if a is None or b is None or (a.container, a.tag, a.end, a.shell) != (b.container, b.tag, b.end, b.shell):
        return None
    had = {line.id: line.hash for line in a.lines}
    has = {line.id for line in b.lines}
    kept = [line for line in b.lines if line.id in had]
    if any(had[line.id] != line.hash for line in kept):
        return None
    if [line.id for line in kept] != [line.id for line in a.lines if line.id in has]:
        return None
    came = [i for i, line in enumerate(b.lines) if line.id not in had]
    if came:
        stayed = [i for i, line in enumerate(b.lines) if line.id in had]
        if not stayed:  # none stayed: the whole element is as cheap
            return None
        if (max(came) > min(stayed)) if b.end == "afterbegin" else (min(came) < max(stayed)):
            return None
    out = [delete(line.id) for line in a.lines if line.id not in has]
    if came:
        text = "".join(b.lines[i].text for i in came)
        out.append(f'<{b.tag} hx-swap-oob="{b.end}:#{b.container}">{text}</{b.tag}>')
    return "".join(out)
