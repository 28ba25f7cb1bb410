"""Clock arithmetic without a database: paces, charging, credit, caps, vacations."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from app.sessions import clock_rules as rules
from app.sessions.clock_rules import DAY_MS, SECOND_MS, ClockError, Pace

T0 = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)
LIVE = Pace("live", 1200 * SECOND_MS, 30 * SECOND_MS, None)
ASYNC = Pace("async", 3 * DAY_MS, DAY_MS, 7 * DAY_MS)


def test_live_pace_from_seconds_and_its_defaults():
    assert rules.parse_pace("live", {"initial_seconds": 1200, "increment_seconds": 30}) == LIVE
    assert rules.parse_pace("live", {}) == LIVE
    assert rules.parse_pace("live", {"initial_seconds": 300}).credit_ms == 30 * SECOND_MS


def test_async_pace_from_days_and_its_defaults():
    assert rules.parse_pace("async", {"initial_days": 3, "per_move_days": 1, "max_days": 7}) == ASYNC
    assert rules.parse_pace("async", {}) == ASYNC
    assert ASYNC.settings() == {"initial_days": 3, "per_move_days": 1, "max_days": 7}


def test_no_clock_object_means_untimed():
    assert rules.parse_pace("live", None) is None
    assert rules.parse_pace("async", None) is None


@pytest.mark.parametrize(("mode", "clock", "field"), [
    ("live", {"initial_days": 3}, "clock.initial_days"),
    ("async", {"increment_seconds": 30}, "clock.increment_seconds"),
    ("live", {"initial_seconds": 5}, "clock.initial_seconds"),
    ("live", {"increment_seconds": -1}, "clock.increment_seconds"),
    ("async", {"initial_days": 5, "max_days": 4}, "clock.max_days"),
    ("async", {"per_move_days": "1"}, "clock.per_move_days"),
    ("live", {"elapsed_ms": 0}, "clock.elapsed_ms"),
])
def test_bad_settings_name_their_field(mode, clock, field):
    with pytest.raises(ClockError) as err:
        rules.parse_pace(mode, clock)
    assert str(err.value).startswith(field + ":")


def test_a_running_clock_is_charged_wall_time():
    assert rules.charged_ms(T0, T0 + timedelta(seconds=90)) == 90 * SECOND_MS
    assert rules.remaining_at(1200 * SECOND_MS, T0, T0 + timedelta(seconds=90)) == 1110 * SECOND_MS


def test_a_stopped_clock_does_not_move():
    assert rules.remaining_at(5000, None, T0 + timedelta(days=30)) == 5000


def test_remaining_never_goes_below_zero():
    assert rules.remaining_at(1000, T0, T0 + timedelta(hours=1)) == 0


def test_time_before_the_clock_started_is_not_charged():
    assert rules.charged_ms(T0, T0 - timedelta(seconds=5)) == 0


def test_live_increment_is_added_without_a_cap():
    assert rules.credited(LIVE, 1110 * SECOND_MS) == (1140 * SECOND_MS, 30 * SECOND_MS)
    assert rules.credited(LIVE, 5000 * SECOND_MS)[0] == 5030 * SECOND_MS


def test_async_credit_is_capped_at_the_maximum_bank():
    assert rules.credited(ASYNC, 2 * DAY_MS) == (3 * DAY_MS, DAY_MS)
    assert rules.credited(ASYNC, int(6.5 * DAY_MS)) == (7 * DAY_MS, DAY_MS // 2)
    assert rules.credited(ASYNC, 7 * DAY_MS) == (7 * DAY_MS, 0)


def test_an_empty_bank_earns_its_credit_again():
    assert rules.credited(ASYNC, 0) == (DAY_MS, DAY_MS)


def test_simultaneous_clocks_are_charged_independently():
    started = {"p1": T0, "p2": T0 + timedelta(seconds=10)}
    now = T0 + timedelta(seconds=60)
    left = {s: rules.remaining_at(1200 * SECOND_MS, since, now) for s, since in started.items()}
    assert left == {"p1": 1140 * SECOND_MS, "p2": 1150 * SECOND_MS}


def test_vacation_time_is_not_charged():
    away = [(T0 + timedelta(days=1), T0 + timedelta(days=3))]
    assert rules.charged_ms(T0, T0 + timedelta(days=4), away) == 2 * DAY_MS
    # a vacation still under way: only the time before it counts
    assert rules.charged_ms(T0, T0 + timedelta(days=2), away) == DAY_MS
    # a vacation over before the clock started counts for nothing
    assert rules.charged_ms(T0 + timedelta(days=5), T0 + timedelta(days=6), away) == DAY_MS


def test_reclaiming_an_empty_bank_grants_one_moves_credit():
    assert rules.reclaim_bank(ASYNC, 0) == DAY_MS
    assert rules.reclaim_bank(LIVE, 0) == rules.MIN_RECLAIM_MS
    assert rules.reclaim_bank(LIVE, 12_000) == 12_000


def test_vacation_days_count_begun_days_and_at_least_one():
    assert rules.vacation_days_charged(T0, T0) == 1
    assert rules.vacation_days_charged(T0, T0 + timedelta(hours=1)) == 1
    assert rules.vacation_days_charged(T0, T0 + timedelta(days=2, minutes=1)) == 3
