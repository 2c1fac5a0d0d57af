"""The browser client is lint-clean: ESLint (eslint.config.js, installed from the repo's
package-lock.json by `npm ci`) over src/paohuzi/server/client, with no error. Skipped only
where node or npx is absent; with node present and ESLint not installed, it fails."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.skipif(
    shutil.which("node") is None or shutil.which("npx") is None, reason="node/npx are not installed"
)
def test_eslint_finds_no_error_in_the_client() -> None:
    assert (ROOT / "node_modules" / ".bin" / "eslint").exists(), "run `npm ci` (devDependencies)"
    res = subprocess.run(
        ["npx", "--no-install", "eslint", "--max-warnings", "0", "src/paohuzi/server/client"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert res.returncode == 0, res.stdout + res.stderr
