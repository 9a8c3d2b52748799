"""Run every benchmark: `python3 -m bench` (results in bench/results/, tables on stdout)."""
from __future__ import annotations

from bench import http_commands, version_cost

if __name__ == "__main__":
    http_commands.run()
    version_cost.run()
