"""The addresses the server is known by come from its configuration, never a request
(docs/security.md): listen origins, the default public URL, the Origin rule, the flags."""

from __future__ import annotations

import argparse

import pytest

from paohuzi.cli.main import build_parser
from paohuzi.cli.serve import _public_url, run
from paohuzi.server.http.site import (
    default_public_url,
    listen_origins,
    origin_allowed,
    origin_of,
)


def test_listen_origins_of_a_loopback_server_are_loopback_only() -> None:
    got = listen_origins("127.0.0.1", 8000)
    assert got == ("http://127.0.0.1:8000", "http://localhost:8000", "http://[::1]:8000")


def test_a_wildcard_server_is_reachable_by_its_interface_addresses() -> None:
    got = listen_origins("0.0.0.0", 8000)
    assert got[:3] == listen_origins("127.0.0.1", 8000)
    url = default_public_url("0.0.0.0", 8000)
    assert "0.0.0.0" not in url and url.endswith(":8000")  # a QR code a phone can open
    assert origin_of(url) in got


def test_the_origin_rule_never_looks_at_a_host() -> None:
    allowed = ("https://paohuzi.example", "http://127.0.0.1:8000")
    assert origin_allowed(None, allowed)  # not a browser
    assert origin_allowed("https://paohuzi.example", allowed)
    assert origin_allowed("HTTPS://PAOHUZI.EXAMPLE/", allowed)
    assert not origin_allowed("https://evil.example", allowed)
    assert not origin_allowed("http://127.0.0.1:8001", allowed)
    assert origin_allowed("https://anything.example", ("*",))


@pytest.mark.parametrize(
    ("given", "want"),
    [
        ("https://paohuzi.example.com", "https://paohuzi.example.com"),
        ("https://paohuzi.example.com/", "https://paohuzi.example.com"),
        ("http://192.168.1.5:8000/game/", "http://192.168.1.5:8000/game"),
        ("ftp://x.example", None),
        ("paohuzi.example.com", None),
        ("https://x.example/?a=1", None),
        ("https://x.example:99999", None),
    ],
)
def test_public_url_is_checked(given: str, want: str | None) -> None:
    assert _public_url(given) == want


@pytest.mark.parametrize(
    "bad",
    [
        ["--public-url", "nope"],
        ["--trusted-proxies", "proxy.lan"],
        ["--read-rate", "0"],
        ["--handshake-rate", "-1"],
        ["--max-connections", "0"],
    ],
)
def test_bad_hardening_flags_exit_2_before_serving(bad: list[str], tmp_path: object) -> None:
    args: argparse.Namespace = build_parser().parse_args(["serve", "--db", f"{tmp_path}/x", *bad])
    assert run(args) == 2
