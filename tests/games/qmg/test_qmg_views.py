"""Hidden information: views, secrets and the log."""

from __future__ import annotations

import json
import random
import re

from qmg_helpers import card_position, decision, go, make

from app.games.qmg import GAME
from app.games.qmg.data import card

ID = re.compile(r"\b(?:ger|uk|jpn|ussr|ita|usa)-\d\d\b")


def ids_in(payload) -> set[str]:
    return set(ID.findall(json.dumps(payload)))


def test_own_hand_is_visible_only_to_its_seat():
    st = GAME.setup({}, GAME.roles(6, {}), random.Random(2))
    ger_hand = set(st.countries["germany"].hand)
    assert ger_hand <= ids_in(GAME.view(st, "p1"))
    for seat in ("p2", "p3", "p4", "p5", "p6"):
        assert not ger_hand & ids_in(GAME.view(st, seat))
    assert not ger_hand & ids_in(GAME.view(st, None))


def test_counts_are_public():
    st = GAME.setup({}, GAME.roles(6, {}), random.Random(2))
    v = GAME.view(st, "p2")["countries"]["germany"]
    assert v["hand_count"] == 10 and v["deck_count"] == 31 and "hand" not in v
    assert v["armies_available"] == 6 and v["navies_available"] == 3


def test_secrets_cover_decks_and_others_hands_but_not_own_hand():
    st = GAME.setup({}, GAME.roles(2, {}), random.Random(2))
    sec = GAME.secrets(st, "p1")
    assert set(st.countries["germany"].deck) <= sec  # deck order: even the owner may not look
    assert not set(st.countries["germany"].hand) & sec
    assert set(st.countries["uk"].hand) <= sec


def test_no_view_contains_a_secret_of_its_seat():
    st = GAME.setup({}, GAME.roles(4, {}), random.Random(8))
    rng = random.Random(1)
    for _ in range(300):
        for seat in ("p1", "p2", "p3", "p4"):
            assert not ids_in(GAME.view(st, seat)) & GAME.secrets(st, seat)
        if GAME.outcome(st):
            break
        d = GAME.pending(st)[0]
        GAME.apply(st, d.seat, GAME.bot(st, d, rng), random.Random(rng.random()))


def test_face_down_response_name_never_reaches_the_public_log():
    st = card_position({"japan": ["japan"]}, "japan", "jpn_kamikaze")
    ev = go(st, "play:")
    assert "Kamikaze" not in " ".join(e.text for e in ev)
    assert any("Kamikaze" in t for e in ev for t in e.private.values())
    assert list(ev[0].private) == [st.seat_of("japan")]
    others = GAME.view(st, "p1")["countries"]["japan"]
    assert others["responses_count"] == 1 and "responses" not in others


def test_status_cards_and_top_discard_are_public_but_hidden_discards_are_not():
    st = card_position({"germany": ["germany"]}, "germany", "ger_blitzkrieg")
    go(st, "play:")
    v = GAME.view(st, "p2")["countries"]["germany"]
    assert [s["name"] for s in v["statuses"]] == ["Blitzkrieg"]
    st = make({"germany": ["germany"]}, hand={"germany": ["ger_build_army", "ger_plunder"]})
    hidden = st.countries["germany"].hand[1]
    go(st, f"discard:{hidden}")
    assert GAME.view(st, "p2")["countries"]["germany"]["top_discard"] is None
    assert hidden in GAME.secrets(st, "p2") and hidden not in GAME.secrets(st, "p1")


def test_played_card_goes_face_up_on_top_of_the_discard():
    st = card_position({"germany": ["germany"]}, "germany", "ger_plunder")
    go(st, "play:")
    top = GAME.view(st, "p4")["countries"]["germany"]["top_discard"]
    assert top["name"] == "Plunder"


def test_decision_choices_only_in_the_deciding_seats_view():
    st = GAME.setup({}, GAME.roles(6, {}), random.Random(2))
    d = decision(st)
    assert GAME.view(st, d.seat)["decision"]["id"] == d.id
    other = GAME.view(st, "p2")
    assert other["decision"] is None and other["waiting_for"] == {"seat": d.seat, "kind": d.kind}


def test_a_reaction_prompt_does_not_depend_on_which_responses_are_face_down():
    """Japan is asked about an Allied navy build near it whether it holds Kamikaze or another card."""
    base = {"eastern_united_states": ["usa"], "hawaii": ["usa"], "east_pacific": ["usa"],
            "western_united_states": ["usa"], "iwo_jima": ["japan"], "japan": ["japan"]}
    seen = []
    for key in ("jpn_kamikaze", "jpn_banzai_charge"):
        st = card_position(base, "usa", "usa_build_navy", responses={"japan": [key]})
        go(st, "play:", "at:central_pacific")
        seen.append((decision(st).kind, decision(st).seat))
    assert seen[0] == seen[1] == ("react", "p3")


def test_the_view_is_json_compatible_and_names_both_languages():
    st = card_position({"germany": ["germany"]}, "germany", "ger_blitzkrieg")
    v = GAME.view(st, "p1")
    json.dumps(v)
    hand = v["countries"]["germany"]["hand"]
    assert {h["name_pl"] for h in hand} >= {"Blitzkrieg"}
    assert card(st.countries["germany"].hand[0]).name_pl


def test_view_speaks_the_generic_table_conventions():
    """hand / my_* / seats keys and {id, label} cards, as the platform's generic table panels expect."""
    st = GAME.setup({}, GAME.roles(2, {}), random.Random(4))
    v = GAME.view(st, "p1")
    assert len(v["hand"]) == 30 and all({"id", "label"} <= set(c) for c in v["hand"])
    assert v["hand"][0]["label"].startswith("Germany: ")
    assert v["my_responses"] == []
    assert [s["id"] for s in v["seats"]] == ["p1", "p2"]
    assert v["seats"][1]["cards_in_hand"] == 30 and v["seats"][1]["countries"] == "United Kingdom, USSR, USA"
    assert GAME.view(st, None)["hand"] == []


def test_a_seat_with_several_countries_answers_for_each_of_them():
    units = {"italy": ["germany"], "germany": ["germany"], "mediterranean_sea": ["uk"], "western_europe": ["italy"]}
    st = card_position(units, "uk", "uk_land_battle", players=2, responses={"italy": ["ita_monte_cassino"]},
                       statuses={"germany": ["ger_atlantic_wall"]})
    go(st, "play:", "at:italy")
    d = decision(st)
    assert d.kind == "react" and d.seat == "p1"
    labels = [c.label for c in d.choices]
    assert any(lab.startswith("Italy: use Monte Cassino") for lab in labels)
