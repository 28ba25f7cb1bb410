"""The pure rules behind accounts: names, their look-alike skeletons, passwords, login limits,
and the per-worker cache of live sessions."""

from __future__ import annotations

import pytest

from app.sessions import passwords
from app.sessions.accounts import LoginLimits
from app.sessions.limits import RateLimit, TooMany
from app.sessions.names import NameRefused, normalise, skeleton
from app.sessions.signins import SessionChecks

# --------------------------------------------------------------------------- names
HIDDEN = ["\u202e", "\u202a", "\u2066", "\u2069", "\u200e", "\u200f", "\u200b", "\u200c", "\u200d",
          "\u2060", "\ufeff", "\x00", "\x07", "\t", "\n", "\u00ad", "\ue000", "\u2028"]


@pytest.mark.parametrize("char", HIDDEN, ids=[f"U+{ord(c):04X}" for c in HIDDEN])
def test_invisible_and_control_characters_are_refused_naming_the_code_point(char: str) -> None:
    with pytest.raises(NameRefused) as refused:
        normalise(f"Ola{char}f")
    assert refused.value.kind == "name_invisible" and f"U+{ord(char):04X}" in refused.value.message


def test_names_are_nfkc_trimmed_and_single_spaced() -> None:
    assert normalise("  Ｍａｒｔａ\u3000\u00a0 Kowalska ") == "Marta Kowalska"
    assert normalise("ﬁlip") == "filip"


@pytest.mark.parametrize("name", ["\u0301abc", "a\u0301\u0302\u0303\u0304", "ab\u0301\u0302\u0303" * 2 + "\u0300"])
def test_piled_up_combining_marks_are_refused(name: str) -> None:
    with pytest.raises(NameRefused) as refused:
        normalise(name)
    assert refused.value.kind == "name_marks"


@pytest.mark.parametrize("name", ["Nguyễn Thị", "प्रियंका", "Łucja", "Zoë", "Jürgen", "ผู้เล่น"])
def test_real_names_with_accents_and_marks_pass(name: str) -> None:
    assert normalise(name) == name


@pytest.mark.parametrize("look_alike", ["marta", "MARTA", "Маrta", "Mаrtа", "M a r t a", "Márta", "Ⓜarta",
                                        "Marta.", "Ｍarta"])
def test_look_alikes_share_a_skeleton(look_alike: str) -> None:
    assert skeleton(look_alike) == skeleton("Marta")


def test_i_l_1_and_rn_m_fold_together_but_different_names_do_not() -> None:
    assert skeleton("Ivan") == skeleton("lvan") == skeleton("1van")
    assert skeleton("Arnold") == skeleton("Amold")
    assert skeleton("Marta") != skeleton("Marek")
    assert skeleton("!!!") != skeleton("???")


# --------------------------------------------------------------------------- passwords
@pytest.mark.parametrize("common", ["12345678", "password", "Password1", "QWERTY123", "iloveyou", "zaq12wsx",
                                    "haslo123", "1q2w3e4r5t"])
def test_common_passwords_are_refused(common: str) -> None:
    with pytest.raises(passwords.PasswordRefused) as refused:
        passwords.check(common, "Somebody")
    assert refused.value.kind == "password_common"


@pytest.mark.parametrize("password", ["grzegorz", "GRZEGORZ", "grzegorz1!", "my-grzegorz-pw", "janbrzechwa9"])
def test_the_name_or_a_password_containing_it_is_refused(password: str) -> None:
    name = "Jan Brzechwa" if password.startswith("jan") else "Grzegorz"
    with pytest.raises(passwords.PasswordRefused) as refused:
        passwords.check(password, name)
    assert refused.value.kind == "password_has_name"


def test_a_two_letter_name_only_refuses_itself() -> None:
    passwords.check("alright then", "Al")
    with pytest.raises(passwords.PasswordRefused):
        passwords.check("AL", "Al")


def test_the_shipped_list_is_a_few_hundred_entries() -> None:
    assert 300 <= len(passwords.common_passwords()) <= 5000


async def test_hashing_runs_in_a_thread_and_verifies() -> None:
    stored = await passwords.hash_password("a fine long passphrase")
    assert stored.startswith("$argon2")
    assert await passwords.verify(stored, "a fine long passphrase")
    assert not await passwords.verify(stored, "another passphrase")
    assert not await passwords.verify(None, "a fine long passphrase")


# --------------------------------------------------------------------------- login limits
class FakeClock:
    def __init__(self) -> None:
        self.t = 1000.0

    def __call__(self) -> float:
        return self.t


def limits(clock: FakeClock) -> LoginLimits:
    return LoginLimits(RateLimit("login attempts from this address", 1 / 60, 5, now=clock),
                       RateLimit("login attempts for this account", 1 / 60, 3, now=clock))


def test_an_address_is_refused_after_its_burst_with_the_wait_named() -> None:
    clock = FakeClock()
    guard = limits(clock)
    for i in range(5):
        guard.attempt(f"name{i}", "10.0.0.1")
    with pytest.raises(TooMany) as refused:
        guard.attempt("name9", "10.0.0.1")
    assert refused.value.retry_after == 60 and "try again in 60 s" in refused.value.error
    guard.attempt("name9", "10.0.0.2")
    clock.t += 60
    guard.attempt("name9", "10.0.0.1")


def test_a_flooded_account_admits_only_addresses_it_has_signed_in_from() -> None:
    guard = limits(FakeClock())
    guard.attempt("owner", "10.0.0.9")  # every attempt counts, the owner's first from an address too
    guard.succeeded("owner", "10.0.0.9")
    for i in range(2):
        guard.attempt("owner", f"10.1.0.{i}")
    with pytest.raises(TooMany) as refused:
        guard.attempt("owner", "10.2.0.1")
    assert "for this account" in refused.value.error
    guard.attempt("owner", "10.0.0.9")  # the owner's own address still gets through


# --------------------------------------------------------------------------- session checks
class CountingChecks(SessionChecks):
    """SessionChecks over a dict instead of the database, counting look-ups."""

    def __init__(self, live: dict[str, int], clock: FakeClock, ttl: float = 5) -> None:
        super().__init__(sessions=None, ttl=ttl, now=clock)  # type: ignore[arg-type]
        self.live = live
        self.lookups = 0

    async def _look_up(self, key: str) -> int | None:
        self.lookups += 1
        from app.sessions.signins import digest

        return next((uid for sid, uid in self.live.items() if digest(sid) == key), None)


async def test_a_live_session_is_looked_up_once_per_ttl() -> None:
    clock = FakeClock()
    checks = CountingChecks({"s1": 7}, clock)
    assert await checks.holds("s1", 7) and await checks.holds("s1", 7)
    assert checks.lookups == 1
    assert not await checks.holds("s1", 8), "a session belongs to one user"
    clock.t += 5
    del checks.live["s1"]  # revoked by another worker
    assert not await checks.holds("s1", 7)
    assert checks.lookups == 2


async def test_the_revoking_worker_refuses_at_once_and_for_good() -> None:
    clock = FakeClock()
    checks = CountingChecks({"a": 1, "b": 1, "c": 2}, clock)
    for sid, uid in (("a", 1), ("b", 1), ("c", 2)):
        assert await checks.holds(sid, uid)
    checks.forget("a")
    assert not await checks.holds("a", 1)
    checks.forget_user(1, keep="b")
    assert await checks.holds("b", 1) and await checks.holds("c", 2)
    checks.forget_user(1)
    assert not await checks.holds("b", 1)
    clock.t += 3600
    checks.live["b"] = 1  # a refused session never comes back, even after the ttl
    assert not await checks.holds("b", 1)


@pytest.mark.asyncio
async def test_password_hashing_runs_off_the_event_loop_a_few_at_a_time(monkeypatch):
    """argon2 costs ~0.2 s of CPU a hash: on the event loop a burst of logins would hold every
    other request up. Every hash and check runs in a worker thread, at most
    WARROOM_PASSWORD_HASHES (default 2) at once."""
    import asyncio
    import threading

    from app.sessions import passwords

    loop_thread = threading.get_ident()
    threads: list[int] = []
    running = [0]
    most = [0]
    gate = threading.Lock()

    class Recording:
        def _work(self) -> None:
            with gate:
                running[0] += 1
                most[0] = max(most[0], running[0])
            threads.append(threading.get_ident())
            threading.Event().wait(0.05)
            with gate:
                running[0] -= 1

        def hash(self, password: str) -> str:
            self._work()
            return "$argon2id$fake"

        def verify(self, stored: str, password: str) -> bool:
            self._work()
            return True

    monkeypatch.setattr(passwords, "_hasher", Recording())
    passwords._slots.cache_clear()
    try:
        await asyncio.gather(*(passwords.hash_password("correct horse battery") for _ in range(4)),
                             *(passwords.verify("$argon2id$fake", "correct horse battery") for _ in range(4)))
    finally:
        passwords._slots.cache_clear()
    assert len(threads) == 8 and loop_thread not in threads
    assert most[0] <= 2
