"""Where the suite's CPU goes (issue 23): `python3 -m pytest -n 4 -p tests.support.cpu_profile` writes,
per xdist worker, each test file's CPU seconds to $CPU_PROFILE_DIR (default .cpu-profile/), and
`python3 -m tests.support.cpu_profile` sums them, largest first.

On two cores the suite is bound by CPU, not by waits: its wall time is about its CPU time over two,
so what is worth cutting is what burns CPU.  A test's CPU here is what its worker process and every
process under it (redis-server, gunicorn and its workers, RQ workers, Pushpin, Chromium, node) used
while it ran, setup and teardown included: read from /proc at each test's start and end, so a
process started by a module fixture and shared by the file's tests is charged to the tests in
which it worked.  Off unless the plugin is named: nothing here runs in the default suite."""
from __future__ import annotations

import json
import os
import sys
from collections import Counter
from pathlib import Path

import pytest

TICKS = os.sysconf("SC_CLK_TCK")
DIRECTORY = Path(os.environ.get("CPU_PROFILE_DIR", ".cpu-profile"))


def _stat(pid: int) -> tuple[int, float]:
    """(parent pid, CPU seconds of the process and of its children it has reaped)."""
    text = Path(f"/proc/{pid}/stat").read_text()
    fields = text[text.rindex(")") + 2:].split()  # after "pid (comm) "
    utime, stime, cutime, cstime = (int(x) for x in fields[11:15])
    return int(fields[1]), (utime + stime + cutime + cstime) / TICKS


def tree_cpu(root: int) -> float:
    """CPU seconds of `root` and every live process under it (with what each reaped)."""
    parents, cpu = {}, {}
    for entry in os.scandir("/proc"):
        if entry.name.isdigit():
            try:
                parents[int(entry.name)], cpu[int(entry.name)] = _stat(int(entry.name))
            except (OSError, ValueError, IndexError):
                continue
    total, frontier = 0.0, [root]
    children: dict[int, list[int]] = {}
    for pid, parent in parents.items():
        children.setdefault(parent, []).append(pid)
    while frontier:
        pid = frontier.pop()
        total += cpu.get(pid, 0.0)
        frontier.extend(children.get(pid, []))
    return total


class CpuProfile:
    def __init__(self) -> None:
        self.by_file: Counter = Counter()
        self.started = tree_cpu(os.getpid())

    @pytest.hookimpl(hookwrapper=True)
    def pytest_runtest_protocol(self, item, nextitem):
        before = tree_cpu(os.getpid())
        yield
        self.by_file[item.location[0]] += tree_cpu(os.getpid()) - before

    def pytest_sessionfinish(self, session):
        DIRECTORY.mkdir(exist_ok=True)
        # imports, collection and whatever ran between tests (session fixtures' teardown is after this)
        self.by_file["(outside any test)"] = tree_cpu(os.getpid()) - self.started - sum(self.by_file.values())
        worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
        (DIRECTORY / f"{worker}.json").write_text(json.dumps(self.by_file))


def pytest_configure(config):
    if not hasattr(config, "workerinput") and config.getoption("numprocesses", None):
        return  # the xdist controller runs no tests: its workers profile themselves
    config.pluginmanager.register(CpuProfile(), "cpu-profile")


def main() -> None:
    total: Counter = Counter()
    for path in DIRECTORY.glob("*.json"):
        total.update(json.loads(path.read_text()))
    whole = sum(total.values())
    print(f"{whole:.0f} CPU seconds in {len(total)} files")
    for name, seconds in total.most_common(int(sys.argv[1]) if len(sys.argv) > 1 else 40):
        print(f"{seconds:8.1f}  {seconds / whole:6.1%}  {name}")


if __name__ == "__main__":
    main()
