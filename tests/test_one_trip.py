"""A common-case move costs one database round trip (issue 10, item 2): the cached state answers
what the rules decide and ``warroom_move`` (migration 0013) checks and writes the move under the
row lock in one statement. Everything the cache cannot vouch for takes the ORM path and gets
its precise answer: a stale seq, a spectator, a seat a bot took meanwhile, a retried key,
another process's move; and the log replays to the very hashes it holds.

Round trips are counted where they leave this process: every call of asyncpg's protocol that
sends a message and waits for PostgreSQL's answer (SQLAlchemy's statements, its BEGIN and
COMMIT, and asyncpg used directly all go through it)."""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Any

import pytest
from sqlalchemy import select, text, update

from app.api.deps import SignedIn
from app.api.matches import answered
from app.db import asyncpg_dsn, make_engine, make_sessionmaker
from app.games.protocol import random_bot
from app.models import Action as ActionRow
from app.models import Match, MatchSeat, User
from app.sessions import service, work
from app.sessions.errors import Conflict, Forbidden, Stale
from app.sessions.log_walk import setup, walk
from app.sessions.replay import MatchCache, seats_of, state_hash
from app.sessions.work import MatchWork

# the protocol calls that each cost one exchange with the server
ROUND_TRIPS = {"query", "prepare", "bind_execute", "bind_execute_many", "bind", "execute", "close_statement",
               "close_portal"}


class CountingProtocol:
    """Stands in for an asyncpg connection's protocol and counts its round trips."""

    def __init__(self, inner: Any, trips: list[str]) -> None:
        self._inner, self._trips = inner, trips

    def __getattr__(self, name: str) -> Any:
        attr = getattr(self._inner, name)
        if name not in ROUND_TRIPS:
            return attr

        async def counted(*args: Any, **kwargs: Any) -> Any:
            self._trips.append(name)
            return await attr(*args, **kwargs)

        return counted


@dataclass
class Table:
    sessions: Any
    cache: MatchCache
    work: MatchWork
    match_id: str
    players: dict[str, int]  # seat -> user id
    trips: list[str]
    woken: list[str] = field(default_factory=list)
    rng: random.Random = field(default_factory=lambda: random.Random(7))


@pytest.fixture
async def table(database_url: str) -> AsyncIterator[Table]:
    engine = make_engine(database_url, pool_size=1)
    trips: list[str] = []

    from sqlalchemy import event

    @event.listens_for(engine.sync_engine, "connect")
    def count_trips(dbapi_connection: Any, _record: Any) -> None:
        raw = dbapi_connection.driver_connection
        raw._protocol = CountingProtocol(raw._protocol, trips)

    sessions = make_sessionmaker(engine)
    cache = MatchCache()
    woken: list[str] = []
    tables = MatchWork(cache, woken.append)
    async with sessions() as db:
        async with db.begin():
            users = [User(name=f"one-trip {i}", is_guest=True) for i in range(3)]  # the third only watches
            db.add_all(users)
            await db.flush()
            match = await service.create_match(db, users[0], "qmg", 2, {}, "live")
            for user in users[:2]:
                await service.join(db, user, match.id, None)
        await work.start(tables, db, users[0], match.id)
        players = {s.seat: s.user_id for s in await service.seat_rows(db, match.id)}
        await db.commit()
    yield Table(sessions, cache, tables, match.id, players, trips, woken)
    await engine.dispose()


async def whose_turn(t: Table) -> tuple[int, int, str, list[str]]:
    """(user, seq, decision, choices): a seeded answer to the first required decision."""
    loaded = t.cache.peek(t.match_id)
    if loaded is None:
        async with t.sessions() as db:
            loaded = await t.cache.load(db, await service.get_match(db, t.match_id))
            await db.commit()
    decision = next(d for d in loaded.game.pending(loaded.state) if not d.optional)
    return t.players[decision.seat], loaded.seq, decision.id, list(random_bot(decision, t.rng).choices)


async def move(t: Table, key: str | None = None, **override: Any) -> tuple[service.Submitted, int, bytes]:
    """One answer as POST /actions makes it (the unit of work, then the reply): what it did,
    its round trips, and the reply's body."""
    user, seq, decision, choices = await whose_turn(t)
    args = {"user": user, "seq": seq, "decision": decision, "choices": choices} | override
    before = len(t.trips)
    async with t.sessions() as db:
        done = await work.submit(t.work, db, SignedIn(args["user"]), t.match_id, args["seq"], args["decision"],
                                 args["choices"], key)
        body = await answered(db, t.cache, done)
    return done, len(t.trips) - before, body


async def log_rows(t: Table) -> list[ActionRow]:
    async with t.sessions() as db:
        return list((await db.scalars(select(ActionRow).where(ActionRow.match_id == t.match_id)
                                      .order_by(ActionRow.seq))).all())


async def test_a_common_move_is_one_round_trip_and_notifies(table: Table, database_url: str) -> None:
    import asyncpg

    notices: list[str] = []
    listener = await asyncpg.connect(asyncpg_dsn(database_url))
    await listener.add_listener(service.NOTIFY_CHANNEL, lambda *a: notices.append(a[-1]))
    try:
        first, first_trips, _ = await move(table)  # the ORM path: it reads the seats the next moves trust
        assert first.applied and first_trips > 3
        await move(table)  # the connection prepares warroom_move once
        expected = [f"{table.match_id}:{first.seq}:move", f"{table.match_id}:{first.seq + 1}:move"]
        for _ in range(5):
            done, trips, body = await move(table)
            assert done.applied
            assert trips == 1, table.trips[-trips:]
            assert table.trips[-1] == "bind_execute"
            expected.append(f"{table.match_id}:{done.seq}:move")
            assert body.startswith(f'{{"seq":{done.seq},"view":'.encode())
        for _ in range(100):  # notices come at their own pace, on the listener's connection
            if len(notices) >= len(expected):
                break
            await asyncio.sleep(0.01)
        assert notices == expected
    finally:
        await listener.close()
    async with table.sessions() as db:
        match = await service.get_match(db, table.match_id)
        assert match.seq == done.seq and match.status == "active"
        assert match.waiting_on == table.cache.peek(table.match_id).head.waiting_on  # type: ignore[union-attr]


async def test_the_reply_is_the_action_out_of_the_answering_seat(table: Table) -> None:
    import orjson

    from app.api.schemas import ActionOut
    from app.sessions.views import pending_for, seat_view

    await move(table)
    done, _, body = await move(table)
    reply = orjson.loads(body)
    assert ActionOut.model_validate(reply).model_dump(exclude_none=False)["seq"] == done.seq
    loaded = table.cache.peek(table.match_id)
    assert loaded is not None
    assert reply == {"seq": done.seq, "view": seat_view(loaded, done.seat),
                     "pending": pending_for(loaded, done.seat, "active"), "applied": True}


async def test_a_stale_seq_is_409_and_the_next_move_is_one_trip_again(table: Table) -> None:
    await move(table)
    await move(table)
    user, seq, decision, choices = await whose_turn(table)
    with pytest.raises(Stale):
        await move(table, seq=seq + 1)  # ahead of the table: never applied
    loaded = table.cache.peek(table.match_id)
    assert loaded is not None and loaded.seq == seq  # a refusal before any change keeps the cache
    rows = await log_rows(table)
    assert rows[-1].seq == seq
    done, trips, _ = await move(table)
    assert done.applied and trips == 1


async def test_a_spectator_is_403_through_the_orm_path(table: Table) -> None:
    await move(table)
    async with table.sessions() as db:
        watcher = await db.scalar(select(User.id).where(User.name == "one-trip 2"))
    with pytest.raises(Forbidden) as refused:
        await move(table, user=watcher)
    assert refused.value.ui_key == "err_spectator_acts"


async def test_a_seat_a_bot_took_meanwhile_is_refused_and_nothing_is_written(table: Table) -> None:
    await move(table)
    user, seq, _, _ = await whose_turn(table)
    seat = next(s for s, uid in table.players.items() if uid == user)
    async with table.sessions() as db, db.begin():  # as a hand-over in another process would
        await db.execute(update(MatchSeat).where(MatchSeat.match_id == table.match_id, MatchSeat.seat == seat)
                         .values(bot="random"))
    with pytest.raises(Forbidden) as refused:
        await move(table)
    assert refused.value.ui_key == "err_bot_plays_seat"
    assert (await log_rows(table))[-1].seq == seq
    async with table.sessions() as db:
        assert (await service.get_match(db, table.match_id)).seq == seq


async def test_a_reused_key_answers_the_earlier_seq_and_applies_nothing(table: Table) -> None:
    await move(table)
    done, trips, _ = await move(table, key="k-1")
    assert done.applied
    user, _, decision, choices = await whose_turn(table)
    again, _, body = await move(table, key="k-1", user=done_user(table, done))
    assert not again.applied and again.seq == done.seq
    assert body.startswith(f'{{"seq":{done.seq},'.encode()) and body.endswith(b'"applied":false}')
    assert (await log_rows(table))[-1].seq == done.seq
    other = next(uid for uid in table.players.values() if uid != done_user(table, done))
    with pytest.raises(Conflict):
        await move(table, key="k-1", user=other)


def done_user(t: Table, done: service.Submitted) -> int:
    return t.players[done.seat]


async def test_another_process_moved_the_orm_path_answers_and_the_log_replays(table: Table) -> None:
    await move(table)
    await move(table)
    mover, seq, decision, choices = await whose_turn(table)
    # another process (its own cache) answers first
    elsewhere = MatchCache()
    async with table.sessions() as db:
        await work.submit(MatchWork(elsewhere, lambda _m: None), db, SignedIn(mover), table.match_id, seq, decision,
                          choices, None)
    # this process's cache still stands at ``seq``: the same answer again is stale now
    with pytest.raises(Stale):
        await move(table, user=mover, seq=seq, decision=decision, choices=choices)
    for _ in range(6):
        await move(table)
    await assert_log_replays(table)


async def test_a_long_run_of_moves_replays_to_the_hashes_it_stored(table: Table) -> None:
    for _ in range(60):
        loaded = table.cache.peek(table.match_id)
        if loaded is not None and loaded.head is not None and loaded.head.status != "active":
            break
        await move(table)
    await assert_log_replays(table)


async def assert_log_replays(t: Table) -> None:
    async with t.sessions() as db:
        match = await db.scalar(select(Match).where(Match.id == t.match_id))
        assert match is not None
        seats = seats_of(await service.seat_rows(db, t.match_id))
        rows = await log_rows(t)
        game = service.get_game(match.game)
        assert game is not None
        state = setup(game, dict(match.options), seats, match.seed)
        checked = 0
        for row, after in walk(game, state, match.seed, rows):
            assert row.state_hash == state_hash(game, after), row.seq
            checked += 1
        assert checked == len(rows) == match.seq
        fresh = await MatchCache().load(db, match)
        cached = t.cache.peek(t.match_id)
        if cached is not None:
            assert state_hash(game, fresh.state) == state_hash(game, cached.state)
        assert (await db.execute(text("SELECT count(*) FROM actions WHERE match_id = :m"),
                                 {"m": t.match_id})).scalar() == match.seq


def test_over_http_every_fallback_answers_as_before(server: Any) -> None:
    """Through a real server: after moves in one round trip, a stale seq is a 409 with the state
    to resync, a spectator a 403, a retried key the earlier seq, applying nothing."""
    from tests.conftest import Player, new_table

    alice, bob, carol = (Player(server.url, f"http one-trip {n}") for n in "abc")
    match_id = new_table(alice)
    assert bob.post(f"/api/matches/{match_id}/join").status_code == 200
    assert alice.post(f"/api/matches/{match_id}/start").status_code == 200

    def turn() -> tuple[Player, dict[str, Any], dict[str, Any]]:
        for player in (alice, bob):
            m = player.match(match_id)
            required = [d for d in m["pending"] if not d["optional"]]
            if required:
                return player, m, required[0]
        raise AssertionError("nobody is waited on")

    for _ in range(4):
        player, m, d = turn()
        r = player.act(match_id, d["decision"], d["choices"][0]["id"], m["seq"])
        assert r.status_code == 200, r.text
        assert r.json()["seq"] == m["seq"] + 1 and r.json()["applied"] is True
    player, m, d = turn()
    first = player.act(match_id, d["decision"], d["choices"][0]["id"], m["seq"], key="http-key")
    assert first.status_code == 200 and first.json()["applied"] is True
    again = player.act(match_id, d["decision"], d["choices"][0]["id"], m["seq"], key="http-key")
    assert again.status_code == 200, again.text
    assert again.json()["seq"] == first.json()["seq"] and again.json()["applied"] is False
    assert player.match(match_id)["seq"] == first.json()["seq"]

    player, m, d = turn()
    stale = player.act(match_id, d["decision"], d["choices"][0]["id"], m["seq"] + 1)
    assert stale.status_code == 409, stale.text
    assert stale.json()["seq"] == m["seq"] and stale.json()["pending"]
    watcher = carol.act(match_id, d["decision"], d["choices"][0]["id"], m["seq"])
    assert watcher.status_code == 403, watcher.text
    r = player.act(match_id, d["decision"], d["choices"][0]["id"], m["seq"])
    assert r.status_code == 200 and r.json()["seq"] == m["seq"] + 1


class Probe(Exception):
    """Rolls the probe's transaction back."""


async def bot_step_would_answer(t: Table) -> bool:
    """What the bot driver would do now, asked of a fresh cache in a transaction rolled back."""
    moved = False
    async with t.sessions() as db:
        try:
            async with db.begin():
                moved = await service.bot_step(db, MatchCache(), t.match_id)
                raise Probe
        except Probe:
            pass
    return moved


async def test_the_bot_driver_is_woken_exactly_when_an_answer_is_due(table: Table) -> None:
    """QMG seats pass their reaction windows by default: after a move in one round trip the bot
    driver is woken when (and only when) ``bot_step`` would answer something."""
    await move(table)
    seen = {True: 0, False: 0}
    for _ in range(200):
        if seen[True] >= 3 and seen[False] >= 3:
            break
        loaded = table.cache.peek(table.match_id)
        if loaded is not None and loaded.head is not None and loaded.head.status != "active":
            break
        woken = len(table.woken)
        done, trips, _ = await move(table)
        if trips != 1:
            continue  # the ORM path wakes the driver whenever someone may be answered for
        assert done.has_bots == await bot_step_would_answer(table)
        assert (len(table.woken) > woken) == done.has_bots
        seen[done.has_bots] += 1
    assert seen[True] and seen[False]
