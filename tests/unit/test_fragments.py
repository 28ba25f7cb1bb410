"""Page pushes as fragments: what a socket is sent after what it was sent before."""

from __future__ import annotations

from app.sessions.fragments import diff, split


def panels(status: str = "active", seats: str = "p1", lines: tuple[int, ...] = (1,), extra: str = "") -> str:
    log = "".join(f'<li id="log-{n}" data-seq="{n}">line {n} &gt; <b>x</b></li>' for n in reversed(lines))
    return (f'<section id="status" hx-swap-oob="true" data-x="a>b">{status}<input name="seq" value="1"></section>\n'
            f'<section id="seats" hx-swap-oob="true"><table><tr><td>{seats}</td></tr></table><br></section>\n'
            f'<section id="log" hx-swap-oob="true"><h2>Log</h2>'
            f'<ol class="lines" id="log-lines" data-live-lines="afterbegin">\n{log}\n</ol></section>\n'
            f'<svg id="map" hx-swap-oob="true"><circle r="1"/><path d="M0 0"/></svg>{extra}')


def test_split_finds_the_top_level_elements_and_their_lines() -> None:
    r = split(panels(lines=(1, 2, 3)))
    assert [f.id for f in r.fragments] == ["status", "seats", "log", "map"]
    assert "".join(f.text for f in r.fragments) == panels(lines=(1, 2, 3)).replace("\n<section", "<section").replace(
        "</section>\n", "</section>")
    (ol,) = r.by_id["log"].kids
    assert ol.id == "log-lines" and ol.lines_end == "afterbegin" and ol.tag == "ol"
    assert [line.id for line in ol.kids] == ["log-3", "log-2", "log-1"]


def test_a_first_push_sends_everything_and_a_same_push_nothing() -> None:
    first = split(panels())
    assert diff(None, first) == "".join(f.text for f in first.fragments)
    assert diff(first, split(panels())) == ""


def test_only_changed_fragments_go_out() -> None:
    sent = diff(split(panels()), split(panels(seats="p2")))
    assert sent.startswith('<section id="seats"') and "status" not in sent and "log" not in sent


def test_new_log_lines_go_out_alone_and_old_ones_are_deleted() -> None:
    sent = diff(split(panels(lines=(1, 2, 3))), split(panels(lines=(2, 3, 4, 5))))
    assert sent == ('<i hx-swap-oob="delete:#log-1"></i>'
                    '<ol data-live-lines-of="log-lines" hx-swap-oob="afterbegin:#log-lines">'
                    '<li id="log-5" data-seq="5">line 5 &gt; <b>x</b></li>'
                    '<li id="log-4" data-seq="4">line 4 &gt; <b>x</b></li></ol>')


def test_a_changed_line_goes_alone_and_a_changed_shell_sends_the_whole_fragment() -> None:
    before = split(panels(lines=(1, 2)))
    changed = split(panels(lines=(1, 2)).replace("line 1 ", "line one "))
    assert diff(before, changed) == '<li hx-swap-oob="true" id="log-1" data-seq="1">line one &gt; <b>x</b></li>'
    assert diff(before, split(panels(lines=(1, 2)).replace("<h2>Log</h2>", "<h2>Dziennik</h2>"))).startswith(
        '<section id="log"')


def test_a_gone_fragment_is_deleted_and_a_new_one_sent() -> None:
    before = split(panels(extra='<p id="extra" hx-swap-oob="true">x</p>'))
    after = split(panels())
    assert diff(before, after) == '<i hx-swap-oob="delete:#extra"></i>'
    assert diff(after, before) == '<p id="extra" hx-swap-oob="true">x</p>'


UNIT = '<circle r="1"/>'


def board(units: dict[str, int], target: str = "", hint: str = "") -> str:
    spaces = "".join(f'<g class="space{" target" if s == target else ""}" id="space-{s}"><path d="M0 0"/>'
                     f'<text>{s}</text>{UNIT * n}</g>' for s, n in units.items())
    return (f'<section id="board" hx-swap-oob="true"><div class="strip">{hint}</div>'
            f'<svg class="map"><g class="spaces">{spaces}</g></svg><ul><li id="card-1">Card</li></ul></section>')


def test_inside_a_changed_element_only_its_changed_ids_go_out() -> None:
    before = split(board({"a": 1, "b": 0, "c": 2}))
    sent = diff(before, split(board({"a": 1, "b": 1, "c": 2})))
    # an SVG part goes as its content, parsed inside an <svg>, into the element of that id
    assert sent == '<svg hx-swap-oob="innerHTML:#space-b"><path d="M0 0"/><text>b</text><circle r="1"/></svg>'
    html_part = diff(split(board({"a": 1})), split(board({"a": 1}).replace(">Card<", ">Other card<")))
    assert html_part == '<li hx-swap-oob="true" id="card-1">Other card</li>'


def test_an_svg_part_whose_own_tag_changed_or_changed_markup_around_ids_sends_more() -> None:
    before = split(board({"a": 1, "b": 0}))
    assert diff(before, split(board({"a": 1, "b": 0}, target="b"))) == board({"a": 1, "b": 0}, target="b")
    assert diff(before, split(board({"a": 1, "b": 0}, hint="Pick"))) == board({"a": 1, "b": 0}, hint="Pick")
    assert diff(before, split(board({"a": 1}))) == board({"a": 1})  # an id gone: the markup around changed


def test_a_repeated_id_is_not_diffed_on_its_own() -> None:
    twice = '<section id="s" hx-swap-oob="true"><p id="x">1</p><p id="x">2</p></section>'
    assert diff(split(twice), split(twice.replace(">2<", ">3<"))) == twice.replace(">2<", ">3<")


def test_a_preserved_element_is_never_sent_on_its_own() -> None:
    form = ('<section id="d" hx-swap-oob="true"><h2>D</h2>'
            '<form id="f" hx-preserve="true"><input value="{}"></form></section>')
    assert diff(split(form.format(1)), split(form.format(2))) == ""  # the page keeps its own form
    other = form.format(2).replace('id="f"', 'id="g"')
    assert diff(split(form.format(1)), split(other)) == other  # a new form: with its parent
    plain = form.format(1).replace(' hx-preserve="true"', "")
    assert diff(split(plain), split(form.format(2))) == form.format(2)  # now preserved: with its parent


def test_a_reply_to_a_post_replaces_a_list_rather_than_inserting_lines() -> None:
    sent = diff(split(panels(lines=(1, 2))), split(panels(lines=(1, 2, 3))), lines=False)
    assert sent.startswith('<ol hx-swap-oob="true" class="lines" id="log-lines"') and sent.count("<li") == 3


def test_a_kept_fragment_left_out_of_a_later_render_stays_in_the_page() -> None:
    # a board drawn in parts: pushed (hidden, empty) before play, never after; the page keeps it
    before = split('<section id="board" class="hidden" data-push-kept></section><p id="s">open</p>'
                   '<p id="gone">x</p>')
    after = split('<p id="s">active</p><svg id="units-a"></svg>')
    out = diff(before, after)
    assert 'id="board"' not in out  # neither sent nor deleted
    assert '<i hx-swap-oob="delete:#gone"></i>' in out


def test_a_table_row_or_cell_never_goes_alone() -> None:
    def seats(n: int) -> str:
        return (f'<section id="seats"><table><tr id="row-p1"><td id="cell-p1">{n}</td></tr></table>'
                f'<span id="note">{n}</span></section>')
    sent = diff(split(seats(1)), split(seats(2)))
    # a bare <tr> or <td> in a frame is dropped by the HTML parser: the section goes whole
    assert sent.startswith('<section hx-swap-oob="true" id="seats">') and sent.count("<section") == 1


def test_a_render_read_in_remembered_pieces_is_read_as_a_whole_would_be() -> None:
    from app.sessions.fragments import _read

    def same(html: str) -> None:
        want = _read(html)[0]
        for _ in range(2):  # read, then remembered
            got = split(html).fragments
            assert [(n.id, n.text, n.hash, n.shell, [k.id for k in n.kids]) for n in got] == \
                [(n.id, n.text, n.hash, n.shell, [k.id for k in n.kids]) for n in want]

    same(panels(lines=(1, 2, 3)))
    # an hx-swap-oob inside an element (no place to cut), an id twice, text before the first
    same('<div id="a" hx-swap-oob="true"><p hx-swap-oob="true" id="b">x</p></div><p id="c" hx-swap-oob="true">y</p>')
    same('<p id="a" hx-swap-oob="true"><b id="x">1</b></p><p id="b" hx-swap-oob="true"><b id="x">2</b></p>')
    same('<p id="first">no oob</p>\n<p id="c" hx-swap-oob="true">y</p>')
