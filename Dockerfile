FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 PIP_NO_CACHE_DIR=1 PORT=8000
WORKDIR /app

COPY pyproject.toml README.md requirements.lock ./
COPY rules ./rules
COPY events ./events
COPY service ./service
COPY clients ./clients
COPY docs/rules ./docs/rules
# the locked, hashed dependency tree first, then the package itself without re-resolving
# var/archive: ARCHIVE_DIR's default (archived games), writable by the service's user; mount a volume
# shared by the web and worker containers there, or set ARCHIVE_URL=s3://... (pip install boto3)
RUN pip install --require-hashes -r requirements.lock && pip install --no-deps . && useradd --create-home --uid 10001 cartel \
    && mkdir -p var/archive && chown -R cartel var
USER cartel

EXPOSE 8000
HEALTHCHECK --interval=15s --timeout=3s --start-period=10s --retries=3 \
  CMD python -c "import os, urllib.request; urllib.request.urlopen(f'http://127.0.0.1:{os.environ.get(\"PORT\", \"8000\")}/healthz', timeout=2)"

# The web process; run the worker from the same image with:
#   docker run -e REDIS_URL=... [-e QUEUE_REDIS_URL=...] IMAGE sh -c 'exec rq worker --with-scheduler --url "${QUEUE_REDIS_URL:-$REDIS_URL}" --worker-class service.worker.CartelWorker cartel'
CMD ["sh", "-c", "exec gunicorn -c service/gunicorn_conf.py --bind 0.0.0.0:${PORT} service.wsgi:app"]
