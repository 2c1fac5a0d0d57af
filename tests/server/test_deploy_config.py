"""The reverse-proxy config docs/deploy.md ships: nginx accepts it (``nginx -t``).

Skipped, saying so, where nginx is not installed (.ci/system-deps installs it).
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

CONF = Path(__file__).resolve().parents[2] / "deploy" / "nginx.conf"


def test_the_shipped_nginx_config_passes_nginx_t(tmp_path: Path) -> None:
    nginx = shutil.which("nginx") or next(
        (p for p in ("/usr/sbin/nginx", "/usr/local/sbin/nginx") if Path(p).exists()), None
    )
    if nginx is None:
        pytest.skip("nginx is not installed (apt-get install nginx-light)")
    (tmp_path / "logs").mkdir()
    out = subprocess.run(
        [nginx, "-t", "-p", str(tmp_path), "-c", str(CONF), "-e", str(tmp_path / "error.log")],
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert out.returncode == 0, out.stderr
    assert "syntax is ok" in out.stderr and "test is successful" in out.stderr


def test_the_config_routes_websockets_with_upgrade_headers() -> None:
    text = CONF.read_text()
    ws = text[text.index("location /ws/") :]
    assert "proxy_set_header Upgrade $http_upgrade;" in ws
    assert "proxy_set_header Connection $connection_upgrade;" in ws
    assert "hash $paohuzi_room consistent;" in text  # a room's requests go to one node
