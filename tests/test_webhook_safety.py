"""Webhooks reach public hosts only, at the address that was checked (issue 7, item 20).

No network and no DNS: addresses are judged as literals, names go through resolver stubs
(only ``localhost`` is resolved for real, from the hosts file), and requests go to a
recording transport or to servers on loopback."""

from __future__ import annotations

import asyncio
import shutil
import ssl
import subprocess
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field
from ipaddress import IPv4Address, ip_address
from pathlib import Path

import httpx
import pytest

from app.i18n import CATALOGUE, LANGS
from app.notifications import webhooks
from app.notifications.addresses import KINDS, Address, Verdict, judge, parse
from app.notifications.channels import DeliveryError, post_webhook
from app.notifications.config import NotifySettings
from app.notifications.messages import Message

PUBLIC = ip_address("93.184.216.34")
PUBLIC_TOO = ip_address("2606:4700:4700::1111")


# --- the classifier ---------------------------------------------------------------------------
@pytest.mark.parametrize(("text", "kind", "embedded"), [
    ("127.0.0.1", "loopback", None),
    ("127.255.0.9", "loopback", None),
    ("::1", "loopback", None),
    ("10.0.0.7", "private", None),
    ("172.16.5.4", "private", None),
    ("192.168.1.1", "private", None),
    ("fd12:3456::1", "private", None),  # IPv6 unique-local
    ("fec0::1", "private", None),  # IPv6 site-local (deprecated)
    ("169.254.169.254", "link_local", None),  # the cloud metadata service
    ("fe80::1", "link_local", None),
    ("fe80::1%eth0", "link_local", None),
    ("224.0.0.1", "multicast", None),
    ("239.1.2.3", "multicast", None),
    ("ff02::1", "multicast", None),
    ("0.0.0.0", "unspecified", None),
    ("0.1.2.3", "unspecified", None),
    ("::", "unspecified", None),
    ("100.64.0.1", "shared", None),  # carrier-grade NAT
    ("100.127.255.254", "shared", None),
    ("240.0.0.1", "reserved", None),
    ("255.255.255.255", "reserved", None),
    ("192.0.2.10", "reserved", None),  # documentation
    ("198.18.0.1", "reserved", None),  # benchmarking
    ("2001:db8::1", "reserved", None),  # documentation
    ("2001::1", "reserved", None),  # Teredo
    ("64:ff9b:1::1", "reserved", None),  # local-use NAT64
    ("100::1", "reserved", None),  # discard-only
    # IPv6 forms of an IPv4 address: judged by the address inside
    ("::ffff:127.0.0.1", "loopback", "127.0.0.1"),  # IPv4-mapped
    ("::ffff:169.254.169.254", "link_local", "169.254.169.254"),
    ("::ffff:0:10.0.0.1", "private", "10.0.0.1"),  # IPv4-translated
    ("::127.0.0.1", "loopback", "127.0.0.1"),  # IPv4-compatible
    ("::10.1.2.3", "private", "10.1.2.3"),
    ("64:ff9b::7f00:1", "loopback", "127.0.0.1"),  # NAT64
    ("64:ff9b::a9fe:a9fe", "link_local", "169.254.169.254"),
    ("64:ff9b::c0a8:101", "private", "192.168.1.1"),
    ("2002:7f00:1::", "loopback", "127.0.0.1"),  # 6to4
    ("2002:a9fe:a9fe::1", "link_local", "169.254.169.254"),
    ("2002:6440:1::", "shared", "100.64.0.1"),
])
def test_non_public_addresses_are_named(text: str, kind: str, embedded: str | None) -> None:
    address = parse(text)
    assert address is not None
    assert judge(address) == Verdict(kind, None if embedded is None else IPv4Address(embedded))


@pytest.mark.parametrize("text", [
    "93.184.216.34", "8.8.8.8", "1.1.1.1", "100.128.0.1", "172.32.0.1", "2606:4700:4700::1111",
    "2a00:1450:4001:81a::200e",
    # IPv6 forms of public IPv4 addresses reach public hosts
    "::ffff:8.8.8.8", "64:ff9b::808:808", "2002:808:808::1",
])
def test_public_addresses_pass(text: str) -> None:
    address = parse(text)
    assert address is not None and judge(address) is None


def test_every_kind_is_worded_in_every_language() -> None:
    assert all(f"address_kind_{kind}" in CATALOGUE[lang] for kind in KINDS for lang in LANGS)


def test_names_are_not_literals() -> None:
    assert parse("hooks.example") is None and parse("2130706433") is None


# --- checking a URL when it is saved ---------------------------------------------------------
def resolver(*answers: list[Address]) -> tuple[Callable[[str, int], Awaitable[list[Address]]], list[str]]:
    """A stub DNS: one answer per call (the last one repeats); records the names asked."""
    asked: list[str] = []

    async def resolve(host: str, _port: int) -> list[Address]:
        asked.append(host)
        return answers[min(len(asked), len(answers)) - 1]

    return resolve, asked


async def refusal(url: str, resolve: Callable[[str, int], Awaitable[list[Address]]] | None = None) -> str | None:
    try:
        await webhooks.check_url(url, 2, **({"resolve": resolve} if resolve else {}))
    except webhooks.NotPublic as exc:
        return webhooks.explain(exc, "en")
    return None


@pytest.mark.parametrize(("url", "message"), [
    ("http://127.0.0.1/hook", "127.0.0.1 is a loopback address"),
    ("https://169.254.169.254/latest/meta-data/", "169.254.169.254 is a link-local address"),
    ("http://[::ffff:127.0.0.1]/", "::ffff:127.0.0.1 is an IPv6 form of 127.0.0.1, a loopback address"),
    ("http://[64:ff9b::7f00:1]/", "64:ff9b::7f00:1 is an IPv6 form of 127.0.0.1, a loopback address"),
    ("http://[2002:7f00:1::]/", "2002:7f00:1:: is an IPv6 form of 127.0.0.1, a loopback address"),
    ("http://[::7f00:1]:8080/", "::7f00:1 is an IPv6 form of 127.0.0.1, a loopback address"),
    ("http://100.64.1.1/", "100.64.1.1 is a shared (carrier-grade NAT) address"),
    ("http://[fd00::5]/", "fd00::5 is a private address"),
    ("http://0.0.0.0:8000/", "0.0.0.0 is an unspecified address"),
    ("http://2130706433/", "2130706433 resolves to 127.0.0.1, a loopback address"),  # inet_aton's decimal form
])
async def test_a_non_public_host_is_refused_when_saved(url: str, message: str) -> None:
    assert await refusal(url) == f"webhook_url: {message}; webhooks go to public hosts only"


async def test_localhost_is_resolved_and_refused() -> None:
    """The one real lookup in these tests: ``localhost`` comes from the hosts file."""
    assert await refusal("http://localhost:8000/hook") in {
        f"webhook_url: localhost resolves to {loopback}, a loopback address; webhooks go to public hosts only"
        for loopback in ("127.0.0.1", "::1")}


async def test_names_are_judged_by_every_address_they_resolve_to() -> None:
    resolve, asked = resolver([PUBLIC, PUBLIC_TOO, ip_address("10.9.8.7")])
    assert await refusal("https://hooks.example/x", resolve) == (
        "webhook_url: hooks.example resolves to 10.9.8.7, a private address; webhooks go to public hosts only")
    assert asked == ["hooks.example"]
    resolve, _ = resolver([PUBLIC, PUBLIC_TOO])
    assert await refusal("https://hooks.example/x", resolve) is None


async def test_public_literals_and_unresolvable_names_are_saved() -> None:
    assert await refusal("https://93.184.216.34/hook") is None
    assert await refusal("https://[2606:4700:4700::1111]/hook") is None

    async def no_such_host(_host: str, _port: int) -> list[Address]:
        raise OSError("Name or service not known")

    assert await refusal("https://discord.example/api/webhooks/1/x", no_such_host) is None, \
        "DNS may be down now: every delivery checks again"


def test_the_refusal_speaks_polish_on_a_polish_page() -> None:
    inner = judge(ip_address("::ffff:127.0.0.1"))
    assert inner is not None
    message = webhooks.explain(webhooks.NotPublic("::ffff:127.0.0.1", ip_address("::ffff:127.0.0.1"), inner,
                                                  resolved=False), "pl")
    assert message == ("webhook_url: ::ffff:127.0.0.1 to zapis IPv6 adresu 127.0.0.1: adres pętli zwrotnej "
                       "(loopback); webhooki trafiają tylko do publicznych hostów")


# --- sending: one lookup, every answer checked, the connection pinned to a checked address ----
@dataclass
class Recorder:
    """A transport that records each request instead of sending it."""

    requests: list[httpx.Request] = field(default_factory=list)
    unreachable: set[str] = field(default_factory=set)  # hosts whose connection is refused
    status: int = 204

    def transport(self) -> httpx.AsyncBaseTransport:
        def handle(request: httpx.Request) -> httpx.Response:
            self.requests.append(request)
            if request.url.host in self.unreachable:
                raise httpx.ConnectError("connection refused", request=request)
            return httpx.Response(self.status)

        return httpx.MockTransport(handle)


async def post(url: str, recorder: Recorder, resolve: Callable[[str, int], Awaitable[list[Address]]],
               allow_private: bool = False) -> None:
    await webhooks.post_json(url, {"content": "hi"}, allow_private=allow_private, connect_timeout=1,
                             total_timeout=3, resolve=resolve, transport=recorder.transport)


async def test_a_delivery_connects_to_the_address_it_checked() -> None:
    """DNS rebinding: the name answers a public address to the check, then a private one.
    There is one lookup only, and the request goes to the address that was checked, still
    naming the host (Host header, TLS SNI and certificate check)."""
    resolve, asked = resolver([PUBLIC], [ip_address("127.0.0.1")])
    recorder = Recorder()
    await post("https://hooks.example:8443/api/x?y=1", recorder, resolve)
    assert asked == ["hooks.example"], "resolved once"
    [request] = recorder.requests
    assert (request.url.scheme, request.url.host, request.url.port) == ("https", str(PUBLIC), 8443)
    assert request.url.raw_path == b"/api/x?y=1"
    assert request.headers["host"] == "hooks.example:8443"
    assert request.extensions["sni_hostname"] == "hooks.example"


async def test_a_name_with_any_private_address_sends_nothing() -> None:
    resolve, asked = resolver([PUBLIC, ip_address("169.254.169.254")])
    recorder = Recorder()
    with pytest.raises(webhooks.NotPublic) as refused:
        await post("https://hooks.example/x", recorder, resolve)
    assert str(refused.value.address) == "169.254.169.254" and refused.value.resolved
    assert recorder.requests == [] and asked == ["hooks.example"]


async def test_an_unreachable_address_falls_back_to_the_next_checked_one_without_a_new_lookup() -> None:
    resolve, asked = resolver([PUBLIC, PUBLIC_TOO])
    recorder = Recorder(unreachable={str(PUBLIC)})
    await post("http://hooks.example/x", recorder, resolve)
    assert [r.url.host for r in recorder.requests] == [str(PUBLIC), str(PUBLIC_TOO)]
    assert all(r.headers["host"] == "hooks.example" for r in recorder.requests)
    assert asked == ["hooks.example"]


async def test_redirects_are_not_followed_and_count_as_failure() -> None:
    resolve, _ = resolver([PUBLIC])
    recorder = Recorder(status=302)
    with pytest.raises(webhooks.Refused, match="HTTP Error 302"):
        await post("https://hooks.example/x", recorder, resolve)
    assert len(recorder.requests) == 1


async def test_a_literal_address_is_checked_at_send_time_too() -> None:
    recorder = Recorder()
    resolve, asked = resolver([PUBLIC])
    with pytest.raises(webhooks.NotPublic):
        await post("http://[64:ff9b::a9fe:a9fe]/latest/meta-data/", recorder, resolve)
    assert recorder.requests == [] and asked == []
    await post("http://[64:ff9b::a9fe:a9fe]/latest/meta-data/", recorder, resolve, allow_private=True)
    assert len(recorder.requests) == 1, "WARROOM_WEBHOOK_ALLOW_PRIVATE lets tests and LAN installs through"


# --- the real transport, on loopback --------------------------------------------------------
@dataclass
class Seen:
    heads: list[str] = field(default_factory=list)
    sni: list[str | None] = field(default_factory=list)


@pytest.fixture
async def tls_receiver(tmp_path: Path) -> AsyncIterator[tuple[int, Seen, ssl.SSLContext]]:
    """An HTTPS server on 127.0.0.1 whose certificate names hooks.example only."""
    if shutil.which("openssl") is None:
        pytest.skip("openssl is needed to make a test certificate")
    cert, key = tmp_path / "cert.pem", tmp_path / "key.pem"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", str(key), "-out",
                    str(cert), "-days", "1", "-subj", "/CN=hooks.example", "-addext",
                    "subjectAltName=DNS:hooks.example"], check=True, capture_output=True)
    seen = Seen()
    server_tls = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    server_tls.load_cert_chain(cert, key)
    server_tls.sni_callback = lambda _sock, name, _ctx: seen.sni.append(name)  # type: ignore[assignment, func-returns-value]

    async def answer(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        seen.heads.append((await reader.readuntil(b"\r\n\r\n")).decode())
        writer.write(b"HTTP/1.1 204 No Content\r\nConnection: close\r\n\r\n")
        await writer.drain()
        writer.close()

    server = await asyncio.start_server(answer, "127.0.0.1", 0, ssl=server_tls)
    client_tls = ssl.create_default_context(cafile=str(cert))
    yield server.sockets[0].getsockname()[1], seen, client_tls
    server.close()
    await server.wait_closed()


async def test_tls_names_the_host_while_connecting_to_the_pinned_address(
        tls_receiver: tuple[int, Seen, ssl.SSLContext]) -> None:
    port, seen, client_tls = tls_receiver
    asked: list[str] = []

    async def send(host: str) -> None:
        resolve, names = resolver([ip_address("127.0.0.1")], [ip_address("10.0.0.1")])
        await webhooks.post_json(f"https://{host}:{port}/hook", {"content": "hi"}, allow_private=True,
                                 connect_timeout=2, total_timeout=5, resolve=resolve,
                                 transport=lambda: httpx.AsyncHTTPTransport(verify=client_tls))
        asked.extend(names)

    await send("hooks.example")
    assert seen.sni == ["hooks.example"] and asked == ["hooks.example"]
    assert f"\r\nHost: hooks.example:{port}\r\n" in seen.heads[0] and seen.heads[0].startswith("POST /hook ")
    # the certificate is checked against the URL's host, not the address connected to
    with pytest.raises(httpx.ConnectError, match="certificate"):
        await send("other.example")


async def test_a_webhook_that_never_answers_is_given_up_within_the_send_timeout() -> None:
    hung: list[asyncio.StreamWriter] = []

    async def never_answer(_reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        hung.append(writer)

    server = await asyncio.start_server(never_answer, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    settings = NotifySettings(smtp=None, public_url="http://x", poll_seconds=1, delay_seconds=1,
                              presence_seconds=1, retry_seconds=1, max_attempts=1, allow_private_webhooks=True,
                              concurrency=1, connect_timeout=0.5, send_timeout=0.6)
    started = time.monotonic()
    try:
        with pytest.raises(DeliveryError, match="no answer within 0.6 s"):
            await post_webhook(f"http://127.0.0.1:{port}/hook", Message("s", "t"), settings)
        assert time.monotonic() - started < 2
        assert hung, "it did connect: the answer is what never came"
    finally:
        for writer in hung:
            writer.close()
        server.close()
        await server.wait_closed()
