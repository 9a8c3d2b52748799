"""gunicorn settings (override any with GUNICORN_CMD_ARGS or the command line)."""
import json
import os

from gunicorn import util as gunicorn_util

bind = f"0.0.0.0:{os.environ.get('PORT', '8000')}"
# gthread: commands get the best throughput and p99 of the classes tried (README, Benchmarks).
# An SSE follower holds a thread, but an idle one: it waits on a condition of the process's
# feed hub (events/hub.py), which alone reads Redis.  So each process runs many threads:
# SSE_MAX_FOLLOWERS of them may follow streams, and COMMAND_THREADS are always left for
# everything else (a follower over the limit gets 503 and retries).
worker_class = os.environ.get("WEB_WORKER_CLASS", "gthread")
workers = int(os.environ.get("WEB_CONCURRENCY", "2"))
COMMAND_THREADS = 32
# 1,000 per process, so one node of 2 holds 1,000 followers however the kernel spreads them: it does
# not spread them evenly (bench/sse_fanout.py saw 548 of 1,000 land on one process).  An idle
# follower's thread costs a stack's resident pages, not CPU.
os.environ.setdefault("SSE_MAX_FOLLOWERS", "1000")
threads = int(os.environ.get("WEB_THREADS", str(int(os.environ["SSE_MAX_FOLLOWERS"]) + COMMAND_THREADS)))
worker_connections = max(1000, threads * 2)  # gthread: connections a process holds open
timeout = 60
graceful_timeout = 10
keepalive = 5
# A request line and a header field's limits, under Pushpin's built-in ones: Pushpin's front end (condure)
# closes a connection with no answer at all when a request's URI passes about 4 KB, or its whole head
# its buffer (`client_buffer_size`, 8 KB: service/serve.py); gunicorn's defaults (4094 and 8190) lay
# beyond those, so behind Pushpin its 414 and 431 problem documents were never seen.  Under them,
# gunicorn refuses first and Pushpin passes the document on (tests/e2e/test_pushpin_limits.py).
limit_request_line = 3000
limit_request_field_size = 4096
accesslog = os.environ.get("ACCESS_LOG") or None
# The request path without its query string: a stream ticket (?ticket=) must never reach a log.
access_log_format = '%(h)s %(l)s %(u)s %(t)s "%(m)s %(U)s %(H)s" %(s)s %(b)s "%(a)s" %(L)s'

# Prometheus metrics from several processes: prometheus_client's multiprocess
# mode keeps each process's values in files under PROMETHEUS_MULTIPROC_DIR, and
# /metrics sums them (service/metrics.py).  It must be set before the app is
# imported (in the workers, after this file ran in the master).  Unset, each
# gunicorn gets a fresh private directory, removed when it exits; set it to
# share one with a worker on the same machine, emptied before either starts.
_metrics_dir_made = None
if not (os.environ.get("PROMETHEUS_MULTIPROC_DIR") or os.environ.get("prometheus_multiproc_dir")):
    import tempfile

    _metrics_dir_made = os.environ["PROMETHEUS_MULTIPROC_DIR"] = tempfile.mkdtemp(prefix="cartel-metrics-")


def child_exit(server, worker):
    from prometheus_client import multiprocess
    multiprocess.mark_process_dead(worker.pid)


def on_exit(server):
    if _metrics_dir_made:
        import shutil
        shutil.rmtree(_metrics_dir_made, ignore_errors=True)



# gunicorn refuses some requests before the app sees them and answers with an
# HTML page: a request line over `limit_request_line` (4094 bytes by default, so
# an over-long URI) gets 414, header fields over their limits 431, an unparsable
# request 400.  Every error of this API is application/problem+json, so gunicorn's
# answers are written as problem documents too.  The limits themselves stay: they
# bound the memory one request line or header can take.
def write_problem(sock, status_int, reason, mesg):
    """gunicorn.util.write_error's signature, writing RFC 9457 problem+json with a catalogue code."""
    from service.problems import GUNICORN_PROBLEM_KINDS, title_of, type_uri  # here: this is gunicorn's config

    kind = GUNICORN_PROBLEM_KINDS.get(status_int, "http-error")
    body = json.dumps({"type": type_uri(kind), "code": kind, "title": title_of(kind, status_int, reason),
                       "status": status_int, "detail": mesg or reason}).encode("utf-8")
    head = (f"HTTP/1.1 {status_int} {reason}\r\nConnection: close\r\nContent-Type: application/problem+json\r\n"
            f"Content-Length: {len(body)}\r\n\r\n").encode("latin-1")
    gunicorn_util.write_nonblock(sock, head + body)


# The workers call gunicorn.util.write_error for these answers (gunicorn/workers/base.py handle_error).
gunicorn_util.write_error = write_problem
