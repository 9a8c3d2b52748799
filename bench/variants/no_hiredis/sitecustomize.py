"""redis-py without hiredis, for measuring what hiredis gives (`bench.http_commands`, alternately with and
without it in one run):

    python3 -m bench.http_commands --classes gthread --rulesets kingpin --web-env PYTHONPATH=bench/variants/no_hiredis

Python imports `sitecustomize` at start-up from PYTHONPATH, so every gunicorn process started with it
parses Redis's replies with redis-py's own pure-Python parser, as if hiredis were not installed: the
default parser of every connection made afterwards (service/wiring.py makes them after this runs)."""
import redis.connection
from redis._parsers import _RESP2Parser

redis.connection.DefaultParser = _RESP2Parser
redis.connection.HIREDIS_AVAILABLE = False
