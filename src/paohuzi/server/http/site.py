"""站点 (zhàndiǎn): the addresses this server is known by — never taken from a request.

A request's ``Host`` header is whatever the client typed: links and QR codes built
from it may point anywhere, and an Origin check against it trusts the attacker's own
page. So the server is told its addresses: ``--public-url`` (the link players open;
by default ``http://HOST:PORT``) and ``--allow-origin``; with ``--host 0.0.0.0`` the
machine's own interface addresses at the port are allowed too (friends on a LAN).
"""

from __future__ import annotations

import contextlib
import socket
from urllib.parse import urlsplit

LOOPBACK = ("127.0.0.1", "localhost", "[::1]")
WILDCARD = ("0.0.0.0", "::", "")


def origin_of(url: str) -> str:
    """``scheme://host[:port]`` of ``url``, lower-case (a browser's ``Origin``)."""
    u = urlsplit(url)
    return f"{u.scheme}://{u.netloc}".lower()


def default_public_url(host: str, port: int) -> str:
    """``http://HOST:PORT``; for a wildcard host the machine's first interface address
    (what a friend's phone can reach: a QR code of ``0.0.0.0`` would lead nowhere)."""
    if host in WILDCARD:
        found = _interface_addresses()
        host = found[0] if found else "127.0.0.1"
    return f"http://{_bracket(host)}:{port}"


def listen_origins(host: str, port: int) -> tuple[str, ...]:
    """The origins a browser may show for a server listening on ``host:port``."""
    hosts: list[str] = list(LOOPBACK)
    if host in WILDCARD:
        hosts += [_bracket(a) for a in _interface_addresses()]
    elif host not in hosts:
        hosts.append(_bracket(host))
    return tuple(dict.fromkeys(f"http://{h}:{port}".lower() for h in hosts))


def _bracket(a: str) -> str:
    return f"[{a}]" if ":" in a and not a.startswith("[") else a


def _interface_addresses() -> list[str]:
    """This machine's addresses (best effort: the host name's, and the default route's)."""
    found: list[str] = []
    with contextlib.suppress(OSError):
        for info in socket.getaddrinfo(socket.gethostname(), None):
            found.append(str(info[4][0]))
    with contextlib.suppress(OSError), socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        s.connect(("192.0.2.1", 9))  # no packet is sent: this only picks the route
        found.append(str(s.getsockname()[0]))
    return [a for a in dict.fromkeys(found) if not a.startswith(("127.", "::1", "fe80"))]


def origin_allowed(origin: str | None, allowed: tuple[str, ...]) -> bool:
    """A browser's ``Origin`` must be one of ``allowed`` (or ``*`` be); a client without
    an Origin (not a browser: tests, bots, curl) is let in — a browser always sends one
    on a websocket and on a cross-site POST."""
    if origin is None:
        return True
    return "*" in allowed or origin.lower().rstrip("/") in allowed


__all__ = ["default_public_url", "listen_origins", "origin_allowed", "origin_of"]
