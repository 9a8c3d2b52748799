"""gunicorn settings (override any with GUNICORN_CMD_ARGS or the command line)."""
import os

bind = f"0.0.0.0:{os.environ.get('PORT', '8000')}"
# gthread: SSE followers hold a thread each, not a whole worker process.
worker_class = os.environ.get("WEB_WORKER_CLASS", "gthread")
workers = int(os.environ.get("WEB_CONCURRENCY", "2"))
threads = int(os.environ.get("WEB_THREADS", "16"))
timeout = 60
graceful_timeout = 10
keepalive = 5
accesslog = os.environ.get("ACCESS_LOG") or None

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
