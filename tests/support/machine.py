"""What the tests need of the machine beyond Python: Debian packages (pushpin, node and npm) installed
with apt-get when missing and we are root, as the tests' redis-server and chromium are, so the README's
test command works on a fresh machine; and pinned npm tools installed from a committed lock."""
from __future__ import annotations

import fcntl
import os
import shutil
import subprocess
import tempfile
from pathlib import Path

APT_LOCK = Path(tempfile.gettempdir()) / "tabletop-cartel-apt.lock"  # one apt-get at a time across xdist workers


def ensure_command(command: str, package: str) -> str | None:
    """`command`'s path, installing `package` with apt-get first when it is missing (root on Debian only)."""
    if shutil.which(command) or not (shutil.which("apt-get") and os.geteuid() == 0):
        return shutil.which(command)
    with APT_LOCK.open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not shutil.which(command):  # another worker may have installed it while we waited
            env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
            subprocess.run(["apt-get", "update", "-qq"], check=False, env=env, capture_output=True)
            subprocess.run(["apt-get", "install", "-y", "-qq", package], check=True, env=env, capture_output=True)
    return shutil.which(command)


def npm_tools(sources: Path, cache: Path) -> Path:
    """node_modules of the package.json + package-lock.json in `sources`, installed with `npm ci` into
    `cache` (outside the checkout) and reused while the lock is unchanged."""
    assert ensure_command("npm", "npm") and shutil.which("node"), \
        "node and npm are needed (Debian/Ubuntu: apt-get install -y nodejs npm)"
    cache.mkdir(parents=True, exist_ok=True)
    lock = (sources / "package-lock.json").read_text()
    installed = cache / "installed-lock.json"
    if not installed.exists() or installed.read_text() != lock:
        for name in ("package.json", "package-lock.json"):
            shutil.copy(sources / name, cache / name)
        done = subprocess.run(["npm", "ci", "--ignore-scripts", "--no-audit", "--no-fund"], cwd=cache,
                              capture_output=True, text=True, timeout=300)
        assert done.returncode == 0, done.stdout + done.stderr
        installed.write_text(lock)
    return cache / "node_modules"
