"""Administrative step D: strategic bombing (spec §13.1.B; gap G13)."""

from __future__ import annotations

from app.games.total_domination.bombing import targets
from app.games.total_domination.derived import vp
from tests.games.total_domination.admin_kit import answer, logged, pending, run_admin, years_from_germany
from tests.games.total_domination.boards import coastal, home, land, stage


def front(units=(), destroyed=(), options=None, **kw):
    """Britain's capital, the Channel, Germany's capital and the Ruhr (factories), Hamburg (a shipyard),
    Bavaria (no icon); Poland and Belarus (a Soviet home space with a factory) to the east.

        london -sea- channel -sea- hamburg -land- berlin -land- ruhr
                                                 berlin -land- bavaria
                                                 berlin -land- poland -land- minsk (USSR)
    """
    return stage(
        spaces=[home("london", "uk", capital=True, factory=True, shipyard=True), coastal("channel"),
                home("hamburg", "germany", shipyard=True), home("berlin", "germany", shape="land", capital=True,
                                                                 factory=True),
                home("ruhr", "germany", shape="land", stars=2, factory=True), home("bavaria", "germany", shape="land"),
                land("poland"), home("minsk", "ussr", shape="land", factory=True)],
        links=[("london", "channel", "sea"), ("channel", "hamburg", "sea"), ("hamburg", "berlin", "land"),
               ("berlin", "ruhr", "land"), ("berlin", "bavaria", "land"), ("berlin", "poland", "land"),
               ("poland", "minsk", "land")],
        units=units, destroyed=destroyed, options=options, **kw)


def bomb(st, monkeypatch):
    years_from_germany(monkeypatch)
    return run_admin(st, "strategic_bombing")


def test_one_raid_is_enough_to_put_a_destruction_marker_on_a_capital(monkeypatch):
    st = front(units=[("uk", "bomber", "channel"), ("uk", "fleet", "channel")])
    before = vp(st)
    bomb(st, monkeypatch)
    d = pending(st)
    assert len(d) == 1 and d[0].seat == "uk" and d[0].kind == "bombing"
    assert [c.id for c in d[0].choices] == ["berlin", "hamburg", "none"]  # Ruhr is 3 away; Bavaria has no icon
    ctx = answer(st, "berlin")
    assert st.destroyed == ["berlin"] and st.units[0].spent
    assert vp(st) == before  # a marker changes no control and no VP
    assert "strategic_bombing" in logged(ctx) and pending(st) == []


def test_a_powers_bombers_need_different_targets(monkeypatch):
    st = front(units=[("uk", "bomber", "channel"), ("uk", "fleet", "channel")] + [("uk", "bomber", "channel")])
    bomb(st, monkeypatch)
    answer(st, "berlin")
    second = pending(st)[0]
    assert [c.id for c in second.choices] == ["hamburg", "none"]
    answer(st, "hamburg")
    assert st.destroyed == ["berlin", "hamburg"] and all(u.spent for u in st.units if u.kind == "bomber")


def test_a_bomber_spent_on_an_air_strike_this_round_never_bombs(monkeypatch):
    st = front(units=[("uk", "bomber", "channel", True), ("uk", "fleet", "channel")])
    bomb(st, monkeypatch)
    assert pending(st) == [] and st.destroyed == [] and st.stack == []


def test_bombing_is_optional_and_a_declined_bomber_stays_ready(monkeypatch):
    st = front(units=[("uk", "bomber", "channel"), ("uk", "fleet", "channel")])
    bomb(st, monkeypatch)
    ctx = answer(st, "none")
    assert st.destroyed == [] and not st.units[0].spent and "bombing_declined" in logged(ctx)


def test_no_supply_is_needed(monkeypatch):
    # a British bomber with a fleet on a space cut off from every British home space
    st = front(units=[("uk", "bomber", "poland"), ("uk", "army", "poland")])
    assert targets(st, st.units[0]) == ["berlin", "hamburg", "ruhr"]  # 1, 2 and 2 steps: any connection


def test_targets_are_opponent_controlled_home_spaces_with_a_factory_or_shipyard(monkeypatch):
    # Berlin with one Soviet army is nobody's; the Ruhr is Soviet-held; Minsk is an ally's; Bavaria has no icon
    st = front(units=[("ussr", "bomber", "poland"), ("ussr", "army", "poland"), ("ussr", "army", "berlin"),
                      ("ussr", "army", "ruhr")])
    assert targets(st, st.units[0]) == ["hamburg"]


def test_a_space_already_marked_is_no_target(monkeypatch):
    st = front(units=[("uk", "bomber", "channel"), ("uk", "fleet", "channel")], destroyed=["berlin"])
    assert targets(st, st.units[0]) == ["hamburg"]


def test_powers_bomb_in_the_rounds_turn_order(monkeypatch):
    # Germany starts: Germany, UK, Japan, USSR
    st = front(units=[("ussr", "bomber", "poland"), ("ussr", "army", "poland"), ("uk", "bomber", "channel"),
                      ("uk", "fleet", "channel"), ("germany", "bomber", "hamburg")])
    bomb(st, monkeypatch)
    assert pending(st)[0].seat == "germany" and [c.id for c in pending(st)[0].choices] == ["london", "none"]
    answer(st, "london")
    assert pending(st)[0].seat == "uk"
    answer(st, "hamburg")
    assert pending(st)[0].seat == "ussr" and [c.id for c in pending(st)[0].choices] == ["berlin", "ruhr", "none"]
    answer(st, "berlin")
    assert st.destroyed == ["london", "hamburg", "berlin"] and pending(st) == []


def test_without_the_bomber_rule_there_is_no_bombing(monkeypatch):
    st = front(units=[("uk", "bomber", "channel"), ("uk", "fleet", "channel")], options={"bombers": False})
    bomb(st, monkeypatch)
    assert pending(st) == [] and st.stack == []


def test_a_marker_bombed_at_d_stays_through_the_next_round_until_its_step_c(monkeypatch):
    st = front(units=[("uk", "bomber", "channel"), ("uk", "fleet", "channel")])
    years_from_germany(monkeypatch)
    run_admin(st, "remove_destruction", "strategic_bombing", "ready_units")
    answer(st, "hamburg")
    assert st.destroyed == ["hamburg"] and not st.units[0].spent  # E readies the bomber for next round
    run_admin(st, "remove_destruction")  # next round's C: Germany controls Hamburg again
    assert st.destroyed == []


def test_a_raid_waiting_for_its_answer_survives_dump_and_load(monkeypatch):
    import json

    from app.games.total_domination.state import dump, load

    st = front(units=[("uk", "bomber", "channel"), ("uk", "fleet", "channel"), ("uk", "bomber", "channel")])
    bomb(st, monkeypatch)
    answer(st, "berlin")
    copy = load(json.loads(json.dumps(dump(st))))
    assert [c.id for c in pending(copy)[0].choices] == [c.id for c in pending(st)[0].choices]
    answer(st, "hamburg")
    answer(copy, "hamburg")
    assert dump(copy) == dump(st) and st.destroyed == ["berlin", "hamburg"]
