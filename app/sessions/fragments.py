"""A rendered page push as fragments, and the difference between two pushes.

A page push is a sequence of top-level elements, each with a unique id, swapped in by htmx
out of band. A socket remembers the last render it was sent (never changed after), so the
next push need only carry what changed. Nothing here knows the templates; the rules:

* a top-level element that did not change is not sent; those that are gone get one htmx
  ``delete`` (by a selector list); a new one is sent whole (it needs a place in the page to land in: keep an
  element that may come and go present and empty, as the panels do with a hidden section);
* inside a changed element, the elements with their own id are diffed the same way: when the
  markup around them is the same, only those of them that changed go out (swapped by id), so
  a board whose spaces carry ids sends the spaces that changed. A table's row or cell never
  goes alone (parsed on its own it would vanish): its parent goes. An element inside an SVG
  cannot be sent on its own (htmx would parse it as HTML): it goes out as its content only,
  wrapped in ``<svg>``, when its own tag did not change, else its parent goes;
* a top-level element marked ``data-push-kept`` stays in the page when a later render leaves it
  out (a board drawn in parts stops being pushed once play starts: the page fetches it once);
* an element marked ``data-live-lines="afterbegin"`` (or ``"beforeend"``) holds lines, each a
  child with its own id: when only lines came and went, the new lines go out alone, put at
  that end of the list, and the lines that left are deleted; a line that stayed but changed
  goes on its own (a hand of cards: a card played, a card drawn, a card's buttons).

Ids must be unique in the render: an id found twice is not diffed on its own. An element htmx
preserves (``hx-preserve``) is never sent on its own: htmx would keep the page's element by
moving it into the fragment, which then takes its place, so the element would be lost.
Unchanged in id, it is not sent at all (the page keeps its own, as it would inside its parent)."""

from __future__ import annotations

import hashlib
import re
from collections import Counter
from dataclasses import dataclass, field

# a comment, or a start / end tag whose attribute values may hold ">" inside quotes
TAG = re.compile(r"""<!--.*?-->|<(/?)([A-Za-z][A-Za-z0-9:_-]*)((?:[^>"']|"[^"]*"|'[^']*')*)>""", re.S)
ATTR = re.compile(r"""([^\s"'>/=]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+)))?""")
IDS = re.compile(r"""\sid\s*=\s*(?:"([^"]*)"|'([^']*)')""")
VOID = frozenset(("area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "param", "source",
                  "track", "wbr"))
RAW = frozenset(("script", "style", "textarea", "title"))  # their text is not markup
# parsed on their own (a socket frame is parsed as body content) they vanish: htmx would need them
# wrapped in <template>, which its socket extension does not unwrap, so their parent goes instead
TABLE_PARTS = frozenset(("caption", "col", "colgroup", "tbody", "td", "tfoot", "th", "thead", "tr"))
LINE_ENDS = ("afterbegin", "beforeend")


def attributes(text: str) -> dict[str, str]:
    return {m.group(1).lower(): next((g for g in m.group(2, 3, 4) if g is not None), "")
            for m in ATTR.finditer(text)}


def digest(text: str) -> bytes:
    return hashlib.blake2b(text.encode(), digest_size=16).digest()


@dataclass(frozen=True)
class Node:
    """An element with an id (or a top-level one without): its markup, and its own parts."""

    id: str | None  # None: a top-level element without an id goes out in every push
    tag: str
    text: str
    hash: bytes
    start_tag: str  # the start tag as written
    inner: str  # the content between its tags
    in_svg: bool  # inside an <svg>: it cannot be parsed on its own
    shell: bytes  # the markup with each id'd descendant's markup replaced by its id
    kids: tuple[Node, ...]  # the nearest descendants with ids, in order
    lines_end: str | None = None  # data-live-lines, when every child element has an id
    lines_shell: bytes | None = None  # the markup without its lines
    kept: bool = False  # data-push-kept: when a later render leaves it out, the page keeps it


@dataclass
class Rendered:
    """One render of a page push: the text as made, and its top-level elements in order."""

    text: str
    fragments: list[Node]
    by_id: dict[str, Node] = field(default_factory=dict)

    def __post_init__(self) -> None:
        for f in self.fragments:
            if f.id is not None:
                self.by_id.setdefault(f.id, f)


@dataclass
class _Open:
    tag: str
    start: int
    inner: int  # where its content begins
    attrs: dict[str, str]
    in_svg: bool
    node: bool  # a Node will be made of it
    kids: list[tuple[Node, int, int]] = field(default_factory=list)  # (node, start, end) nearest id'd
    children: int = 0  # direct child elements
    id_children: int = 0  # of which with an id


def split(html: str) -> Rendered:
    """The top-level elements of ``html`` (text between them, whitespace, is dropped)."""
    counts = Counter(a or b for a, b in IDS.findall(html))
    unique = {i for i, n in counts.items() if n == 1 and i}
    fragments: list[Node] = []
    stack: list[_Open] = []
    pos = 0
    while (m := TAG.search(html, pos)) is not None:
        pos = m.end()
        if m.group(0).startswith("<!--"):
            continue
        closing, tag, rest = m.group(1) == "/", m.group(2).lower(), m.group(3)
        if not closing:
            attrs = attributes(rest)
            in_svg = any(o.tag == "svg" for o in stack)
            opened = _Open(tag, m.start(), m.end(), attrs, in_svg, not stack or attrs.get("id") in unique)
            if stack:
                stack[-1].children += 1
                stack[-1].id_children += attrs.get("id") in unique
            if tag in VOID or rest.rstrip().endswith("/"):
                _close(html, stack, fragments, opened, m.end(), m.end())
                continue
            stack.append(opened)
            if tag in RAW:  # its text is not markup: on to its end tag
                end = html.lower().find(f"</{tag}", pos)
                pos = len(html) if end < 0 else end
            continue
        # an end tag closes the nearest open element of its name (and any left open inside it)
        at = next((i for i in range(len(stack) - 1, -1, -1) if stack[i].tag == tag), None)
        if at is None:
            continue
        while len(stack) > at + 1:
            inner = stack.pop()
            _close(html, stack, fragments, inner, m.start(), m.start())
        _close(html, stack, fragments, stack.pop(), m.start(), m.end())
    return Rendered(html, fragments)


def _close(html: str, stack: list[_Open], fragments: list[Node], el: _Open, inner_end: int, end: int) -> None:
    """An element ended: a Node of it (if it is one) goes to its nearest id'd ancestor, or to
    the top level; else its own id'd descendants go there."""
    if not el.node:
        parent = next((o for o in reversed(stack) if o.node), None)
        if parent is not None:
            parent.kids += el.kids
        return
    text = html[el.start:end]
    inner = html[el.inner:inner_end] if inner_end > el.inner else ""
    pieces, lines_pieces, at = [], [], el.start
    for kid, s, e in el.kids:
        pieces += [html[at:s], f"<#{kid.id}>"]
        lines_pieces.append(html[at:s])
        at = e
    pieces.append(html[at:end])
    lines_pieces.append(html[at:end])
    lines_end = el.attrs.get("data-live-lines")
    is_lines = lines_end in LINE_ENDS and el.children == el.id_children == len(el.kids) and bool(el.attrs.get("id"))
    node = Node(el.attrs.get("id") or None, el.tag, text, digest(text), html[el.start:el.inner], inner, el.in_svg,
                digest("".join(pieces)), tuple(k for k, _, _ in el.kids),
                lines_end if is_lines else None, digest("".join(lines_pieces)) if is_lines else None,
                "data-push-kept" in el.attrs)
    parent = next((o for o in reversed(stack) if o.node), None)
    if parent is None:
        fragments.append(node)
    else:
        parent.kids.append((node, el.start, end))


PLAIN_ID = re.compile(r"[A-Za-z][A-Za-z0-9_-]*")


def delete(fid: str) -> str:
    return f'<div id="{fid}" hx-swap-oob="delete"></div>'


def deletes(fids: list[str]) -> str:
    """One element deleting all of ``fids`` (by a selector list: a line's id needs no escaping),
    rather than an element each; an id a selector cannot hold as it is gets its own."""
    plain = [f for f in fids if PLAIN_ID.fullmatch(f)]
    out = [delete(f) for f in fids if not PLAIN_ID.fullmatch(f)]
    if plain:
        out.append(f'<i hx-swap-oob="delete:{",".join("#" + f for f in plain)}"></i>')
    return "".join(out)


def diff(before: Rendered | None, after: Rendered, lines: bool = True) -> str:
    """What a socket holding ``before`` needs to hold ``after``: every fragment (``before``
    None: a first push or a resync), else only what changed. Empty: nothing to send.

    ``lines`` False: a changed list of lines goes whole, never as lines to insert. Inserting is
    not idempotent, so only the socket's own ordered frames insert; a reply to a post (which
    may reach the page before or after the socket's frame of the same move) replaces."""
    if before is None:
        return "".join(f.text for f in after.fragments)
    out: list[str] = []
    for f in after.fragments:
        old = before.by_id.get(f.id) if f.id is not None else None
        if old is None:
            out.append(f.text)
        elif old.hash != f.hash:
            part = _changed(old, f, lines)
            out.append(f.text if part is None else part)
    out.append(deletes([fid for fid, node in before.by_id.items() if fid not in after.by_id and not node.kept]))
    return "".join(out)


def _changed(old: Node, new: Node, lines: bool = True) -> str | None:
    """The least that turns ``old`` into ``new`` in the page; None: only the parent can."""
    if old.hash == new.hash:
        return ""
    if old.id == new.id and _preserved(old) and _preserved(new):
        return ""  # htmx keeps the page's own element under this id, whatever is sent
    if old.shell == new.shell:  # the same markup around the same ids: only the ids that changed
        parts = [_changed(o, n, lines) for o, n in zip(old.kids, new.kids, strict=True)]
        if all(p is not None for p in parts):
            return "".join(p for p in parts if p)
    inserted = _lines_only(old, new) if lines else None
    if inserted is not None:
        return inserted
    return _whole(old, new)


def _preserved(node: Node) -> bool:
    return "hx-preserve" in attributes(node.start_tag[len(node.tag) + 1:-1])


def _whole(old: Node, new: Node) -> str | None:
    if new.id is None or _preserved(new) or new.tag in TABLE_PARTS:
        return None
    if not new.in_svg:
        if 'hx-swap-oob' in new.start_tag:
            return new.text
        cut = len(new.tag) + 1  # after "<tag"
        return new.text[:cut] + ' hx-swap-oob="true"' + new.text[cut:]
    if old.start_tag == new.start_tag:  # its content, parsed inside an <svg>
        return f'<svg hx-swap-oob="innerHTML:#{new.id}">{new.inner}</svg>'
    return None


def _lines_only(old: Node, new: Node) -> str | None:
    """Only the lines that came (and deletes for those that left), when nothing else changed
    and the lines that stayed are in the same order, with the new ones at the end the element
    declares; a line that stayed but changed goes too, on its own (a card whose buttons
    changed). None: not so."""
    if old.lines_end is None or new.lines_end != old.lines_end or old.lines_shell != new.lines_shell \
            or old.id != new.id or old.start_tag != new.start_tag:
        return None
    had = {line.id: line for line in old.kids}
    has = {line.id for line in new.kids}
    kept = [line for line in new.kids if line.id in had]
    if [line.id for line in kept] != [line.id for line in old.kids if line.id in has]:
        return None
    changed = [_changed(had[line.id], line) for line in kept]
    if any(part is None for part in changed):
        return None
    came = [i for i, line in enumerate(new.kids) if line.id not in had]
    if came:
        stayed = [i for i, line in enumerate(new.kids) if line.id in had]
        if not stayed:  # none stayed: the whole element is as cheap
            return None
        if (max(came) > min(stayed)) if new.lines_end == "afterbegin" else (min(came) < max(stayed)):
            return None
    out = [deletes([line.id for line in old.kids if line.id is not None and line.id not in has])]
    out += [part for part in changed if part]
    if came:
        wrapper = "svg" if new.in_svg else new.tag
        text = "".join(new.kids[i].text for i in came)
        # data-live-lines-of: warroom.js drops a line the page already has (a post's reply brought it)
        swap = f'data-live-lines-of="{new.id}" hx-swap-oob="{new.lines_end}:#{new.id}"'
        out.append(f"<{wrapper} {swap}>{text}</{wrapper}>")
    text = "".join(out)
    return None if len(text) > len(new.text) else text  # most lines changed: the whole is less
