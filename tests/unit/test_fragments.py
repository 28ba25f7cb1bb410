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
    assert "".join(f.text for f in r.fragments) == panels(lines=(1, 2, 3)).replace("\n", "").replace(
        'data-live-lines="afterbegin">', 'data-live-lines="afterbegin">\n').replace("</li></ol>", "</li>\n</ol>")
    log = r.by_id["log"].lines
    assert log is not None and [line.id for line in log.lines] == ["log-3", "log-2", "log-1"]
    assert log.container == "log-lines" and log.end == "afterbegin" and log.tag == "ol"


def test_a_first_push_sends_everything_and_a_same_push_nothing() -> None:
    first = split(panels())
    assert diff(None, first) == "".join(f.text for f in first.fragments)
    assert diff(first, split(panels())) == ""


def test_only_changed_fragments_go_out() -> None:
    sent = diff(split(panels()), split(panels(seats="p2")))
    assert sent.startswith('<section id="seats"') and "status" not in sent and "log" not in sent


def test_new_log_lines_go_out_alone_and_old_ones_are_deleted() -> None:
    sent = diff(split(panels(lines=(1, 2, 3))), split(panels(lines=(2, 3, 4, 5))))
    assert sent == ('<div id="log-1" hx-swap-oob="delete"></div>'
                    '<ol hx-swap-oob="afterbegin:#log-lines"><li id="log-5" data-seq="5">line 5 &gt; <b>x</b></li>'
                    '<li id="log-4" data-seq="4">line 4 &gt; <b>x</b></li></ol>')


def test_a_changed_line_or_shell_sends_the_whole_fragment() -> None:
    before = split(panels(lines=(1, 2)))
    changed = split(panels(lines=(1, 2)).replace("line 1 ", "line one "))
    assert diff(before, changed).startswith('<section id="log"')
    assert diff(before, split(panels(lines=(1, 2)).replace("<h2>Log</h2>", "<h2>Dziennik</h2>"))).startswith(
        '<section id="log"')


def test_a_gone_fragment_is_deleted_and_a_new_one_sent() -> None:
    before = split(panels(extra='<p id="extra" hx-swap-oob="true">x</p>'))
    after = split(panels())
    assert diff(before, after) == '<div id="extra" hx-swap-oob="delete"></div>'
    assert diff(after, before) == '<p id="extra" hx-swap-oob="true">x</p>'
