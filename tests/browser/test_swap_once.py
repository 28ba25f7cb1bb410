"""An element a post's reply and the socket's frame both bring is swapped in once (warroom.js).

The reply to a move and the socket's frame of the same move may carry the same element. Swapping
the second copy in again replaced what a player was about to click (a target on the map, a card
in the hand), and the click was lost. The flaky QMG playthrough met this. Here the page is driven
by htmx's own out-of-band swaps, the path both a reply and a frame take."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

pytestmark = pytest.mark.browser

PROBE = '<div id="probe" hx-swap-oob="true"><span id="probe-part">{part}</span> <b>{around}</b></div>'
PART = '<span id="probe-part" hx-swap-oob="true">{part}</span>'


def bring(page: Any, html: str) -> None:
    """Swap ``html``'s out-of-band elements into the page, as a reply or a frame does."""
    page.evaluate("html => htmx.swap(document.body, html, {swapStyle: 'none'})", html)


def marked(page: Any) -> bool:
    """Whether #probe is still the element the test marked: not swapped since."""
    return bool(page.evaluate("() => document.getElementById('probe').dataset.mark === 'kept'"))


def mark(page: Any) -> None:
    page.evaluate("() => { document.getElementById('probe').dataset.mark = 'kept'; }")


def text(page: Any) -> str:
    return str(page.evaluate("() => document.getElementById('probe').textContent"))


@pytest.fixture
def page(server: Any, browser: Any) -> Iterator[Any]:
    """A page of the site with htmx and warroom.js loaded, and two empty elements to swap into."""
    page = browser.new_page()
    page.goto(f"{server.url}/")
    page.wait_for_function("() => window.htmx !== undefined")
    page.evaluate("() => { for (const id of ['probe', 'flash']) { if (!document.getElementById(id)) { "
                  "const d = document.createElement('div'); d.id = id; document.body.appendChild(d); } } "
                  "document.body.insertAdjacentHTML('beforeend', "
                  "'<div id=\"layer-box\"><svg id=\"layer\" xmlns=\"http://www.w3.org/2000/svg\"></svg></div>'); }")
    yield page
    page.close()


def test_the_same_element_brought_twice_is_swapped_in_once(page: Any) -> None:
    bring(page, PROBE.format(part="a", around="x"))
    assert text(page) == "a x"
    mark(page)
    bring(page, PROBE.format(part="a", around="x"))  # the second copy: the element stays
    assert marked(page) and text(page) == "a x"

    bring(page, PROBE.format(part="a", around="y"))  # a new version: swapped in
    assert not marked(page) and text(page) == "a y"
    mark(page)

    # a part of it sent alone: the element is no longer what it was swapped in from, so the
    # earlier version, brought again, must replace it
    bring(page, PART.format(part="b"))
    assert text(page) == "b y"
    bring(page, PROBE.format(part="a", around="y"))
    assert not marked(page) and text(page) == "a y"


def test_a_flash_brought_twice_shows_twice(page: Any) -> None:
    """The same refusal twice is said twice: the flash is always swapped in."""
    flash = '<div id="flash" hx-swap-oob="true">Not your turn</div>'
    bring(page, flash)
    page.evaluate("() => { document.getElementById('flash').dataset.mark = 'kept'; }")
    bring(page, flash)
    assert page.evaluate("() => document.getElementById('flash').dataset.mark") is None


LAYER = '<svg hx-swap-oob="innerHTML:#layer"><rect class="target" width="{w}" height="10"/><g class="pick"></g></svg>'


def test_a_board_layer_brought_twice_keeps_what_the_page_drew_on_it(page: Any) -> None:
    """A board layer (an SVG) comes as its content: the second copy leaves it, and the facing arrows
    the page's script drew on it after a click on a square, as they are."""
    drawn = "() => document.querySelectorAll('#layer .pick .arrow').length"
    draw = "() => document.querySelector('#layer .pick').insertAdjacentHTML('beforeend', '<path class=\"arrow\"/>')"
    bring(page, LAYER.format(w=10))
    page.evaluate(draw)
    bring(page, LAYER.format(w=10))
    assert page.evaluate(drawn) == 1
    bring(page, LAYER.format(w=20))  # new content: the layer is drawn anew
    assert page.evaluate(drawn) == 0
    assert page.evaluate("() => document.querySelector('#layer rect').getAttribute('width')") == "20"
