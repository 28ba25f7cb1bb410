"""The socket quota and the flood variables, without a server."""

from __future__ import annotations

import gc
from dataclasses import dataclass

import pytest

from app.sessions.floods import SocketQuota, budget, env_count


@dataclass(eq=False)
class Client:
    host: str


class Socket:
    """Just what the quota reads of a WebSocket: the client's address."""

    def __init__(self, host: str = "203.0.113.9") -> None:
        self.client = Client(host)


@dataclass
class Someone:
    id: int


def test_a_player_holds_at_most_the_cap_and_a_release_frees_a_place() -> None:
    quota = SocketQuota(per_player=2, per_address=1)
    alice, bob = Someone(1), Someone(2)
    first, second, third = Socket(), Socket(), Socket()
    assert quota.acquire(first, alice) is None  # type: ignore[arg-type]
    assert quota.acquire(second, alice) is None  # type: ignore[arg-type]
    refusal = quota.acquire(third, alice)  # type: ignore[arg-type]
    assert refusal is not None and "this player (at most 2)" in refusal
    assert len(refusal.encode()) <= 123  # a WebSocket close reason's limit
    assert quota.acquire(Socket(), bob) is None  # type: ignore[arg-type]
    quota.release(first)
    quota.release(first)  # twice is harmless
    assert quota.acquire(third, alice) is None  # type: ignore[arg-type]
    assert quota.holding("user:1") == 2


def test_anonymous_sockets_count_per_address() -> None:
    quota = SocketQuota(per_player=5, per_address=1)
    held = Socket("203.0.113.1")  # kept referenced: the quota holds sockets weakly
    assert quota.acquire(held, None) is None  # type: ignore[arg-type]
    refusal = quota.acquire(Socket("203.0.113.1"), None)  # type: ignore[arg-type]
    assert refusal is not None and "anonymous visitors at this address" in refusal
    assert len(refusal.encode()) <= 123
    assert quota.acquire(Socket("203.0.113.2"), None) is None  # type: ignore[arg-type]


def test_a_socket_gone_without_release_frees_its_place() -> None:
    quota = SocketQuota(per_player=1, per_address=1)
    lost = Socket()
    assert quota.acquire(lost, Someone(7)) is None  # type: ignore[arg-type]
    del lost
    gc.collect()
    assert quota.acquire(Socket(), Someone(7)) is None  # type: ignore[arg-type]


def test_zero_turns_a_limit_off() -> None:
    quota = SocketQuota(per_player=0, per_address=0)
    kept = [Socket() for _ in range(50)]
    assert all(quota.acquire(s, Someone(1)) is None for s in kept)  # type: ignore[arg-type]
    assert budget("tables", "WARROOM_TEST_UNSET_LIMIT", 0, 60.0) is None


def test_a_limit_variable_must_be_a_whole_number(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("WARROOM_TEST_LIMIT", "12")
    assert env_count("WARROOM_TEST_LIMIT", 3) == 12
    for bad in ("-1", "ten", "1.5", "²"):
        monkeypatch.setenv("WARROOM_TEST_LIMIT", bad)
        with pytest.raises(ValueError, match="WARROOM_TEST_LIMIT"):
            env_count("WARROOM_TEST_LIMIT", 3)
