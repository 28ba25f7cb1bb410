"""Every response carries the security headers: a strict CSP (nothing inline, nothing from
elsewhere, no framing), X-Frame-Options, nosniff and a same-origin Referrer-Policy; and no
template puts back what the CSP forbids."""

from __future__ import annotations

import re
from pathlib import Path

import httpx
import pytest

from tests.conftest import ROOT

STRICT = {
    "default-src": "'self'", "script-src": "'self'", "style-src": "'self'", "connect-src": "'self'",
    "object-src": "'none'", "base-uri": "'none'", "frame-ancestors": "'none'",
}


def policy(r: httpx.Response) -> dict[str, str]:
    text = r.headers["content-security-policy"]
    return {part.split()[0]: " ".join(part.split()[1:]) for part in text.split(";") if part.strip()}


def assert_secured(r: httpx.Response, strict: bool = True) -> None:
    assert r.headers["x-frame-options"] == "DENY", r.url
    assert r.headers["x-content-type-options"] == "nosniff", r.url
    assert r.headers["referrer-policy"] == "same-origin", r.url
    directives = policy(r)
    assert directives["frame-ancestors"] == "'none'"
    if strict:
        for name, value in STRICT.items():
            assert directives[name] == value, (r.url, name, directives.get(name))


@pytest.mark.parametrize("path", ["/", "/matches/nope", "/settings", "/api/games", "/api/matches/nope",
                                  "/static/warroom.js", "/games/qmg/board.css", "/games/qmg/board.js"])
def test_pages_api_and_files_carry_the_headers(server, path):
    assert_secured(httpx.get(f"{server.url}{path}"))


def test_refusals_carry_them_too(server):
    r = httpx.post(f"{server.url}/api/guests", json={"name": "Mallory"}, headers={"Origin": "https://evil.example"})
    assert r.status_code == 403
    assert_secured(r)


def test_api_docs_get_a_policy_for_their_cdn_but_still_no_framing(server):
    r = httpx.get(f"{server.url}/docs")
    assert r.status_code == 200
    assert_secured(r, strict=False)
    assert "https://cdn.jsdelivr.net" in policy(r)["script-src"]


def test_board_assets_are_only_a_games_own(server):
    assert httpx.get(f"{server.url}/games/qmg/board.css").headers["content-type"].startswith("text/css")
    for path in ("/games/qmg/board.html", "/games/qmg/page.py", "/games/nope/board.css", "/games/..%2Fapp/board.css"):
        assert httpx.get(f"{server.url}{path}").status_code == 404, path


TEMPLATES = sorted([*(ROOT / "app" / "templates").glob("*.html"), *(ROOT / "app" / "games").glob("*/templates/*.html")])
FORBIDDEN = {
    "inline script": re.compile(r"<script(?![^>]*\bsrc=)[^>]*>", re.I),
    "inline style element": re.compile(r"<style\b", re.I),
    "style attribute": re.compile(r"\sstyle\s*=", re.I),
    "inline event handler": re.compile(r"<[a-z][^>]*\son[a-z]+\s*=", re.I),
    "htmx eval (hx-on, js: values, trigger filters)": re.compile(r"hx-on|['\"]js:|javascript:|hx-trigger=\"[^\"]*\["),
}


@pytest.mark.parametrize("template", TEMPLATES, ids=lambda p: str(p.relative_to(ROOT)))
def test_no_template_needs_unsafe_inline_or_eval(template: Path):
    text = re.sub(r"\{#.*?#\}", "", template.read_text(), flags=re.S)  # comments may name what is forbidden
    for what, pattern in FORBIDDEN.items():
        assert not pattern.search(text), f"{template.name}: {what}: {pattern.search(text).group(0)!r}"
