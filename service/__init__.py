"""The HTTP service: Flask app factory, blueprints, errors, auth, SSE, RQ jobs."""
from __future__ import annotations

import os
from typing import Any, Mapping

from flask import Flask

API_TITLE = "Tabletop Cartel"
API_VERSION = "1.0.0"


def create_app(config: Mapping[str, Any] | None = None) -> Flask:
    """Build the app.  `config` may carry REDIS_URL, QUEUE_REDIS_URL, RULESETS (tests), ..."""
    from rules import RULESETS
    from service.api import BLUEPRINTS
    from service.api.base import CartelApi
    from service.api.invitations import install as install_gate
    from service.api.web import blp as web_blp
    from service.bodies import StrictJSONProvider
    from service.cors import install as install_cors
    from service.errors import register_error_handlers
    from service.identity import check_app_key
    from service.ratelimit import install as install_rate_limits
    from service.wiring import build_engine

    app = Flask(__name__)
    app.json = StrictJSONProvider(app)
    app.config.update(
        API_TITLE=API_TITLE,
        API_VERSION=API_VERSION,
        OPENAPI_VERSION="3.0.3",
        OPENAPI_URL_PREFIX="/",
        OPENAPI_JSON_PATH="openapi.json",
        MAX_CONTENT_LENGTH=int(os.environ.get("MAX_BODY_BYTES", 64 * 1024)),
        REPLAY_MAX_BYTES=int(os.environ.get("REPLAY_MAX_BYTES", 32 * 1024 * 1024)),
        SSE_MAX_SECONDS=int(os.environ.get("SSE_MAX_SECONDS", 300)),
        # a comment line on an idle stream this often; the XREAD blocking in between may exceed
        # redis-py's default 5 s socket timeout (the engine gives blocking reads their own)
        SSE_HEARTBEAT_SECONDS=float(os.environ.get("SSE_HEARTBEAT_SECONDS", 15)),
        # a stream held by Pushpin that was sent nothing this long asks for anything it missed (grip.hold_headers)
        GRIP_RECOVER_SECONDS=int(os.environ.get("GRIP_RECOVER_SECONDS", 60)),
        CORS_ORIGINS=os.environ.get("CORS_ORIGINS", "*"),  # service/cors.py
        STREAM_TICKET_SECONDS=int(os.environ.get("STREAM_TICKET_SECONDS", 60)),
        # SSE followers one process serves at once (each holds a thread, waiting on the process's
        # feed hub); beyond it a new stream gets 503, so commands always find a thread
        SSE_MAX_FOLLOWERS=int(os.environ.get("SSE_MAX_FOLLOWERS", 500)),
        # players' streams without Pushpin, each holding a Redis connection while it waits (service/api/my_stream.py)
        MY_STREAM_MAX_FOLLOWERS=int(os.environ.get("MY_STREAM_MAX_FOLLOWERS", 80)),
        # requests a minute; 0 turns a limit off
        RATE_LIMIT_PER_ADDRESS=int(os.environ.get("RATE_LIMIT_PER_ADDRESS", 3000)),
        RATE_LIMIT_PER_TOKEN=int(os.environ.get("RATE_LIMIT_PER_TOKEN", 1200)),
        # a quiet client may send this many seconds' worth of its rate at once (service/ratelimit.py)
        RATE_LIMIT_BURST_SECONDS=float(os.environ.get("RATE_LIMIT_BURST_SECONDS", 10)),
        # the chat (service/api/chat.py): messages a minute per seat token (per address for spectators; 0 = no
        # limit), the burst a quiet one may send at once, and how long a channel is kept after its last message
        # (past ABANDON_AFTER_SECONDS + ARCHIVE_AFTER_SECONDS, so an ended game's chat can be exported)
        CHAT_PER_MINUTE=int(os.environ.get("CHAT_PER_MINUTE", 20)),
        CHAT_BURST=int(os.environ.get("CHAT_BURST", 5)),
        CHAT_KEEP_SECONDS=int(os.environ.get("CHAT_KEEP_SECONDS", 8 * 24 * 3600)),
        # analyses (service/analysis.py): how long a request waits for its search before answering 202, how long
        # a search's result is kept (the cache), and the searches a minute one token (or address) may start
        ANALYSIS_WAIT_SECONDS=float(os.environ.get("ANALYSIS_WAIT_SECONDS", 3)),
        ANALYSIS_KEEP_SECONDS=int(os.environ.get("ANALYSIS_KEEP_SECONDS", 24 * 3600)),
        ANALYSIS_PER_MINUTE=int(os.environ.get("ANALYSIS_PER_MINUTE", 10)),
        ANALYSIS_BURST=int(os.environ.get("ANALYSIS_BURST", 5)),
        # a creator may choose the seed (tests, tournaments): off, since whoever chooses it foresees every roll
        ALLOW_FIXED_SEEDS=os.environ.get("ALLOW_FIXED_SEEDS", "") in ("1", "true", "yes"),
        # how long a new game waits for its human seats' entropy (POST /v1/games contribution_seconds)
        CONTRIBUTION_SECONDS=int(os.environ.get("CONTRIBUTION_SECONDS", 30)),
        # players (service/identity.py): the operator's key for a platform acting for its users server to server
        # (unset: no app key), the requests a minute an app may send for one of its players, and how long an
        # invitation to a seat of an unlisted or private table works
        PLATFORM_APP_KEY=os.environ.get("PLATFORM_APP_KEY") or None,
        RATE_LIMIT_PER_PLAYER=int(os.environ.get("RATE_LIMIT_PER_PLAYER", 1200)),
        INVITATION_SECONDS=int(os.environ.get("INVITATION_SECONDS", 7 * 24 * 3600)),
        CHALLENGE_SECONDS=int(os.environ.get("CHALLENGE_SECONDS", 24 * 3600)),
        API_SPEC_OPTIONS={
            "info": {"description": "Play drug-trade board games over HTTP: create games, send commands, follow the "
                                    "live event feed, export and verify histories. Errors are "
                                    "application/problem+json.",
                     "license": {"name": "MIT", "url": "https://opensource.org/licenses/MIT"}},
            # relative: the host that serves /openapi.json (python3 -m service.serve: http://127.0.0.1:8000)
            "servers": [{"url": "/", "description": "This server"}],
            "components": {"securitySchemes": {
                "seatToken": {"type": "http", "scheme": "bearer",
                              "description": "The seat token issued at creation or claim"},
                "playerKey": {"type": "http", "scheme": "bearer",
                              "description": "A player key ('cp_...') from POST /v1/players"},
                "appKey": {"type": "http", "scheme": "bearer",
                           "description": "The operator's app key (PLATFORM_APP_KEY), acting for the player its "
                                          "X-Cartel-Player header names by their external_id"}}},
        },
    )
    app.config.update(config or {})
    check_app_key(app.config.get("PLATFORM_APP_KEY"))
    app.json.sort_keys = False
    archive = None
    if app.config.get("ARCHIVE_URL") or app.config.get("ARCHIVE_DIR"):  # else ARCHIVE_URL / ARCHIVE_DIR from the env
        from events.archive import open_archive
        archive = open_archive(app.config.get("ARCHIVE_URL"), app.config.get("ARCHIVE_DIR"))
    app.extensions["cartel"] = build_engine(app.config.get("REDIS_URL"), app.config.get("QUEUE_REDIS_URL"),
                                            app.config.get("RULESETS"), archive)
    api = CartelApi(app)
    for blueprint in BLUEPRINTS:
        api.register_blueprint(blueprint)
    api.register_stream_messages()
    api.register_ruleset_types(RULESETS)  # the server's games, whatever app.config["RULESETS"] a test adds
    app.register_blueprint(web_blp)  # the reference frontend: static files, outside the API description
    register_error_handlers(app)
    install_rate_limits(app)
    install_gate(app)  # after the rate limits: probing ids for private tables is limited too
    install_cors(app)
    hops = int(os.environ.get("PROXY_FIX_HOPS", 0))
    if hops:  # behind N reverse proxies: count the client's address, not the proxy's
        from werkzeug.middleware.proxy_fix import ProxyFix
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=hops, x_proto=hops, x_host=hops)
    return app
