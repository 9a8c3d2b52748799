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
