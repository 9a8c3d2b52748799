"""Shared bench plumbing: real processes, wrk, timing, reporting."""
from __future__ import annotations

import http.client
import json
import os
import shutil
import statistics
import subprocess
import sys
import time
from contextlib import contextmanager
from pathlib import Path

from tests.support.processes import Gunicorn, RedisServer, Worker

BENCH = Path(__file__).resolve().parent
RESULTS = BENCH / "results"
ROOT = BENCH.parent

# The service's rate limits (service/ratelimit.py) would answer 429 to a bench's
# thousands of requests a minute from one address.  By default the bench keeps
# the limiter on (its cost is part of a command's) with limits no run can reach;
# `--no-rate-limits` turns it off (0) to show what it costs.
UNREACHABLE_LIMITS = {"RATE_LIMIT_PER_ADDRESS": str(10 ** 9), "RATE_LIMIT_PER_TOKEN": str(10 ** 9)}
NO_LIMITS = {"RATE_LIMIT_PER_ADDRESS": "0", "RATE_LIMIT_PER_TOKEN": "0"}


def web_env(rate_limits: bool = True, **extra: str) -> dict:
    return {**(UNREACHABLE_LIMITS if rate_limits else NO_LIMITS), "LOG_LEVEL": "WARNING", **extra}


@contextmanager
def redis_only(tmp: Path):
    """A throwaway redis-server (AOF on, appendfsync everysec, as shipped) on a free loopback port."""
    (tmp / "redis").mkdir(parents=True, exist_ok=True)
    server = RedisServer(tmp / "redis")
    server.start()
    try:
        yield server
    finally:
        server.stop()


@contextmanager
def stack(tmp: Path, web_workers: int = 2, worker: bool = False, web_env: dict | None = None):
    """A redis-server, gunicorn (and optionally an RQ worker) on free loopback ports."""
    with redis_only(tmp) as redis_server:
        web = Gunicorn(redis_server.url, tmp / "gunicorn.log", workers=web_workers, extra_env=web_env)
        processes = [web]
        try:
            web.start()
            if worker:
                processes.append(Worker(redis_server.url, tmp / "worker.log"))
                processes[-1].start()
            yield redis_server, web
        finally:
            for process in reversed(processes):
                process.stop()


class Http:
    """A keep-alive HTTP/1.1 connection with JSON helpers (lighter than requests)."""

    def __init__(self, base_url: str):
        host, port = base_url.removeprefix("http://").split(":")
        self.connection = http.client.HTTPConnection(host, int(port), timeout=30)

    def call(self, method: str, path: str, body: dict | None = None, headers: dict | None = None):
        payload = json.dumps(body) if body is not None else None
        headers = {**({"Content-Type": "application/json"} if payload else {}), **(headers or {})}
        try:
            self.connection.request(method, path, payload, headers)
            response = self.connection.getresponse()
        except (http.client.HTTPException, ConnectionError):  # the server closed a kept-alive connection
            self.connection.close()
            self.connection.request(method, path, payload, headers)
            response = self.connection.getresponse()
        data = response.read()
        if response.getheader("Connection", "").lower() == "close":
            self.connection.close()
        return response.status, (json.loads(data) if data and response.getheader("Content-Type", "").endswith("json")
                                 else data)


# ---------------------------------------------------------------------- wrk

def require_wrk() -> str:
    """wrk's path, or exit saying how to install it."""
    binary = shutil.which("wrk")
    if not binary:
        sys.exit("wrk is not installed; the HTTP benches use it as their load generator.\n"
                 "Install it (Debian/Ubuntu): apt-get install -y wrk   (macOS: brew install wrk)")
    return binary


def run_wrk(url: str, script: Path, args: list[str], connections: int, seconds: float,
            timeout_s: int = 10) -> dict:
    """Run wrk with one thread per connection (so a thread's Lua state drives exactly one
    connection) and return what the script's done() prints as JSON."""
    command = [require_wrk(), "-t", str(connections), "-c", str(connections), "-d", f"{max(1, round(seconds))}s",
               "--timeout", f"{timeout_s}s", "-s", str(script), url, "--", *args]
    completed = subprocess.run(command, capture_output=True, text=True, timeout=seconds + 60)
    line = next((ln for ln in completed.stdout.splitlines() if ln.startswith("BENCH ")), None)
    if completed.returncode != 0 or line is None:
        raise RuntimeError(f"wrk failed ({completed.returncode}):\n{completed.stdout[-2000:]}\n{completed.stderr[-2000:]}")
    result = json.loads(line[len("BENCH "):])
    result["per_second"] = round(result["requests"] / (result["duration_us"] / 1e6), 1)
    return result


# ---------------------------------------------------------------------- CPU

def cpu_seconds(pid: int, children: bool = False) -> float:
    """User + system CPU seconds a process has used (and, with `children`, its live children:
    gunicorn's workers), from /proc (Linux); 0 where /proc is missing."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        spent = (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
        if children:
            kids = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
            spent += sum(cpu_seconds(int(kid)) for kid in kids)
        return spent
    except (OSError, ValueError, IndexError):
        return 0.0


class CpuMeter:
    """CPU the server's processes spend over a run: gunicorn (master and workers) and redis-server.
    On a shared machine throughput swings with the neighbours' load; the CPU a request costs
    does not, so the benches report both."""

    def __init__(self, web, redis_server):
        self.web_pid, self.redis_pid = web.process.pid, redis_server.process.pid

    def read(self) -> tuple[float, float]:
        return cpu_seconds(self.web_pid, children=True), cpu_seconds(self.redis_pid)

    def run(self, fn):
        """fn()'s result with `web_cpu_us` and `redis_cpu_us` per request (fn returns a run_wrk result)."""
        web_before, redis_before = self.read()
        result = fn()
        web_after, redis_after = self.read()
        count = max(1, result.get("completed") or result["requests"])
        result["web_cpu_us"] = round((web_after - web_before) * 1e6 / count, 1)
        result["redis_cpu_us"] = round((redis_after - redis_before) * 1e6 / count, 1)
        return result


# ------------------------------------------------------------------ numbers

def percentile(samples: list[float], p: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


def summarise(latencies: list[float], seconds: float) -> dict:
    return {"requests": len(latencies), "per_second": round(len(latencies) / seconds, 1),
            "p50_ms": round(percentile(latencies, 50) * 1000, 3), "p99_ms": round(percentile(latencies, 99) * 1000, 3),
            "mean_ms": round(statistics.fmean(latencies) * 1000, 3)}


# The clock of `timed` and `rate`: the wall clock, or this process's CPU time (`use_cpu_clock`) for a bench
# that runs in one process without I/O, where on a shared machine the wall clock counts the neighbours' work
CLOCK = time.perf_counter


def use_cpu_clock() -> None:
    global CLOCK
    CLOCK = time.process_time


def timed(fn) -> float:
    start = CLOCK()
    fn()
    return CLOCK() - start


def rate(count: int, fn, min_seconds: float = 0.0) -> tuple[float, int]:
    """(count per second, repetitions) of calling fn(), which handles `count` items, at least once
    and again until min_seconds have passed."""
    repetitions, spent = 0, 0.0
    while True:
        spent += timed(fn)
        repetitions += 1
        if spent >= min_seconds:
            return count * repetitions / spent, repetitions


def ratio(value: float, baseline: float) -> float:
    return round(value / baseline, 3) if baseline else float("nan")


def verdict(value: float, target: float, higher_is_better: bool = True) -> str:
    ok = value >= target if higher_is_better else value <= target
    return f"{'met' if ok else 'MISSED'} ({'≥' if higher_is_better else '≤'} {target})"


# ----------------------------------------------------------------- reporting

def report(name: str, rows: list[dict], extra: dict | None = None, notes: list[str] | None = None) -> dict:
    """Write bench/results/<name>.json and .md; print the Markdown table (and notes)."""
    RESULTS.mkdir(exist_ok=True)
    document = {"bench": name, "rows": rows, **(extra or {}), "notes": notes or [],
                "machine": {"cpus": os.cpu_count(), "python": sys.version.split()[0]},
                "at": time.strftime("%Y-%m-%dT%H:%M:%S%z")}
    (RESULTS / f"{name}.json").write_text(json.dumps(document, indent=2, default=str))
    columns = list(dict.fromkeys(c for row in rows for c in row))
    table = ["| " + " | ".join(columns) + " |", "|" + "---|" * len(columns)]
    table += ["| " + " | ".join(_cell(row.get(c, "")) for c in columns) + " |" for row in rows]
    markdown = f"### {name}\n\n" + "\n".join(table) + "\n"
    if notes:
        markdown += "\n" + "\n".join(f"- {note}" for note in notes) + "\n"
    (RESULTS / f"{name}.md").write_text(markdown)
    print(markdown, flush=True)
    return document


def _cell(value) -> str:
    if isinstance(value, float):
        return f"{value:,.3f}".rstrip("0").rstrip(".") if abs(value) < 100 else f"{value:,.0f}"
    if isinstance(value, int) and not isinstance(value, bool):
        return f"{value:,}"
    return str(value)


__all__ = ["CpuMeter", "cpu_seconds", "Gunicorn", "RedisServer", "Worker", "Http", "stack", "redis_only", "report", "run_wrk", "require_wrk",
           "percentile", "summarise", "timed", "rate", "use_cpu_clock", "ratio", "verdict", "web_env", "ROOT", "RESULTS", "BENCH"]


def wrk_problems(result: dict, applied: int, connections: int, exhausted: str) -> list[str]:
    """What went wrong in a wrk run of game commands: failures, exhausted plans (`exhausted` says what
    that means for the bench), or a count of 200s the store's applied commands do not bear out (each
    connection may have one request in flight when wrk stops)."""
    problems = []
    if result["failed"] or result["plan_exhausted"]:
        problems.append(f"{result['failed']} failed, {result['plan_exhausted']} {exhausted}")
    if not 0 <= applied - result["requests"] <= connections:
        problems.append(f"wrk counted {result['requests']} OK but the store applied {applied}")
    return problems
