"""Per-thread CPU profile of a web process's command requests, for `bench.http_commands`:

    python3 -m bench.http_commands --classes gthread --rulesets kingpin --web-env PYTHONPATH=bench/profiling
    python3 -c "import glob, pstats; s = pstats.Stats(*glob.glob('bench/results/cmdprof-*.pstats')); \
s.sort_stats('cumulative').print_stats(60)"

Python imports `sitecustomize` at start-up from PYTHONPATH, so every gunicorn process started
with it wraps `flask.Flask.wsgi_app`: each request to a `.../commands` path runs under a cProfile
of its thread (clock: `time.thread_time`, the thread's CPU), and every 500 commands the process
writes its threads' profiles together to bench/results/cmdprof-<pid>.pstats.  Nothing else is profiled.
Where the kernel counts thread CPU time by ticks (some virtual machines), time spent in system
calls is attributed coarsely: read shares, not microseconds.
"""
import cProfile
import os
import pstats
import threading
import time
from pathlib import Path

try:
    import flask
except ImportError:  # a process without Flask (redis-server is not Python; wrk is not either)
    flask = None

if flask is not None:
    _wsgi_app = flask.Flask.wsgi_app
    _lock = threading.Lock()
    _profiles: list[cProfile.Profile] = []
    _local = threading.local()
    _commands = [0]
    _results = Path(__file__).resolve().parent.parent / "results"

    def _dump() -> None:
        with _lock:
            profiles = list(_profiles)
        stats = None
        for profile in profiles:
            try:
                one = pstats.Stats(profile)
            except (TypeError, ValueError):  # a thread that has not finished a request yet
                continue
            stats = one if stats is None else stats.add(one)
        if stats is not None:
            _results.mkdir(exist_ok=True)
            stats.dump_stats(str(_results / f"cmdprof-{os.getpid()}.pstats"))

    def wsgi_app(self, environ, start_response):
        if not environ.get("PATH_INFO", "").endswith("/commands"):
            return _wsgi_app(self, environ, start_response)
        profile = getattr(_local, "profile", None)
        if profile is None:
            profile = _local.profile = cProfile.Profile(time.thread_time)
            with _lock:
                _profiles.append(profile)
        profile.enable()
        try:
            return _wsgi_app(self, environ, start_response)
        finally:
            profile.disable()
            _commands[0] += 1
            if _commands[0] % 500 == 0:
                _dump()

    flask.Flask.wsgi_app = wsgi_app
