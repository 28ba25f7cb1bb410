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
RAW_END = {tag: re.compile(f"</{tag}", re.I) for tag in RAW}
HAS_ATTR = re.compile(r"\s(?:id|data-live-lines|data-push-kept)[\s=>/]|\s(?:id|data-live-lines|data-push-kept)$", re.I)
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


class _Open:
    """An element being read: where it starts, and (a Node to be) its nearest id'd descendants."""

    __slots__ = ("tag", "start", "inner", "attrs", "in_svg", "node", "owner", "kids", "children", "id_children")

    def __init__(self, tag: str, start: int, inner: int, attrs: dict[str, str], in_svg: bool, node: bool,
                 owner: _Open | None) -> None:
        self.tag, self.start, self.inner, self.attrs = tag, start, inner, attrs  # inner: where its content begins
        self.in_svg, self.node = in_svg, node  # node: a Node will be made of it
        self.owner = owner  # its nearest ancestor a Node will be made of (None: it is at the top)
        self.kids: list[tuple[Node, int, int]] = []  # (node, start, end): its nearest id'd descendants
        self.children = 0  # direct child elements
        self.id_children = 0  # of which with an id


# a top-level element of a push carries hx-swap-oob: where one starts, the one before has ended
OOB_START = re.compile(r"""<[A-Za-z][^<>]*?\shx-swap-oob=""")
PIECES: dict[str, tuple[Node, ...]] = {}  # a top-level piece of a render as read before (most do not change)
PIECES_KEPT = 4096


def split(html: str) -> Rendered:
    """The top-level elements of ``html`` (text between them, whitespace, is dropped).

    A push renders the same pieces again and again (the board's layers, the countries...): each
    piece (from one top-level hx-swap-oob element to the next) is read once and remembered, when
    every id in ``html`` is unique and every piece stands alone; else all of it is read now."""
    ids = IDS.findall(html)
    if len({a or b for a, b in ids}) != len(ids):
        return Rendered(html, _read(html)[0])
    cuts = [m.start() for m in OOB_START.finditer(html)]
    if not cuts or cuts[0] != 0 and html[:cuts[0]].strip():
        cuts.insert(0, 0)
    fragments: list[Node] = []
    for at, end in zip(cuts, cuts[1:] + [len(html)], strict=True):
        piece = html[at:end]
        nodes = PIECES.get(piece)
        if nodes is None:
            read, whole = _read(piece)
            if not whole:  # a piece cut inside an element: the render is read as one
                return Rendered(html, _read(html)[0])
            nodes = tuple(read)
            if len(PIECES) >= PIECES_KEPT:
                PIECES.pop(next(iter(PIECES)))
            PIECES[piece] = nodes
        fragments += nodes
    return Rendered(html, fragments)


def _read(html: str) -> tuple[list[Node], bool]:
    """The top-level elements of ``html``, and whether it was whole (no element left open, no
    end tag without its start)."""
    counts = Counter(a or b for a, b in IDS.findall(html))
    unique = {i for i, n in counts.items() if n == 1 and i}
    fragments: list[Node] = []
    stack: list[_Open] = []
    whole = True
    pos = 0
    while (m := TAG.search(html, pos)) is not None:
        pos = m.end()
        closing, tag, rest = m.group(1, 2, 3)
        if tag is None:  # a comment
            continue
        tag = tag.lower()
        if not closing:
            # only an id, data-live-lines and data-push-kept matter here: most tags have none
            attrs = attributes(rest) if HAS_ATTR.search(rest) else {}
            unique_id = attrs.get("id") in unique
            if stack:
                parent = stack[-1]
                parent.children += 1
                parent.id_children += unique_id
                opened = _Open(tag, m.start(), pos, attrs, parent.in_svg or parent.tag == "svg", unique_id,
                               parent if parent.node else parent.owner)
            else:
                opened = _Open(tag, m.start(), pos, attrs, False, True, None)
            if tag in VOID or rest.rstrip().endswith("/"):
                _close(html, fragments, opened, pos, pos)
                continue
            stack.append(opened)
            if tag in RAW:  # its text is not markup: on to its end tag
                end = RAW_END[tag].search(html, pos)
                pos = len(html) if end is None else end.start()
            continue
        # an end tag closes the nearest open element of its name (and any left open inside it)
        if stack and stack[-1].tag == tag:
            _close(html, fragments, stack.pop(), m.start(), pos)
            continue
        at = next((i for i in range(len(stack) - 1, -1, -1) if stack[i].tag == tag), None)
        if at is None:
            whole = False
            continue
        while len(stack) > at + 1:
            _close(html, fragments, stack.pop(), m.start(), m.start())
        _close(html, fragments, stack.pop(), m.start(), pos)
    return fragments, whole and not stack


def _close(html: str, fragments: list[Node], el: _Open, inner_end: int, end: int) -> None:
    """An element ended: a Node of it (if it is one) goes to its nearest id'd ancestor, or to
    the top level (its id'd descendants went to it as they ended)."""
    if not el.node:
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
    if el.owner is None:
        fragments.append(node)
    else:
        el.owner.kids.append((node, el.start, end))


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
