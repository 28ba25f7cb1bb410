"""The Total Domination board template, rendered from real views on a staged board: every seat and a
spectator, in English and Polish, without a missing catalogue entry and without another seat's
hidden card in the HTML; the pending decision's choices become clickable units, spaces and cards.

No server: the page layer's Jinja environment renders the game's board template (found through
``GAME.package.board``) with the context the table page gives it.
"""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

import pytest

from app.api.templating import board_extras, board_template, templates
from app.games.total_domination import GAME, engine, page, summary
from app.games.total_domination.engine import Ctx
from app.games.total_domination.state import GameState
from app.games.total_domination.text import say
from app.i18n import use_lang
from app.sessions.views import decision_payload
from tests.games.total_domination.boards import card, coastal, home, island, land, stage, stub_pack

G = "total_domination"
CSRF = "csrf-token-123"
CARD_ID = re.compile(r"\btd-\d\d\b")
RULES = Path(__file__).resolve().parents[3] / "app" / "games" / "total_domination" / "rules"
TEMPLATES = Path(__file__).resolve().parents[3] / "app" / "games" / "total_domination" / "templates"
HANDS = {"germany": ["td-01", "td-02"], "uk": ["td-11", "td-12"], "japan": ["td-21"], "ussr": ["td-31", "td-32"]}


@engine.cont("test_page_answered")
def _answered(ctx: Ctx, t: engine.Task, choices: tuple[str, ...]) -> None:
    """The staged question's continuation: nothing follows it."""


def table(monkeypatch: pytest.MonkeyPatch, choices: list[str] | None = None, seat: str = "germany",
          picks: int = 1) -> GameState:
    """Germany's capital, Poland next to it, a coastal Ukraine with a Soviet army, the Atlantic (a
    U-boat island), the UK's capital; every power holds cards; ``choices`` asks ``seat`` a question."""
    stub_pack(monkeypatch, cards=[card(c, op=3 + i % 4, colour=p) for p, cs in HANDS.items() for i, c in enumerate(cs)]
              + [card("td-40", op=5, colour="usa"), card("td-41", op=4, colour="japan")])
    st = stage(
        spaces=[home("germany", "germany", capital=True, factory=True, shipyard=True, xy=(520.0, 380.0)),
                land("poland", xy=(600.0, 380.0)), coastal("ukraine", xy=(660.0, 430.0)),
                island("atlantic", stars=2, uboat=True, xy=(380.0, 300.0)),
                home("britain", "uk", capital=True, factory=True, shipyard=True, xy=(420.0, 360.0)),
                home("moscow", "ussr", shape="land", capital=True, factory=True, xy=(720.0, 360.0))],
        links=[("germany", "poland", "land"), ("poland", "ukraine", "land"), ("britain", "atlantic", "sea"),
               ("germany", "britain", "sea"), ("ukraine", "moscow", "land"), ("atlantic", "moscow", "arrow")],
        units=[("germany", "army", "germany"), ("germany", "army", "germany"), ("germany", "fleet", "germany"),
               ("germany", "army", "poland"), ("ussr", "army", "ukraine"), ("uk", "fleet", "britain"),
               ("germany", "uboat", "atlantic"), ("germany", "bomber", "germany", True)],
        tech_played={"uk": "td-12"},
        destroyed=["moscow"],
    )
    st.hands = {p: list(cs) for p, cs in HANDS.items()}
    st.hands["uk"] = ["td-11"]  # td-12 lies face down by the UK's Tech Sheet this round
    st.active = "germany"
    if choices is not None:
        st.stack.append(engine.ask(seat, say("prompt_turn", power=seat), [(c, say("choice_pass")) for c in choices],
                                   "test_page_answered", kind="turn", lo=picks, hi=picks, power=seat))
        engine.run(Ctx(st, random.Random(1)))
    return st


def render(state: GameState, seat: str | None, lang: str = "en", live: bool = True) -> str:
    use_lang(lang)
    try:
        view = GAME.view(state, seat)
        pending = [decision_payload(d) for d in GAME.pending(state) if d.seat == seat] if live else []
        ctx: dict[str, Any] = {
            "view": view, "board_ctx": board_extras(G, view, seat), "match_id": "m-1", "csrf": CSRF, "seq": 7,
            "pending": pending, "game_id": G,
            "seats": [{"seat": s, "label": s, "player": f"Name {s}", "bot": None}
                      for s in sorted(set(state.seats.values()))],
        }
        return templates.env.get_template(board_template(G) or "").render(**ctx)
    finally:
        use_lang("en")


def hidden_from(state: GameState, seat: str | None) -> set[str]:
    if seat is not None:
        return {s for s in GAME.secrets(state, seat) if isinstance(s, str)}
    every = [c for cs in state.hands.values() for c in cs] + list(state.tech_played.values())
    return set(every)


# ---------------------------------------------------------------------- the map
def test_every_space_is_drawn_in_its_shape_with_its_icons_units_and_links(monkeypatch: pytest.MonkeyPatch) -> None:
    st = table(monkeypatch)
    html = render(st, "germany")
    for sid in ("germany", "poland", "ukraine", "atlantic", "britain", "moscow"):
        assert f'data-space="{sid}"' in html
    germany = html[html.index('data-space="germany"'):]
    assert germany.index("<polygon") < germany.index("</g>")  # coastal: an octagon
    poland = html[html.index('data-space="poland"'):]
    assert poland.index('<rect class="td-shape"') < poland.index("</g>")  # land: a square
    atlantic = html[html.index('data-space="atlantic"'):]
    assert atlantic.index('<circle class="td-shape"') < atlantic.index("</g>")  # island: a circle
    assert "★★★" in germany[:germany.index("</g>")] and "★★" in atlantic[:atlantic.index("</g>")]
    assert html.count('href="#td-ico-factory"') == 3 and html.count('href="#td-ico-shipyard"') == 2
    assert html.count('href="#td-ico-uboat"') == 1
    assert html.count('class="td-destroyed"') == 1  # the Destruction marker on Moscow
    # one piece per nation, kind and side: two German armies in Germany are one piece with its count
    assert re.search(r'class="td-piece army n-germany"[^>]*data-units="u1 u2"[^>]*data-count="2"', html)
    assert re.search(r'class="td-piece bomber n-germany spent"', html)
    assert re.search(r'class="td-piece uboat n-germany"[^>]*data-space="atlantic"', html)
    assert html.count('class="td-link land"') == 3 and html.count('class="td-link sea"') == 2
    assert html.count('class="td-arrow-link"') == 2  # an arrow link: two matched markers, one at each end


def test_control_is_a_ring_in_the_controllers_colour_and_the_vp_track_shows_both_thresholds(
        monkeypatch: pytest.MonkeyPatch) -> None:
    st = table(monkeypatch)
    html = render(st, None)
    poland = html[html.index('data-space="poland"'):]
    assert '<circle class="td-control n-germany"' in poland[:poland.index("</g>")]  # a German army holds Poland
    ukraine = html[html.index('data-space="ukraine"'):]
    assert '<circle class="td-control n-ussr"' in ukraine[:ukraine.index("</g>")]
    view = GAME.view(st, None)
    assert view["thresholds"] == {"axis": 29, "allies": 33}
    assert f'class="td-vp-axis">{view["side_vp"]["axis"]}<' in html
    assert f'class="td-vp-allies">{view["side_vp"]["allies"]}<' in html
    assert '<small class="muted">/29</small>' in html and '<small class="muted">/33</small>' in html
    assert 'data-track="usa"' in html and 'data-track="china"' in html


def test_a_ring_marks_who_holds_a_space_where_its_colour_does_not(monkeypatch: pytest.MonkeyPatch) -> None:
    st = table(monkeypatch)
    st.new_unit("germany", "army", "moscow")  # one enemy unit in a capital: held by nobody
    html = render(st, None)

    def ring(space: str) -> str | None:
        block = html[html.index(f'data-space="{space}"'):]
        found = re.search(r'<circle class="td-control n-(\w+)"', block[:block.index("</g>")])
        return found.group(1) if found else None

    assert ring("moscow") == "none" and ring("poland") == "germany"
    assert ring("germany") is None and ring("britain") is None  # home spaces their own powers hold
    assert ring("atlantic") is None  # a U-boat holds nothing


def test_the_allied_threshold_follows_the_joined_countries(monkeypatch: pytest.MonkeyPatch) -> None:
    st = table(monkeypatch)
    st.controller["usa"] = "uk"
    assert GAME.view(st, None)["thresholds"]["allies"] == 35
    assert '<small class="muted">/35</small>' in render(st, None)


# ---------------------------------------------------------------------- hidden information
@pytest.mark.parametrize("lang", ["en", "pl"])
def test_no_seat_sees_another_seats_hidden_cards(monkeypatch: pytest.MonkeyPatch, lang: str) -> None:
    st = table(monkeypatch, choices=["ops:td-01", "event:td-01", "tech:td-02", "pass"])
    for seat in ["germany", "uk", "japan", "ussr", None]:
        html = render(st, seat, lang)
        leaked = sorted(hidden_from(st, seat) & set(CARD_ID.findall(html)))
        assert not leaked, f"{seat or 'spectator'} sees {leaked}"
        for c in (st.hands.get(seat, []) if seat else []):
            assert f'data-card="{c}"' in html  # one's own hand is on the board
    assert 'class="td-tech face-down"' in render(st, "germany")  # the UK's face-down card: seen as a card, not its id
    assert 'class="td-tech face-down" data-card="td-12"' in render(st, "uk")  # the UK sees its own face-down tech


def test_the_decision_is_in_the_own_seats_view_only(monkeypatch: pytest.MonkeyPatch) -> None:
    st = table(monkeypatch, choices=["ops:td-01", "pass"])
    assert [d["kind"] for d in GAME.view(st, "germany")["decisions"]] == ["turn"]
    assert GAME.view(st, "uk")["decisions"] == [] and GAME.view(st, None)["decisions"] == []
    assert GAME.view(st, None)["waiting"] == {"seats": ["germany"], "hands": []}


# ---------------------------------------------------------------------- languages
def test_the_board_reads_in_english_and_polish_without_a_missing_entry(monkeypatch: pytest.MonkeyPatch,
                                                                    tmp_path: Path) -> None:
    from app import i18n

    record = tmp_path / "misses.tsv"
    monkeypatch.setenv(i18n.MISSES_ENV, str(record))
    monkeypatch.setattr(i18n, "_missed", set())
    i18n.record_misses()
    try:
        st = table(monkeypatch, choices=["move:u4:ukraine", "ops:td-01", "pass"])
        st.saved = {"germany": "td-02"}
        for lang in ("en", "pl"):
            for seat in ["germany", "uk", None]:
                html = render(st, seat, lang)
                assert "board_" not in html.replace("td-", ""), "a message id shown as text"
        polish = render(st, "germany", "pl")
        assert "Faza Akcji" in polish and "Niemcy" in polish and "Oś" in polish and "PZ" in polish
        assert "Action Phase" in render(st, "germany", "en")
    finally:
        monkeypatch.delenv(i18n.MISSES_ENV)
        i18n.record_misses()
    rows = record.read_text(encoding="utf-8").splitlines() if record.exists() else []
    assert rows == []


def test_the_web_catalogue_is_complete_in_both_languages() -> None:
    assert GAME.package.catalogue.problems() == []
    en = GAME.package.catalogue.messages["en"]
    used = set(re.findall(r'gt\(["\'](board_[a-z_]+)["\'][,)]', (TEMPLATES / "board.html").read_text(encoding="utf-8")))
    assert used and used <= set(en)
    for prefix, ids in (("board_phase_", ("setup", "strategic", "draft", "action", "admin", "over")),
                        ("board_event_", ("tactics", "logistics", "research", "diplomacy", "peace")),
                        ("board_verb_", ("ops", "event", "tech", "pick")),
                        ("board_cost_", [a for _, row in page.SHEET for a in row])):
        assert {prefix + i for i in ids} <= set(en)


# ---------------------------------------------------------------------- clickable targets
def test_parse_choice_reads_the_board_answers() -> None:
    assert page.parse_choice("move:u7:poland") == {"verb": "move", "unit": "u7", "space": "poland"}
    assert page.parse_choice("build:germany:army:germany") == {"verb": "build", "nation": "germany", "kind": "army",
                                                               "space": "germany"}
    assert page.parse_choice("attack:u3:u9") == {"verb": "attack", "unit": "u3", "target": "u9"}
    assert page.parse_choice("ops:td-07") == {"verb": "ops", "card": "td-07"}
    assert page.parse_choice("pass") is None and page.parse_choice("move:u7") is None


def test_legal_targets_are_clickable_for_the_deciding_seat_only(monkeypatch: pytest.MonkeyPatch) -> None:
    choices = ["move:u4:ukraine", "move:u1:poland", "attack:u4:u5", "build:germany:army:germany",
               "build:germany:fleet:germany", "pass"]
    st = table(monkeypatch, choices=choices)
    html = render(st, "germany")
    assert 'class="td-map acting"' in html and 'data-form="td-map-form"' in html
    svg = re.search(r'data-choices="([^"]*)" data-actors="([^"]*)"', html)
    assert svg is not None and svg.group(1).split() == choices and svg.group(2).split() == ["u1", "u4"]
    assert re.search(r'class="td-piece army n-germany actor"[^>]*data-units="u4"', html)
    assert re.search(r'class="td-space coastal n-neutral target" data-space="ukraine"\s+data-choices="move:u4:ukraine"',
                     html)
    germany = re.search(r'data-space="germany"\s+data-choices="([^"]*)"', html)
    assert germany is not None and germany.group(1).split() == ["build:germany:army:germany",
                                                                "build:germany:fleet:germany"]
    assert 'id="td-map-form"' in html and 'name="decision" value="q0"' in html
    assert re.search(r'class="td-piece army n-ussr target"[^>]*data-units="u5"', html)  # the attack's target
    for seat in ("uk", None):
        other = render(st, seat)
        assert "acting" not in other and "data-choices" not in other and "td-map-form" not in other
    assert "acting" not in render(st, "germany", live=False)  # a past view answers nothing


def test_a_cards_uses_are_buttons_on_the_card(monkeypatch: pytest.MonkeyPatch) -> None:
    st = table(monkeypatch, choices=["ops:td-01", "event:td-01", "tech:td-02", "pass"])
    html = render(st, "germany")
    one = html[html.index('data-card="td-01"'):]
    one = one[:one.index("</li>")]
    assert 'form="td-hand-form" name="choice" value="ops:td-01"' in one
    assert 'value="event:td-01"' in one and 'value="tech:td-02"' not in one
    assert 'id="td-hand-form"' in html


def test_the_draft_shows_the_cards_to_pick_from(monkeypatch: pytest.MonkeyPatch) -> None:
    st = table(monkeypatch, choices=["td-40", "td-41"])
    html = render(st, "germany")
    draft = html[html.index('class="td-hand td-draft"'):]
    draft = draft[:draft.index("</section>")]
    assert 'data-card="td-40"' in draft and 'data-card="td-41"' in draft and 'data-card="td-01"' not in draft
    assert 'value="td-40"' in draft
    assert "td-40" not in render(st, "uk")  # another seat's packet is not shown


def render_view(view: dict[str, Any], seat: str | None, pending: list[dict[str, Any]] | None = None,
                lang: str = "en") -> str:
    """The board drawn from a view as given: the view parts other modules add, staged here."""
    use_lang(lang)
    try:
        ctx: dict[str, Any] = {"view": view, "board_ctx": board_extras(G, view, seat), "match_id": "m-1", "csrf": CSRF,
                               "seq": 7, "pending": pending or [], "game_id": G, "seats": []}
        return templates.env.get_template(board_template(G) or "").render(**ctx)
    finally:
        use_lang("en")


def test_who_the_table_waits_on(monkeypatch: pytest.MonkeyPatch) -> None:
    st = table(monkeypatch, choices=["move:u4:ukraine", "pass"])
    html = render(st, "uk")
    assert 'class="td-waiting-seat" data-seat="germany"' in html


def test_a_multi_pick_is_made_by_tapping_the_cards(monkeypatch: pytest.MonkeyPatch) -> None:
    from app.api.templating import dom_id

    st = table(monkeypatch, choices=["td-40", "td-41", "td-01"], picks=2)
    html = render(st, "germany")
    for c in ("td-40", "td-41", "td-01"):
        assert f'<label class="td-card-face pick" for="pick-{dom_id("q0~" + c)}"' in html
    assert 'class="td-card-act' not in html and 'id="td-hand-form"' not in html  # no one-click answers


def test_op_left_and_the_card_played_for_operations(monkeypatch: pytest.MonkeyPatch) -> None:
    view = GAME.view(table(monkeypatch), "uk")
    view["operations"] = {"power": "germany", "card": "td-01", "op": 3, "saved_op": False}  # the operations part
    html = render_view(view, "uk")
    assert 'class="td-op-left">3<' in html and '<span class="td-ops" data-card="td-01">' in html
    view["operations"] = None
    assert "td-op-left" not in render_view(view, "uk")


def test_the_draft_shows_ones_packet_and_picks_and_only_counts_of_the_others(monkeypatch: pytest.MonkeyPatch) -> None:
    st = table(monkeypatch)
    view = GAME.view(st, "germany")
    view["draft"] = {"year": 1939, "pick": 2, "direction": "left", "solo": False, "waiting_on": ["japan", "uk"],
                     "packet_sizes": {"germany": 3, "uk": 3, "japan": 3, "ussr": 3},
                     "picked": {"germany": 1, "uk": 1, "japan": 1, "ussr": 2},
                     "packets": {"germany": ["td-40", "td-41"]}, "picks": {"germany": ["td-02"]}, "chosen": {}}
    html = render_view(view, "germany", lang="pl")
    section = html[html.index('class="td-hand td-draft-view"'):]
    section = section[:section.index("</section>")]
    assert 'data-card="td-40"' in section and 'data-card="td-41"' in section and 'data-card="td-02"' in section
    assert section.count('<i class="td-back"></i>') == 1 + 1 + 2  # the others' picks face down
    assert 'class="td-other waiting" data-hand="japan"' in section and 'class="td-other" data-hand="ussr"' in section
    assert "przekazanie w lewo" in section and "wybór 2" in section


def test_the_automas_card_shows_its_actions_priority_and_lines(monkeypatch: pytest.MonkeyPatch) -> None:
    view = GAME.view(table(monkeypatch), "uk")
    view["solo"] = {"revealed": {"id": "solo-03", "number": 3, "year": 1939,
                                 "germany": {"actions": [["build", "army"], ["move", "army"]],
                                             "units": ["army", "fleet"]},
                                 "japan": {"actions": [["destroy", "fleet"]], "units": ["fleet"]},
                                 "lines": [["poland", "ukraine"], ["britain"]]},
                    "revealed_for": "germany", "used": [], "dealt_left": 1, "deck_size": 10, "removed": 0}
    html = render_view(view, "uk")
    section = html[html.index('class="td-automa"'):]
    section = section[:section.index("</section>")]
    assert 'data-power="germany"' in section and "build: army" in section and "move: army" in section
    assert "destroy" not in section  # Japan's half is not the one resolving
    assert "Arrow 1: " in section and '<span data-space="ukraine">' in section


def test_the_vp_track_follows_the_scenarios_victory_rule(monkeypatch: pytest.MonkeyPatch) -> None:
    view = GAME.view(table(monkeypatch), None)
    view["victory_rule"] = {"mode": "compare", "last_year": 1941}
    html = render_view(view, None)
    assert "td-vp-goal" not in html and "/29<" not in html and "end of 1941" in html
    view["victory_rule"] = {"mode": "solo", "last_year": 1945}
    html = render_view(view, None)
    assert "/29<" in html and "/33<" not in html and 'data-mode="solo"' in html


# ---------------------------------------------------------------------- rules, summary
def test_the_rules_have_the_same_sections_in_both_languages_and_the_board_links_to_them() -> None:
    ids = {lang: re.findall(r'<section id="([\w-]+)">', (RULES / f"{lang}.html").read_text(encoding="utf-8"))
           for lang in ("en", "pl")}
    assert ids["en"] == ids["pl"]
    board = (TEMPLATES / "board.html").read_text(encoding="utf-8")
    linked = set(re.findall(r'rule\("([\w-]+)"', board))
    assert linked and linked <= set(ids["en"])
    assert {"draft", "action", "operations", "movement", "attacks", "control", "supply", "technology", "usa-china",
            "victory", "admin", "solo"} <= set(ids["en"])


def test_the_summary_reads_each_years_side_totals_from_the_log() -> None:
    lines = [{"id": "year_begins", "params": {"year": 1939}},
             {"id": "vp_changes", "params": {"power": "germany", "delta": "+2", "total": 10}},
             {"id": "vp_changes", "params": {"power": "uk", "delta": "-1", "total": 9}},
             {"id": "year_begins", "params": {"year": 1940}},
             {"id": "vp_changes", "params": {"power": "japan", "delta": "+1", "total": 8}}]
    out = summary.summary(lines)
    assert [y for y, _ in out["rounds"]] == [1939, 1940]
    assert out["by_role"]["germany"]["vp"] == 10 and out["by_role"]["uk"]["vp"] == 9
    assert out["rounds"][1][1]["axis"] == out["rounds"][0][1]["axis"] + out["by_role"]["japan"]["vp"] - (
        summary._starting_vp()["japan"])


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_summary_of_a_whole_bot_game_matches_the_final_vp(seed: int) -> None:
    from app.games.total_domination import derived

    st = GAME.setup({}, GAME.roles(4, {}), random.Random(seed))
    rng = random.Random(seed)
    lines: list[dict[str, Any]] = []
    while required := [d for d in GAME.pending(st) if not d.optional]:
        d = required[0]
        lines += [{"id": e.msg.id, "params": e.msg.params} for e in GAME.apply(st, d.seat, GAME.bot(st, d, rng), rng)
                  if e.msg is not None]
    out = summary.summary(lines)
    assert {p: out["by_role"][p]["vp"] for p in st.seats} == derived.vp(st)
    assert out["rounds"][-1] == [st.year, derived.side_totals(st)]
    assert [y for y, _ in out["rounds"]] == list(range(1939, st.year + 1))
    assert all(out["by_role"][p]["cards"] > 0 for p in st.seats)
