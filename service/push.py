"""Pushpin for one node, as the Procfile's `push` process: `python -m service.push`.

Writes Pushpin's config (service/serve.py write_pushpin_config) to a temporary directory and
becomes Pushpin: it listens on HOST:PORT (0.0.0.0:8000), passes requests to gunicorn at
WEB_BACKEND (127.0.0.1:8001), signs them with GRIP_KEY (required: the web processes verify it)
and takes publishes on GRIP_PUBLISH_ADDR:GRIP_PUBLISH_PORT (127.0.0.1:5561), which the node's web
processes and workers name in GRIP_PUBLISH_URL (docs/deployment.md).
"""
from __future__ import annotations

import os
import shutil
import sys
import tempfile
from pathlib import Path

from service.serve import bind_address, write_pushpin_config


def main() -> None:
    key, binary = os.environ.get("GRIP_KEY"), shutil.which("pushpin")
    if not key:
        sys.exit("GRIP_KEY is not set: set the same secret here and in the web processes")
    if not binary:
        sys.exit("pushpin is not installed (Debian/Ubuntu: apt-get install pushpin)")
    listen = bind_address(os.environ.get("HOST", "0.0.0.0"), int(os.environ.get("PORT", "8000")))
    ports = {"push_in": int(os.environ.get("GRIP_PUSH_IN_PORT", "5560")),
             "push_in_sub": int(os.environ.get("GRIP_PUSH_IN_SUB_PORT", "5562")),
             "publish": int(os.environ.get("GRIP_PUBLISH_PORT", "5561")),
             "command": int(os.environ.get("GRIP_COMMAND_PORT", "5563"))}
    conf = write_pushpin_config(Path(tempfile.mkdtemp(prefix="cartel-pushpin-")), listen,
                                os.environ.get("WEB_BACKEND", "127.0.0.1:8001"), key, ports,
                                int(os.environ.get("PUSHPIN_LOG_LEVEL", "1")),
                                os.environ.get("GRIP_PUBLISH_ADDR", "127.0.0.1"))
    os.execv(binary, [binary, "--config", str(conf), "--merge-output"])


if __name__ == "__main__":
    main()
