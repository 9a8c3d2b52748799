"""Shared bench plumbing: real processes, timing, reporting."""
from __future__ import annotations

import http.client
import json
import statistics
import time
from contextlib import contextmanager
from pathlib import Path

from tests.support.processes import Gunicorn, RedisServer, Worker

RESULTS = Path(__file__).resolve().parent / "results"


@contextmanager
def stack(tmp: Path, web_workers: int = 2, worker: bool = False, web_env: dict | None = None):
    """A redis-server, gunicorn (and optionally an RQ worker) on free loopback ports."""
    redis_server = RedisServer(tmp / "redis")
    (tmp / "redis").mkdir(parents=True, exist_ok=True)
    redis_server.start()
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
        redis_server.stop()


class Http:
    """A keep-alive HTTP/1.1 connection with JSON helpers (lighter than requests, so the
    client costs less of the 2 cores the server also needs)."""

    def __init__(self, base_url: str):
        host, port = base_url.removeprefix("http://").split(":")
        self.connection = http.client.HTTPConnection(host, int(port), timeout=30)

    def call(self, method: str, path: str, body: dict | None = None, headers: dict | None = None):
        payload = json.dumps(body) if body is not None else None
        headers = {**({"Content-Type": "application/json"} if payload else {}), **(headers or {})}
        self.connection.request(method, path, payload, headers)
        response = self.connection.getresponse()
        data = response.read()
        return response.status, (json.loads(data) if data and response.getheader("Content-Type", "").endswith("json")
                                 else data)


def percentile(samples: list[float], p: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


def summarise(latencies: list[float], seconds: float) -> dict:
    return {"requests": len(latencies), "per_second": round(len(latencies) / seconds, 1),
            "p50_ms": round(percentile(latencies, 50) * 1000, 3), "p99_ms": round(percentile(latencies, 99) * 1000, 3),
            "mean_ms": round(statistics.fmean(latencies) * 1000, 3)}


def timed(fn) -> float:
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def report(name: str, rows: list[dict], extra: dict | None = None) -> dict:
    """Write bench/results/<name>.json and .md; print the Markdown table."""
    RESULTS.mkdir(exist_ok=True)
    document = {"bench": name, "rows": rows, **(extra or {})}
    (RESULTS / f"{name}.json").write_text(json.dumps(document, indent=2))
    columns = list(rows[0])
    table = ["| " + " | ".join(columns) + " |", "|" + "---|" * len(columns)]
    table += ["| " + " | ".join(str(row[c]) for c in columns) + " |" for row in rows]
    markdown = f"### {name}\n\n" + "\n".join(table) + "\n"
    (RESULTS / f"{name}.md").write_text(markdown)
    print(markdown, flush=True)
    return document
