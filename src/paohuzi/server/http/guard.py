"""门卫 (ménwèi): the HTTP server defends itself before a request reaches the app.

uvicorn reads a request's headers without a bound of time (httptools: nor of size),
so a socket that drips a header forever, or never finishes it, holds a file
descriptor and a parser for ever (docs/security.md, "Hardening"). :func:`guarded`
wraps uvicorn's HTTP protocol (httptools, else h11) in :class:`Guard`:

- **header size**: more than ``header_bytes`` before the headers end → ``431`` and close;
- **header time**: headers not finished ``header_timeout`` seconds after a request's
  first byte (or the connection's opening) → ``408`` and close;
- **connections per address**: beyond ``per_address`` open connections from one
  address (websockets included: a transport counts until it closes) the new one is
  answered ``429`` and closed at once, before any parsing; configured proxies are
  exempt (their clients are counted by the proxy);
- **connections in all**: beyond ``total`` the new one is closed at once (the file
  descriptors stay for the players already in).
"""

from __future__ import annotations

import asyncio
import ipaddress
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

RESPONSES = {
    408: b"HTTP/1.1 408 Request Timeout\r\n",
    429: b"HTTP/1.1 429 Too Many Requests\r\n",
    431: b"HTTP/1.1 431 Request Header Fields Too Large\r\n",
    503: b"HTTP/1.1 503 Service Unavailable\r\n",
}


@dataclass(frozen=True)
class GuardSettings:
    """The bounds (``paohuzi serve`` flags; docs/security.md)."""

    header_bytes: int = 16 * 1024  # a request line and headers (a browser sends < 2 KB)
    header_timeout: float = 10.0  # seconds from a request's first byte to its headers' end
    per_address: int = 50  # open connections from one address
    total: int = 4000  # open connections in all
    exempt: frozenset[str] = field(default_factory=frozenset)  # trusted proxies


class Registry:
    """The open transports of one server, by peer address."""

    def __init__(self) -> None:
        self.by_address: dict[str, set[Any]] = {}
        self.count = 0

    def admit(self, address: str, transport: Any, settings: GuardSettings) -> int | None:
        """Count ``transport`` in; None, or the status to refuse it with."""
        held = self.by_address.get(address)
        if held is not None:  # transports upgraded to websockets never tell us they closed
            for t in [t for t in held if t.is_closing()]:
                held.discard(t)
                self.count -= 1
        if self.count >= settings.total:
            self._sweep()
            if self.count >= settings.total:
                return 503
        if (
            held is not None
            and len(held) >= settings.per_address
            and address not in settings.exempt
        ):
            return 429
        self.by_address.setdefault(address, set()).add(transport)
        self.count += 1
        return None

    def release(self, address: str, transport: Any) -> None:
        held = self.by_address.get(address)
        if held is not None and transport in held:
            held.discard(transport)
            self.count -= 1
            if not held:
                del self.by_address[address]

    def _sweep(self) -> None:
        for address, held in list(self.by_address.items()):
            for t in [t for t in held if t.is_closing()]:
                self.release(address, t)


class Guard:
    """Mixed in before a uvicorn HTTP protocol class (see :func:`guarded`)."""

    settings: GuardSettings
    registry: Registry
    transport: Any
    client: tuple[str, int] | None

    def _guard_init(self) -> None:
        self._g_address = ""
        self._g_bytes = 0
        self._g_done = False  # the running request's headers are complete
        self._g_timer: asyncio.TimerHandle | None = None
        self._g_refused = False

    def connection_made(self, transport: Any) -> None:
        self._guard_init()
        peer = transport.get_extra_info("peername")
        self._g_address = str(peer[0]) if isinstance(peer, tuple) and peer else "?"
        refuse = self.registry.admit(self._g_address, transport, self.settings)
        if refuse is not None:
            self._g_refused = True
            _refuse(transport, refuse)
            return
        super().connection_made(transport)  # type: ignore[misc]
        self._g_start()

    def connection_lost(self, exc: Exception | None) -> None:
        self._g_stop()
        if self._g_refused:
            return
        self.registry.release(self._g_address, self.transport)
        super().connection_lost(exc)  # type: ignore[misc]

    def data_received(self, data: bytes) -> None:
        if self._g_refused:
            return
        if not self._g_done:
            if self._g_timer is None:
                self._g_start()
            self._g_bytes += len(data)
            if self._g_bytes > self.settings.header_bytes:
                self._g_stop()
                _refuse(self.transport, 431)
                return
        super().data_received(data)  # type: ignore[misc]
        self._g_after_data()

    # -- the headers' life
    def _g_start(self) -> None:
        self._g_stop()
        self._g_done, self._g_bytes = False, 0
        loop = asyncio.get_running_loop()
        self._g_timer = loop.call_later(self.settings.header_timeout, self._g_timeout)

    def _g_stop(self) -> None:
        if getattr(self, "_g_timer", None) is not None:
            assert self._g_timer is not None
            self._g_timer.cancel()
            self._g_timer = None

    def _g_headers_done(self) -> None:
        self._g_done = True
        self._g_stop()

    def _g_next_request(self) -> None:
        """A new request begins on a kept-alive connection: its headers are bounded anew."""
        self._g_done, self._g_bytes = False, 0

    def _g_after_data(self) -> None:
        """h11 has no header callback: ask its state after each read (see H11Guard)."""

    def _g_timeout(self) -> None:
        self._g_timer = None
        if not self._g_done and not self.transport.is_closing():
            _refuse(self.transport, 408)


def _refuse(transport: Any, status: int) -> None:
    head = RESPONSES[status] + b"content-length: 0\r\nconnection: close\r\n\r\n"
    try:
        transport.write(head)
    finally:
        transport.close()


def guarded(settings: GuardSettings, impl: str = "auto") -> type:
    """A uvicorn HTTP protocol class under ``settings`` — ``impl`` ``httptools``, ``h11``
    or ``auto`` (httptools if installed, as uvicorn picks) — with its own registry of
    connections (one per server)."""
    registry = Registry()
    if impl == "h11":
        return _h11_guard(settings, registry)
    try:
        from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
    except ImportError:  # uvicorn without the standard extra
        if impl == "httptools":
            raise
        return _h11_guard(settings, registry)

    class HttpToolsGuard(Guard, HttpToolsProtocol):
        def on_message_begin(self) -> None:
            self._g_next_request()
            if self._g_timer is None:
                self._g_start()
            super().on_message_begin()

        def on_headers_complete(self) -> None:
            self._g_headers_done()
            super().on_headers_complete()

    HttpToolsGuard.settings, HttpToolsGuard.registry = settings, registry
    return HttpToolsGuard


def _h11_guard(settings: GuardSettings, registry: Registry) -> type:
    import h11
    from uvicorn.protocols.http.h11_impl import H11Protocol

    class H11Guard(Guard, H11Protocol):
        def _g_after_data(self) -> None:
            if self.conn.their_state is not h11.IDLE:  # a request's headers are parsed
                self._g_headers_done()
            elif self._g_done and self.conn.trailing_data[0]:
                self._g_next_request()  # a kept-alive connection began its next request
                self._g_start()

    H11Guard.settings, H11Guard.registry = settings, registry
    return H11Guard


def addresses(given: Iterable[str]) -> frozenset[str]:
    """Proxy addresses as given (``--trusted-proxies``), each checked to be an IP."""
    out = set()
    for a in given:
        for part in a.split(","):
            part = part.strip()
            if part:
                out.add(str(ipaddress.ip_address(part)))
    return frozenset(out)


__all__ = ["Guard", "GuardSettings", "Registry", "addresses", "guarded"]
