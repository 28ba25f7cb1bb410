"""Webhooks to public hosts only, at the address that was checked.

A URL's host is resolved once per delivery; every address it resolves to must be public
(``addresses.judge``), or nothing is sent: a name that answers with a public and a private
address is someone's trick, not a chat server. The request then goes to one of those very
addresses (the first that accepts a connection), never through a second lookup, so a DNS
answer that changes between the check and the connection (DNS rebinding) reaches nothing
unchecked. The request still names the host: the ``Host`` header carries the URL's host
and port, and TLS sends the host as SNI and checks the certificate against it.

Resolution runs on the event loop's resolver (``loop.getaddrinfo``, in its thread pool),
never blocking the loop; one deadline covers resolving, connecting and the answer.
"""

from __future__ import annotations

import asyncio
import functools
import socket
import ssl
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import httpx

from app.i18n import t
from app.notifications.addresses import Address, Verdict, judge, parse

Resolver = Callable[[str, int], Awaitable[list[Address]]]
SCHEMES = ("http", "https")


class NotPublic(Exception):
    """The URL's host is, or resolves to, an address webhooks must not reach."""

    def __init__(self, host: str, address: Address, verdict: Verdict, resolved: bool) -> None:
        super().__init__(f"{host} {'resolves to' if resolved else 'is'} {address} ({verdict.kind})")
        self.host = host
        self.address = address
        self.verdict = verdict
        self.resolved = resolved


def explain(refusal: NotPublic, lang: str | None = None) -> str:
    """Why the URL is refused, naming the field, in the page's language (or ``lang``)."""
    kind = t(f"address_kind_{refusal.verdict.kind}", lang)
    embedded = refusal.verdict.embedded
    if refusal.resolved:
        key = "webhook_host_resolves" if embedded is None else "webhook_host_resolves_embedded"
    else:
        key = "webhook_address_is" if embedded is None else "webhook_address_embeds"
    # a literal is quoted as it was written: Python spells ::ffff:127.0.0.1 as ::ffff:7f00:1
    address = refusal.address if refusal.resolved else refusal.host
    reason = t(key, lang, host=refusal.host, address=address, embedded=embedded, kind=kind)
    return t("webhook_not_public", lang, reason=reason)


class Refused(Exception):
    """The webhook answered, but not with a success."""


@dataclass(frozen=True)
class Target:
    url: httpx.URL

    @property
    def host(self) -> str:
        """The host as DNS and TLS know it: IDNA-encoded, an IPv6 literal without brackets."""
        return self.url.raw_host.decode("ascii")

    @property
    def port(self) -> int:
        return self.url.port or (443 if self.url.scheme == "https" else 80)

    @property
    def host_header(self) -> str:
        return self.url.netloc.decode("ascii")  # host[:port], never the user:password part


def target(url: str) -> Target:
    """The URL as it will be requested; ValueError when it is no http(s) URL with a host."""
    try:
        parsed = httpx.URL(url)
    except (httpx.InvalidURL, TypeError) as exc:
        raise ValueError("must be an http:// or https:// URL") from exc
    if parsed.scheme not in SCHEMES or not parsed.raw_host:
        raise ValueError("must be an http:// or https:// URL")
    return Target(parsed)


async def system_resolve(host: str, port: int) -> list[Address]:
    """Every address the name has, in the resolver's order (each once)."""
    infos = await asyncio.get_running_loop().getaddrinfo(host, port, type=socket.SOCK_STREAM)
    found: list[Address] = []
    for *_, sockaddr in infos:
        address = parse(str(sockaddr[0]))
        if address is not None and address not in found:
            found.append(address)
    if not found:
        raise OSError(f"{host} has no IP address")
    return found


async def addresses_of(where: Target, resolve: Resolver) -> tuple[list[Address], bool]:
    """The addresses to connect to, and whether DNS gave them (False: an IP literal)."""
    literal = parse(where.host)
    if literal is not None:
        return [literal], False
    return await resolve(where.host, where.port), True


def refuse_non_public(where: Target, found: list[Address], resolved: bool) -> None:
    for address in found:
        verdict = judge(address)
        if verdict is not None:
            raise NotPublic(where.host, address, verdict, resolved)


async def check_url(url: str, timeout: float, resolve: Resolver = system_resolve) -> None:
    """For saving a URL: NotPublic when the host is or resolves to a non-public address.
    A name that does not resolve (now) passes: every delivery checks again anyway."""
    where = target(url)
    try:
        async with asyncio.timeout(timeout):
            found, resolved = await addresses_of(where, resolve)
    except (OSError, TimeoutError):
        return
    refuse_non_public(where, found, resolved)


async def post_json(url: str, payload: dict[str, Any], *, allow_private: bool, connect_timeout: float,
                    total_timeout: float, resolve: Resolver = system_resolve,
                    transport: Callable[[], httpx.AsyncBaseTransport] | None = None) -> None:
    """POST ``payload`` to a checked address of the URL's host, all within ``total_timeout``.
    Raises NotPublic, Refused, httpx.HTTPError, OSError (DNS) or TimeoutError."""
    where = target(url)
    async with asyncio.timeout(total_timeout):
        found, resolved = await addresses_of(where, resolve)
        if not allow_private:
            refuse_non_public(where, found, resolved)
        for address in found[:-1]:
            try:
                return await _post_to(address, where, payload, connect_timeout, transport)
            except (httpx.ConnectError, httpx.ConnectTimeout):
                continue  # the next checked address of the same answer, still no new lookup
        await _post_to(found[-1], where, payload, connect_timeout, transport)


async def _post_to(address: Address, where: Target, payload: dict[str, Any], connect_timeout: float,
                   transport: Callable[[], httpx.AsyncBaseTransport] | None) -> None:
    pinned = where.url.copy_with(host=str(address))
    timeout = httpx.Timeout(None, connect=connect_timeout)  # the caller's deadline bounds the rest
    headers = {"Host": where.host_header, "User-Agent": "Warroom"}
    # one client per request: a pooled connection opened for one host name must never carry another's;
    # a redirect could point the server at an address that was never checked: not followed
    async with (httpx.AsyncClient(transport=(transport or _transport)(), timeout=timeout, trust_env=False,
                                  follow_redirects=False) as client,
                client.stream("POST", pinned, json=payload, headers=headers,
                              extensions={"sni_hostname": where.host}) as response):
        if response.status_code >= 300:
            raise Refused(f"HTTP Error {response.status_code} {response.reason_phrase}")


def _transport() -> httpx.AsyncHTTPTransport:
    return httpx.AsyncHTTPTransport(verify=_tls(), retries=0)


@functools.cache
def _tls() -> ssl.SSLContext:
    return httpx.create_ssl_context()
