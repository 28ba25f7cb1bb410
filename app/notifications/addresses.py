"""Which IP addresses a webhook may go to: public unicast only.

Any player may set a webhook URL, so a URL must never make the server poke its own
network (the database, the cloud metadata service at 169.254.169.254, a router's admin
page). IPv6 forms that carry an IPv4 address inside (IPv4-mapped ``::ffff:a.b.c.d``,
IPv4-compatible ``::a.b.c.d``, NAT64 ``64:ff9b::/96``, 6to4 ``2002::/16``) reach that
IPv4 host through some path, so they are judged by the address they embed.

Pure functions: no DNS, no sockets.
"""

from __future__ import annotations

from dataclasses import dataclass
from ipaddress import IPv4Address, IPv4Network, IPv6Address, IPv6Network, ip_address

Address = IPv4Address | IPv6Address

# the kinds, in the order they are tested; each has a sentence in app.i18n ("address_kind_<kind>")
KINDS = ("unspecified", "loopback", "link_local", "multicast", "shared", "private", "reserved")

_THIS_NETWORK = IPv4Network("0.0.0.0/8")  # "this host on this network": Linux connects 0.0.0.0 to itself
_SHARED = IPv4Network("100.64.0.0/10")  # carrier-grade NAT, RFC 6598: some provider's private network
_PRIVATE_V4 = tuple(IPv4Network(n) for n in ("10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16"))  # RFC 1918

_MAPPED = IPv6Network("::ffff:0:0/96")
_TRANSLATED = IPv6Network("::ffff:0:0:0/96")  # RFC 2765 SIIT
_COMPATIBLE = IPv6Network("::/96")  # deprecated IPv4-compatible form (except :: and ::1)
_NAT64 = IPv6Network("64:ff9b::/96")
_SIX_TO_FOUR = IPv6Network("2002::/16")
_GLOBAL_UNICAST = IPv6Network("2000::/3")  # everything else is special in one way or another
_UNIQUE_LOCAL = IPv6Network("fc00::/7")  # the IPv6 private ranges
_SITE_LOCAL = IPv6Network("fec0::/10")  # deprecated, still routed as private by some networks
_SPECIAL_V6 = tuple(IPv6Network(n) for n in (
    "2001::/23",  # IETF protocol assignments (Teredo, benchmarking, ORCHID...)
    "2001:db8::/32",  # documentation
    "3fff::/20",  # documentation (RFC 9637)
))


@dataclass(frozen=True)
class Verdict:
    """Why an address is not public: its ``kind`` and, for an IPv6 form of an IPv4
    address, the IPv4 address the kind was judged on."""

    kind: str
    embedded: IPv4Address | None = None


def parse(text: str) -> Address | None:
    """An IP literal (a URL's host, a resolver's answer), or None for a name."""
    try:
        return ip_address(text.split("%", 1)[0])  # an IPv6 zone id ("fe80::1%eth0") names no other host
    except ValueError:
        return None


def embedded_ipv4(address: IPv6Address) -> IPv4Address | None:
    """The IPv4 address an IPv6 address stands for, if it is one of the embedding forms."""
    if address in _SIX_TO_FOUR:
        return address.sixtofour
    low32 = IPv4Address(int(address) & 0xFFFF_FFFF)
    if address in _MAPPED or address in _TRANSLATED or address in _NAT64:
        return low32
    if address in _COMPATIBLE and int(address) > 1:  # :: and ::1 are themselves, not 0.0.0.0 and 0.0.0.1
        return low32
    return None


def judge(address: Address) -> Verdict | None:
    """None for a public unicast address; otherwise why it is not one."""
    if isinstance(address, IPv6Address):
        inner = embedded_ipv4(address)
        if inner is not None:
            verdict = _judge_v4(inner)
            return None if verdict is None else Verdict(verdict, inner)
        kind = _judge_v6(address)
    else:
        kind = _judge_v4(address)
    return None if kind is None else Verdict(kind)


def _judge_v4(address: IPv4Address) -> str | None:
    if address in _THIS_NETWORK:
        return "unspecified"
    if address.is_loopback:
        return "loopback"
    if address.is_link_local:
        return "link_local"
    if address.is_multicast:
        return "multicast"
    if address in _SHARED:
        return "shared"
    if any(address in network for network in _PRIVATE_V4):
        return "private"
    if not address.is_global:
        return "reserved"
    return None


def _judge_v6(address: IPv6Address) -> str | None:
    if address.is_unspecified:
        return "unspecified"
    if address.is_loopback:
        return "loopback"
    if address.is_link_local:
        return "link_local"
    if address.is_multicast:
        return "multicast"
    if address in _UNIQUE_LOCAL or address in _SITE_LOCAL:
        return "private"
    if address not in _GLOBAL_UNICAST or any(address in n for n in _SPECIAL_V6) or not address.is_global:
        return "reserved"
    return None
