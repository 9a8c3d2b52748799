"""Property: no input gives a 5xx or hangs.

Arbitrary JSON values (deep nesting, integers of thousands of digits, NaN and
Infinity as raw text, lone surrogates, control and bidi characters) go to every
endpoint that takes a body, and arbitrary strings to every query parameter,
path parameter and header the API reads.  Every answer must be below 500, and
every refusal a problem+json document; a refused command appends nothing.
Derandomized and bounded, so the run is the same each time and takes seconds.
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from urllib.parse import quote

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from rules import RULESETS
from rules.base import seed_commitment
from service import create_app
from tests.support.race import RACE
from tests.support.settings import TEST_SETTINGS

SETTINGS = settings(max_examples=200, derandomize=True, deadline=5000, database=None,
                    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])


# ------------------------------------------------------------------ values
@dataclass(frozen=True)
class Raw:
    """JSON text written as is: what json.dumps would never produce."""

    text: str


RAW_TOKENS = st.sampled_from([Raw("NaN"), Raw("Infinity"), Raw("-Infinity"), Raw("1e999"), Raw("-1e400"),
                              Raw("9" * 5000), Raw("-" + "1" * 4301), Raw("1" * 41), Raw("[" * 30_000 + "]" * 30_000),
                              Raw('{"a":' * 100 + "1" + "}" * 100), Raw("[" * 65 + "]" * 65), Raw('"\\ud800"'),
                              Raw('"\\udfff\\ud800"'), Raw('"\\u0000"'), Raw(str(2**64)), Raw(str(2**63)),
                              Raw("-0"), Raw("1E+2")])
ODD_CHARS = st.sampled_from(["\x00", "\x1b", "\x7f", "\u202e", "\u2066", "\u200b", "\ufeff", "\u2028",
                             "\ud800", "\udfff", "\U0001f3b2", "\n", "\t", " "])
TEXT = st.text(st.one_of(st.characters(), ODD_CHARS), max_size=24)
SCALARS = st.one_of(st.none(), st.booleans(), st.integers(), st.integers(min_value=2**63 - 2, max_value=2**65),
                    st.floats(allow_nan=False, allow_infinity=False), TEXT, RAW_TOKENS)
VALUES = st.recursive(SCALARS, lambda inner: st.lists(inner, max_size=4) | st.dictionaries(TEXT, inner, max_size=4),
                      max_leaves=12)


def render(value) -> str:
    """JSON text for a value that may hold Raw pieces and lone surrogates (written as \\uXXXX escapes)."""
    if isinstance(value, Raw):
        return value.text
    if isinstance(value, list):
        return "[" + ",".join(render(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ",".join(f"{json.dumps(k)}:{render(v)}" for k, v in value.items()) + "}"
    return json.dumps(value)


def field_or_fuzz(valid):
    return st.one_of(st.just(valid), VALUES)


# every game's option names (and a stranger): a bad value for any of them is a 422, never a 500
OPTION_NAMES = sorted({"goal", "x", *(name for ruleset in RULESETS.values() for name in ruleset.options)})
SEAT_SPECS = st.fixed_dictionaries({"kind": field_or_fuzz("human")},
                                   optional={"name": st.one_of(TEXT, VALUES), "level": field_or_fuzz("random")})
CREATE_BODIES = st.fixed_dictionaries(
    {"ruleset": st.one_of(st.sampled_from(["race", *sorted(RULESETS)]), VALUES),
     "seats": st.one_of(st.lists(SEAT_SPECS, min_size=2, max_size=3), VALUES)},
    optional={"options": st.one_of(st.dictionaries(st.sampled_from(OPTION_NAMES), VALUES, max_size=2), VALUES),
              "seed": st.one_of(TEXT, VALUES),
              "clock": st.one_of(st.fixed_dictionaries({}, optional={
                  "move_seconds": VALUES, "response_seconds": VALUES, "timeouts_before_bot": VALUES,
                  "bot_level": st.one_of(st.sampled_from(["random", "greedy", "godlike"]), VALUES)}), VALUES)})
COMMAND_BODIES = st.fixed_dictionaries({"type": st.one_of(st.sampled_from(["Roll", "Pass", "Acknowledge"]), VALUES)},
                                       optional={"expected_version": VALUES, "arg": VALUES})
CLAIM_BODIES = st.fixed_dictionaries({}, optional={"name": st.one_of(TEXT, VALUES), "other": VALUES})


def bodies(templates):
    """JSON text: a template with fuzzed fields, any JSON value, or bytes that are not JSON at all."""
    return st.one_of(templates.map(render), VALUES.map(render), st.binary(max_size=40).map(lambda b: b.decode("latin-1")))


def history_lines():
    header = {"format": "tabletop-cartel-history/1", "ruleset": "race", "options": {"goal": 5},
              "seats": [{"kind": "human"}, {"kind": "human"}], "seed": "s", "seed_commitment": seed_commitment("s")}
    event = st.fixed_dictionaries({"version": st.one_of(st.integers(0, 4), VALUES), "type": field_or_fuzz("DieRolled"),
                                   "data": field_or_fuzz({"seat": 0, "die": 3}), "actor": field_or_fuzz("seat:0")},
                                  optional={"command": st.one_of(st.sampled_from([{"type": "StartGame"},
                                                                                  {"type": "Roll"}]), VALUES)})
    headers = st.one_of(st.just(header), st.dictionaries(st.sampled_from(sorted(header)), VALUES, max_size=3).map(
        lambda changed: {**header, **changed}))
    return st.tuples(headers, st.lists(st.one_of(event, VALUES), max_size=4)).map(
        lambda h_e: "\n".join(render(line) for line in [h_e[0], *h_e[1]]))


HEADER_TEXT = st.text(st.characters(max_codepoint=255, exclude_characters="\r\n"), max_size=40)
HEADER_VALUES = st.one_of(HEADER_TEXT, st.sampled_from(['"1"', "W/\"2\"", "*", "9" * 5000, str(2**64),
                                                        "text/event-stream", "Bearer a b", "Bearer ", "\x00"]))
HEADERS = st.fixed_dictionaries({}, optional={name: HEADER_VALUES for name in (
    "Authorization", "If-Match", "Idempotency-Key", "If-None-Match", "Last-Event-ID", "Accept", "Content-Type")})
QUERY_VALUES = st.one_of(st.text(max_size=12), st.sampled_from(["9" * 5000, str(2**64), "-1", "1e3", "0x10",
                                                                "\u0661", "NaN", ""]))
PATH_TEXT = st.one_of(st.text(min_size=1, max_size=20), st.sampled_from(["9" * 5000, "..", "%00", "\ud800"]))


# ------------------------------------------------------------------ harness
@pytest.fixture
def world(redis_server, redis_client):
    """An app with no rate limits and quick SSE, a race game with two human seats, and one with an open seat."""
    app = create_app({**TEST_SETTINGS, "REDIS_URL": redis_server.url, "RULESETS": {**RULESETS, "race": RACE},
                      "RATE_LIMIT_PER_ADDRESS": 0, "RATE_LIMIT_PER_TOKEN": 0,
                      "SSE_MAX_SECONDS": 0.2, "SSE_HEARTBEAT_SECONDS": 0.1})
    client = app.test_client()
    race = client.post("/v1/games", json={"ruleset": "race", "seats": [{"kind": "human"}] * 2}).json
    lobby = client.post("/v1/games", json={"ruleset": "race", "seats": [{"kind": "human"}, {"kind": "open"}]}).json
    return client, race["id"], [s["token"] for s in race["seats"]], lobby["id"]


def check(response) -> None:
    """Below 500; a refusal is problem+json with a detail."""
    response.get_data()  # runs a streamed (SSE) body to its end too
    assert response.status_code < 500, (response.status_code, response.get_data(as_text=True)[:500])
    if response.status_code >= 400:
        assert response.mimetype == "application/problem+json", response.get_data(as_text=True)[:300]
        assert response.json["detail"]


def encode(text: str) -> bytes:
    return text.encode("utf-8", "surrogatepass")  # a lone surrogate as raw (invalid) UTF-8 too


def version(client, game_id: str) -> int:
    return client.get(f"/v1/games/{game_id}").json["version"]


# ------------------------------------------------------------------ properties
@SETTINGS
@given(body=bodies(CREATE_BODIES), headers=HEADERS)
def test_create_game(world, body, headers):
    client, *_ = world
    headers = {"Content-Type": "application/json", **headers}
    check(client.post("/v1/games", data=encode(body), headers=headers))


@SETTINGS
@given(body=bodies(COMMAND_BODIES), headers=HEADERS, use_token=st.booleans())
def test_send_command(world, body, headers, use_token):
    client, game_id, tokens, _ = world
    headers = {"Content-Type": "application/json", **headers}
    if use_token:
        headers["Authorization"] = f"Bearer {tokens[0]}"
    before = version(client, game_id)
    response = client.post(f"/v1/games/{game_id}/commands", data=encode(body), headers=headers)
    check(response)
    if response.status_code >= 400:
        assert version(client, game_id) == before  # a refused command appends nothing


@SETTINGS
@given(body=bodies(CLAIM_BODIES), headers=HEADERS, seat=st.sampled_from(["0", "1", "2", "9" * 30]),
       action=st.sampled_from(["claim", "reclaim", "resign", "abort", "leave", "rematch"]), lobby=st.booleans())
def test_claim_and_reclaim_seat_and_a_table_s_life(world, body, headers, seat, action, lobby):
    """Every seat endpoint (issue 36 item 1 added resign, abort, leave, rematch), on a game in play and on an
    open table, with any body and headers: never a 5xx."""
    client, game_id, tokens, lobby_id = world
    headers = {"Content-Type": "application/json", **headers}
    target = lobby_id if lobby else game_id
    check(client.post(f"/v1/games/{target}/seats/{seat}/{action}", data=encode(body), headers=headers))


@SETTINGS
@given(text=st.one_of(history_lines(), bodies(st.nothing())), headers=HEADERS,
       query=st.fixed_dictionaries({}, optional={"version": st.one_of(st.integers(-1, 6), QUERY_VALUES)}))
def test_verify_replay(world, text, headers, query):
    client, *_ = world
    check(client.post("/v1/replays", data=encode(text), query_string=query,
                      headers={"Content-Type": "application/x-ndjson", **headers}))


@SETTINGS
@given(headers=HEADERS, query=st.fixed_dictionaries({}, optional={name: QUERY_VALUES for name in (
    "after", "limit", "status", "ruleset", "offset", "version")}), game_text=PATH_TEXT)
@example(headers={}, query={"after": str(2**64), "version": "9" * 5000}, game_text="x")  # once 500s, kept as examples
@example(headers={"Accept": "text/event-stream", "Last-Event-ID": str(2**64)}, query={}, game_text="\ud800")
def test_read_endpoints(world, headers, query, game_text):
    client, game_id, _, _ = world
    quoted = quote(game_text.encode("utf-8", "surrogatepass"), safe="")
    for path in ("", "/events", "/state", "/history"):
        check(client.get(f"/v1/games/{game_id}{path}", query_string=query, headers=headers))
    check(client.get(f"/v1/games/{quoted}", query_string=query, headers=headers))
    check(client.get("/v1/games", query_string=query, headers=headers))
    check(client.get(f"/v1/rulesets/{quoted}", headers=headers))
    check(client.get(f"/web/{quoted}", headers=headers))  # the web frontend's files: a miss is a 404
