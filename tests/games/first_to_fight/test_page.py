"""First to Fight's table page, rendered from real views: every seat and a spectator, in English and
Polish, without a missing catalogue entry and without another seat's mission or any deck's card
(its id or its name) in the HTML. The five regions with their Axis domination tracks and neighbour
arrows, the soldiers as cards, the order tiles with their VP, the time track, the seat's own
missions and the others' counts of backs, the players' VP, nurses and revealed missions; the
pending decision's tiles, regions, soldiers and cards become clickable for its seat alone.

No server: the page layer's Jinja environment renders the game's board template (found through
``GAME.package.board``) with the context the table page gives it (tests/games/first_to_fight/page_kit.py).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from markupsafe import escape

from app.games.first_to_fight import GAME, page
from app.games.first_to_fight.pack import LAST_MONTH, ORDERS, month_label, pack
from tests.games.first_to_fight.page_kit import ask, dealt, hidden_from, installed, midgame, render

pytestmark = pytest.mark.usefixtures(installed.__name__)

HERE = Path(__file__).resolve().parents[3] / "app" / "games" / "first_to_fight"
RULES, TEMPLATES = HERE / "rules", HERE / "templates"


def esc(text: str) -> str:
    return str(escape(text))


def region_block(html: str, rid: str) -> str:
    """The SVG group of one region on the schematic board."""
    svg = html[html.index('<svg class="ftf-map'):html.index('<g class="ftf-legend"')]
    return next(part for part in svg.split('<g class="ftf-region')[1:] if f'data-region="{rid}"' in part[:200])


def cards_of(html: str, rid: str) -> str:
    start = html.index(f'<div class="ftf-region-cards" data-region="{rid}"')
    return html[start:html.index("</ul>", start)]


def soldier_card(html: str, sid: str) -> str:
    start = html.index(f'data-soldier="{sid}"', html.index('class="ftf-regions"'))
    return html[html.rindex("<li", 0, start):html.index("</li>", start)]


def section(html: str, cls: str) -> str:
    start = html.index(f'<section class="{cls}')
    return html[start:html.index("</section>", start)]


# ---------------------------------------------------------------------- the board (§4)
def test_every_region_shows_its_domination_track_its_state_and_its_neighbour_arrows() -> None:
    """§4.2-4.3: each track's squares with their levels, the three dark squares, the start square,
    the thresholds on the arrows between squares, the marker; occupied or free, the level."""
    st = midgame()
    html = render(st, "p1")
    data = pack()
    assert html.count('<g class="ftf-region') == 5
    for rid, r in data.regions.items():
        block = region_block(html, rid)
        squares = re.findall(r'<g class="ftf-sq([\w ]*)" data-i="(\d+)">\s*<rect[^>]*/>\s*<text[^>]*>(\d+)</text>',
                             block)
        assert [int(lv) for _, _, lv in squares] == list(r.track)
        assert [int(i) for cls, i, _ in squares if "dark" in cls] == list(range(r.occupied_from, len(r.track)))
        assert [int(i) for cls, i, _ in squares if "start" in cls] == [r.start]
        assert [int(i) for cls, i, _ in squares if "here" in cls] == [st.domination[rid]]
        assert block.count('class="ftf-marker"') == 1
        assert [int(v) for v in re.findall(r'class="ftf-th" [^>]*>(\d+)</text>', block)] == list(r.thresholds)
        level = st.level(rid)
        assert f'data-level="{level}"' in block and f"level {level}" in block
        assert ("occupied" if st.occupied(rid) else "free") in block
    assert "occupied" in region_block(html, "WAR").split(">")[0]  # Warsaw's marker is on a dark square
    arrows = re.findall(r'<line class="ftf-link"[^>]*data-a="(\w+)" data-b="(\w+)"', html)
    assert sorted(frozenset(a) for a in arrows) == sorted(data.links, key=sorted) or \
        {frozenset(a) for a in arrows} == set(data.links)
    assert len(arrows) == len(data.links)


def test_the_active_threshold_is_the_arrow_left_of_the_marker() -> None:
    """§6.3.2: a Sabotage must exceed the number on the arrow to the LEFT of the marker's square."""
    st = dealt()
    html = render(st, "p1")
    for rid, r in pack().regions.items():
        block = region_block(html, rid)
        active = re.findall(r'<g class="ftf-threshold active">.*?class="ftf-th" [^>]*>(\d+)<', block, re.S)
        square = st.domination[rid]
        assert active == ([str(r.thresholds[square - 1])] if square else [])


def test_soldiers_lie_in_their_regions_as_cards_with_training_wounds_ability_and_note() -> None:
    """§5: formation, Strength/Underground (a training token covers the printed pair), wounds,
    the ability, the note on hover (title) and on tap (<details>); the concentration lock (§9)."""
    st = midgame()
    data = pack()
    for lang in ("en", "pl"):
        html = render(st, "p2", lang)
        for rid in data.regions:
            listed = re.findall(r'<li class="ftf-soldier[^"]*" data-soldier="(s\d\d)"', cards_of(html, rid))
            assert listed == st.in_region(rid)
        for sid, here in st.soldiers.items():
            card, face = soldier_card(html, sid), data.soldiers[sid]
            note = face.note_pl if lang == "pl" else face.note
            assert face.name in card and f"title=\"{note}" in card.replace("&#39;", "'") or note[:20] in card
            assert "<details class=\"ftf-note\">" in card and f"f-{face.formation}" in card
            assert f"<b>{here['s']}</b>" in card and f"<b>{here['u']}</b>" in card
            assert ('class="ftf-token"' in card) == bool(here["trained"])
            assert card.count("✚") == here["wounds"]
    trained = next(s for s, d in st.soldiers.items() if d["trained"])
    card = soldier_card(render(st, "p1"), trained)
    face = pack().soldiers[trained]
    assert f'<s class="ftf-printed">{face.strength}/{face.underground}</s>' in card and "wounded" in card
    locked = [s for s in st.soldiers if st.locked(s)]
    html = render(st, "p1")
    assert locked and all("locked" in soldier_card(html, s).split(">")[0] for s in locked)
    assert 'class="ftf-conc"' in region_block(html, "POL") and 'class="ftf-conc"' not in region_block(html, "NEA")
    polish = render(st, "p1", "pl")
    assert "Umiejętność" in polish and "Konspiracja" in polish and "Historia" in polish


def test_the_order_tiles_show_their_vp_and_their_side() -> None:
    """§6.1: six tiles, active or inactive, with the VP lying on them."""
    st = midgame()
    tiles = section(render(st, "p3"), "ftf-orders")
    found = re.findall(r'<li class="ftf-tile (active|inactive)[^"]*" data-order="(\w+)"', tiles)
    assert [o for _, o in found] == list(ORDERS)
    assert dict((o, side) for side, o in found)["MOVEMENT"] == "inactive"
    assert 'data-vp="2"' in tiles and "2 VP" in tiles
    assert "2 PZ" in section(render(st, "p3", "pl"), "ftf-orders")


# ---------------------------------------------------------------------- decisions on the board
def test_the_order_tiles_answer_the_choosers_order_decision_and_nobody_elses() -> None:
    st = dealt()
    chooser = st.chooser
    html = render(st, chooser)
    assert 'id="ftf-answer-form"' in html
    for o in ORDERS:
        assert f'data-order="{o}" data-choice="{o}"' in html
    other = next(s for s in st.seats if s != chooser)
    assert "data-choice=" not in render(st, other) and 'id="ftf-answer-form"' not in render(st, other)
    assert "data-choice=" not in render(st, None)
    assert GAME.view(st, chooser)["decisions"][0]["kind"] == "order"
    assert GAME.view(st, other)["decisions"] == [] and GAME.view(st, None)["waiting"] == [chooser]


def test_regions_and_soldiers_a_decision_names_are_clickable() -> None:
    st = midgame()
    st.stack.clear()
    in_nea = st.in_region("NEA")
    ask(st, "p1", ["WAR", "WEU", "pass"])
    html = render(st, "p1")
    assert 'data-choice="WAR"' in region_block(html, "WAR") and "target" in region_block(html, "WAR")[:60]
    assert "data-choice" not in region_block(html, "POL")
    st.stack.clear()
    ask(st, "p1", [*in_nea[:2], "pass"])
    html = render(st, "p1")
    for sid in in_nea[:2]:
        assert f'data-soldier="{sid}" data-choice="{sid}"' in html
    assert f'data-soldier="{in_nea[2]}" data-choice' not in html
    assert 'data-choice="pass"' not in html  # a pass stays in the prompt bar
    js = (TEMPLATES / "board.js").read_text(encoding="utf-8")
    assert 'closest("[data-choice]")' in js and 'closest("details, summary, a")' in js


def test_a_decision_with_several_answers_leaves_the_board_to_the_prompt_bar() -> None:
    st = midgame()
    st.stack.clear()
    ask(st, "p1", ["WAR", "WEU", "NEA"], hi=2)
    html = render(st, "p1")
    assert "data-choice=" not in html and 'id="ftf-answer-form"' not in html


def test_cards_drawn_for_a_seat_are_offered_to_that_seat_alone() -> None:
    """§6.3.4 / §16.2: the soldiers drawn to recruit are seen by the recruiter only."""
    st = midgame()
    st.stack.clear()
    drawn = st.soldier_deck[:2]
    st.see("p2", *drawn)
    ask(st, "p2", drawn)
    html = render(st, "p2")
    offered = section(html, "ftf-offered")
    for sid in drawn:
        assert f'data-soldier="{sid}" data-choice="{sid}"' in offered and pack().soldiers[sid].name in offered
    for seat in ("p1", "p3", None):
        other = render(st, seat)
        assert 'class="ftf-offered' not in other
        assert not [sid for sid in drawn if sid in other or pack().soldiers[sid].name in other]


# ---------------------------------------------------------------------- missions and hidden information
@pytest.mark.parametrize("lang", ["en", "pl"])
def test_no_seat_sees_another_seats_missions_or_any_decks_cards(lang: str) -> None:
    """§16.2: missions in hand are their holder's; the decks' cards are nobody's."""
    st = midgame()
    for seat in [*st.seats, None]:
        html = render(st, seat, lang)
        leaked = sorted(s for s in hidden_from(st, seat) if s in html)
        assert not leaked, f"{seat or 'spectator'} sees {leaked[:5]}"
        mine = section(html, "ftf-hand") if seat else ""
        for m in st.hands.get(seat or "", []):
            face = pack().missions[m]
            assert f'data-mission="{m}"' in mine
            assert esc(face.title_pl if lang == "pl" else face.title) in mine and month_label(face.date) in mine
        if seat is None:
            assert 'class="ftf-hand' not in html


def test_my_missions_show_date_region_formation_difficulty_vp_and_stage() -> None:
    """§7.1: title, date, region, formation, difficulty, VP and the back's colour."""
    st = midgame()
    hand = section(render(st, "p1"), "ftf-hand")
    for m in st.hands["p1"]:
        face = pack().missions[m]
        at = hand.index(f'data-mission="{m}"')
        card = hand[hand.rindex("<li", 0, at):hand.index("</li>", at)]
        assert f"stage-{face.stage}" in card and esc(face.title) in card and month_label(face.date) in card
        assert pack().regions[face.region].name in card and f"f-{face.formation}" in card
        assert f"difficulty {face.difficulty}" in card and f"{face.vp} VP" in card
        assert f"needs Strength {face.difficulty + st.level(face.region)} now" in card


def test_the_players_show_vp_nurses_backs_and_revealed_missions() -> None:
    """§16.2 public: VP tokens, nurses, the red and yellow backs in each hand, revealed missions."""
    st = midgame()
    seats = section(render(st, None), "ftf-seats")
    for s in st.seats:
        row = seats[seats.index(f'class="ftf-seat" data-seat="{s}"'):]
        row = row[:row.index("</tr>")]
        assert f'<td class="ftf-vp">{st.vp[s]}</td>' in row and f'data-nurses="{st.nurses[s]}"' in row
        red = sum(1 for m in st.hands[s] if pack().missions[m].stage == 1)
        assert f'<span class="ftf-back stage-1" title="stage I">{red}</span>' in row
    for seat, how, mark in (("p1", "succeeded", "✔"), ("p2", "failed", "✘"), ("p3", "discarded", "⨯")):
        m = getattr(st, how)[seat][0]
        assert f'data-mission="{m}" title="' in seats and f"{mark} {esc(pack().missions[m].title)}" in seats


def test_the_time_track_runs_ix_1939_to_v_1945_with_the_marker_events_and_my_dates() -> None:
    """§10.1: 69 monthly squares; the marker; placed events' dates (§11.2); the seat's own mission dates."""
    st = midgame()
    html = render(st, "p1")
    track = section(html, "ftf-time")
    months = re.findall(r'<li class="ftf-month stage-(\d)([\w -]*)" data-month="(\d+)"', track)
    assert [int(i) for *_, i in months] == list(range(LAST_MONTH + 1))
    assert [int(i) for _, cls, i in months if " now" in cls] == [st.time]
    assert all(stage == ("2" if int(i) >= 40 else "1") for stage, _, i in months)
    placed = pack().events[st.event_track[0]].date
    assert [int(i) for _, cls, i in months if "has-event" in cls] == [placed]
    mine = sorted({pack().missions[m].date for m in st.hands["p1"]})
    assert sorted(int(i) for _, cls, i in months if "has-mission" in cls) == mine
    assert "has-mission" not in section(render(st, None), "ftf-time")
    events = section(html, "ftf-events")
    assert pack().events[st.event_drawn].title in events and pack().events[st.event_track[0]].title in events


# ---------------------------------------------------------------------- languages, rules, cards
def test_the_board_reads_in_english_and_polish_without_a_missing_entry(monkeypatch: pytest.MonkeyPatch,
                                                                    tmp_path: Path) -> None:
    from app import i18n

    record = tmp_path / "misses.tsv"
    monkeypatch.setenv(i18n.MISSES_ENV, str(record))
    monkeypatch.setattr(i18n, "_missed", set())
    i18n.record_misses()
    try:
        busy = midgame()
        fresh = dealt(4, seed=9)
        for lang in ("en", "pl"):
            for state, seat in [(busy, "p1"), (busy, None), (fresh, fresh.chooser), (fresh, None)]:
                html = render(state, seat, lang)
                assert "board_" not in html and "order_" not in html and "rule_" not in html, "an id shown as text"
        polish = render(busy, "p1", "pl")
        for word in ("Runda", "Faza Rozkazów", "Tor upływu czasu", "pod Okupacją", "Twoje misje", "Karty rozkazów",
                     "Dywersja", "Manewry", "Warszawa", "Europa Północna i Atlantyk", "etap I", "Dowódca 1"):
            assert word in polish, word
    finally:
        monkeypatch.delenv(i18n.MISSES_ENV)
        i18n.record_misses()
    rows = record.read_text(encoding="utf-8").splitlines() if record.exists() else []
    assert rows == []


def test_the_rules_reference_has_the_same_sections_in_both_languages_and_the_board_links_exist() -> None:
    ids = {lang: re.findall(r'<section id="([\w-]+)">', (RULES / f"{lang}.html").read_text(encoding="utf-8"))
           for lang in ("en", "pl")}
    assert ids["en"] == ids["pl"] and len(ids["en"]) >= 20
    linked = set(re.findall(r'rule\("([\w-]+)"', (TEMPLATES / "board.html").read_text(encoding="utf-8")))
    assert linked and linked <= set(ids["en"]), linked - set(ids["en"])
    for lang in ("en", "pl"):
        text = (RULES / f"{lang}.html").read_text(encoding="utf-8")
        assert set(re.findall(r'href="#([\w-]+)"', text)) <= set(ids[lang])
        for m in pack().missions.values():  # the rules never name a mission: missions are secret cards
            assert m.title not in text and m.title_pl not in text


def test_the_card_list_names_every_soldier_and_event_and_only_counts_the_missions() -> None:
    from app.games.first_to_fight import reference

    data = pack()
    for lang in ("en", "pl"):
        entries = reference.cards(lang)
        keys = [e.key for e in entries]
        assert sorted(k for k in keys if k in data.soldiers) == sorted(data.soldiers) and len(data.soldiers) == 54
        assert sorted(k for k in keys if k in data.events) == sorted(data.events) and len(data.events) == 24
        counts = {e.key: e.count for e in entries if e.key.startswith("missions-")}
        assert counts == {"missions-1": sum(1 for m in data.missions.values() if m.stage == 1),
                          "missions-2": sum(1 for m in data.missions.values() if m.stage == 2)}
        listed = " ".join(f"{e.name} {e.text} {e.kind}" for e in entries)
        for m in data.missions.values():
            assert m.id not in keys and m.title not in listed and m.title_pl not in listed
    s01 = next(e for e in reference.cards("pl") if e.key == "s01")
    assert "Siła" in s01.text and "Umiejętność" in s01.text and s01.kind in {
        "Piechota", "Marynarka", "Wojska pancerne", "Lotnictwo", "Wojska spadochronowe", "Dywersja"}


def test_the_bot_reads_its_view_without_the_pages_pending_decisions() -> None:
    from app.games.first_to_fight import views

    st = dealt()
    assert "decisions" in views.view(st, st.chooser) and "waiting" in views.view(st, st.chooser)
    assert "decisions" not in views.view(st, st.chooser, page=False)
    assert page.table_facts in views.PARTS.pages and page.table_facts not in views.PARTS.views


def test_the_resolving_orders_once_only_lists_and_the_missions_being_resolved_are_shown() -> None:
    """§6.3.1/§6.3.3: a soldier moved or trained in this order is marked, a region sabotaged or
    recruited in is "used"; §7.3: a mission revealed on its date shows, before it is resolved, to all."""
    st = midgame()
    moved, trained = st.in_region("NEA")[:2]
    st.order = {"kind": "MOVEMENT", "chooser": "p1", "moved": [moved], "trained": [trained], "regions": ["WEU"]}
    m = st.hands["p2"].pop(0)
    st.see("*", m)
    st.ending["revealed"] = {"p2": [m]}
    for seat in ("p1", "p2", None):
        html = render(st, seat)
        assert 'class="ftf-now-badge moved"' in soldier_card(html, moved)
        assert 'class="ftf-now-badge trained"' in soldier_card(html, trained)
        assert "used in this order (Movement)" in region_block(html, "WEU")
        assert 'class="ftf-used"' not in region_block(html, "WAR")
        seats = section(html, "ftf-seats")
        assert f'class="ftf-done revealed" data-mission="{m}"' in seats and esc(pack().missions[m].title) in seats
    polish = render(st, "p3", "pl")
    assert "ruszył się w tym rozkazie" in polish and "wykorzystany w tym rozkazie (Ruch)" in polish


@pytest.mark.parametrize(("players", "options"), [(2, {}), (4, {"draft": True, "events": True})])
def test_a_whole_bot_game_renders_for_every_seat_without_a_secret(players: int, options: dict[str, bool]) -> None:
    """Seeded bot games, the board drawn every 23 answers and at the end for each seat and a
    spectator in both languages: nothing secret in it, no message id shown as text."""
    import random

    st = GAME.setup(dict(options), GAME.roles(players, options), random.Random(players))
    rng = random.Random(100 + players)
    answers = 0
    while GAME.outcome(st) is None:
        d = GAME.pending(st)[0]
        GAME.apply(st, d.seat, GAME.bot(st, d, rng), rng)
        answers += 1
        if answers % 23 and GAME.outcome(st) is None:
            continue
        for seat in [*st.seats, None]:
            for lang in ("en", "pl"):
                html = render(st, seat, lang)
                leaked = sorted(s for s in hidden_from(st, seat) if s in html)
                assert not leaked, f"answer {answers}: {seat or 'spectator'} sees {leaked[:5]}"
                assert "board_" not in html
    assert st.phase == "over" and 'data-phase="over"' in render(st, None)


def test_the_platforms_seats_table_names_every_per_seat_column_in_both_languages() -> None:
    """The table page's seats panel shows the view's per-seat facts as columns (``key_<fact>``)."""
    from app.games.first_to_fight.text import catalogue

    words = catalogue()
    columns = {k for s in GAME.view(midgame(), "p1")["seats"] for k in s} - {"id", "label"}
    for lang in ("en", "pl"):
        assert not [k for k in columns if f"key_{k}" not in words.messages[lang]], lang
    assert words.text({"id": "key_nurses", "params": {}}, "pl") == "Sanitariuszki"
