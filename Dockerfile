FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 PIP_NO_CACHE_DIR=1 PORT=8000
WORKDIR /app

COPY pyproject.toml README.md requirements.lock ./
COPY rules ./rules
COPY events ./events
COPY service ./service
COPY clients ./clients
COPY docs/rules ./docs/rules
# Pushpin (Debian's package, with condure and zurl) holds the live streams in front of gunicorn
RUN apt-get update && apt-get install -y --no-install-recommends pushpin && rm -rf /var/lib/apt/lists/*
# the locked, hashed dependency tree first, then the package itself without re-resolving
# var/archive: ARCHIVE_DIR's default (archived games), writable by the service's user; mount a volume
# shared by the web and worker containers there, or set ARCHIVE_URL=s3://... (pip install boto3)
RUN pip install --require-hashes -r requirements.lock && pip install --no-deps . && useradd --create-home --uid 10001 cartel \
    && mkdir -p var/archive && chown -R cartel var
USER cartel

EXPOSE 8000
HEALTHCHECK --interval=15s --timeout=3s --start-period=10s --retries=3 \
  CMD python -c "import os, urllib.request; urllib.request.urlopen(f'http://127.0.0.1:{os.environ.get(\"PORT\", \"8000\")}/healthz', timeout=2)"

# A node: Pushpin on $PORT, gunicorn behind it on loopback, one worker (python -m service.serve; set
# REDIS_URL, else it would start a Redis of its own).  More workers from the same image with:
#   docker run -e REDIS_URL=... [-e QUEUE_REDIS_URL=...] IMAGE sh -c 'exec rq worker --with-scheduler --url "${QUEUE_REDIS_URL:-$REDIS_URL}" --worker-class service.worker.CartelWorker cartel'
# Several nodes: give each GRIP_PUBLISH_ADDR/GRIP_PUBLISH_PORT reachable by the others and list the
# others' publish URLs in GRIP_PUBLISH_URL (docs/deployment.md, "Live streams: Pushpin").
CMD ["sh", "-c", "exec python -m service.serve --host 0.0.0.0 --port ${PORT}"]
