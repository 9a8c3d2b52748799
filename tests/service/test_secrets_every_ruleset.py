"""No seat learns another seat's hidden cards, the deck order or the seed through any endpoint,
for every ruleset: seeded random games over HTTP, checked at several points of each game.

What counts as secret comes from the rulesets themselves: every part of an event under
`data["secret"]` that `visible_to` does not grant the reader, the sentence its audience reads of
such an event where it differs from a spectator's (events/narration.py), plus whatever the optional
`hidden_from(state, seat)` hook lists (e.g. the order of a deck).  A secret string may show
in a reader's responses only if it is public anyway (a spectator sees it too) or the reader's own.
"""
from __future__ import annotations

import json
import random

import pytest

from events.narration import narrate
from rules import EVERY_RULESET
from rules.base import PUBLIC, redact
from rules.narration import Names
from service import create_app
from tests.support.race import RACE
from tests.support.settings import TEST_SETTINGS

ALL = {**EVERY_RULESET, "race": RACE}
COMMANDS_PER_GAME = 160
CHECK_EVERY = 40


@pytest.fixture
def client(redis_server, redis_client):
    app = create_app({**TEST_SETTINGS, "REDIS_URL": redis_server.url, "RULESETS": ALL,
                      "RATE_LIMIT_PER_ADDRESS": 0, "RATE_LIMIT_PER_TOKEN": 0})
    yield app.test_client(), app.extensions["cartel"]
    app.extensions["cartel"].hub.close()  # as tests/service/conftest.py's app: no reader left polling


def leaves(value) -> set[str]:
    """Distinctive strings inside a JSON value (ids, names, card keys), as JSON tokens."""
    if isinstance(value, dict):
        return set().union(*(leaves(v) for v in value.values()), *(leaves(k) for k in value)) if value else set()
    if isinstance(value, list):
        return set().union(*(leaves(v) for v in value)) if value else set()
    if isinstance(value, str) and len(value) >= 3:
        return {json.dumps(value)}
    return set()


def sse_text(client, url: str, headers: dict, version: int) -> str:
    response = client.get(url, headers={**headers, "Accept": "text/event-stream"}, buffered=False)
    text = ""
    for chunk in response.response:
        text += chunk.decode() if isinstance(chunk, bytes) else chunk
        if f"id: {version}\n" in text:
            break
    response.close()
    return text


def everything(client, game_id: str, token: str | None, version: int, probe: dict) -> str:
    """All a reader can get out of the API about this game right now."""
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    base = f"/v1/games/{game_id}"
    texts = [client.get(base, headers=headers).get_data(as_text=True),
             client.get(f"{base}/events?after=0&limit=500", headers=headers).get_data(as_text=True),
             sse_text(client, f"{base}/events", headers, version),
             client.get(f"{base}/history", headers=headers).get_data(as_text=True)]
    for past in {1, version // 2, version - 1, version}:
        texts.append(client.get(f"{base}/state?version={past}", headers=headers).get_data(as_text=True))
    if token:  # error messages: a move that is not the reader's to make, and a malformed one
        texts.append(client.post(f"{base}/commands", json=probe, headers=headers).get_data(as_text=True))
        texts.append(client.post(f"{base}/commands", json={"type": "NoSuchMove"}, headers=headers)
                     .get_data(as_text=True))
    return "\n".join(texts)


def secrets_by_seat(ruleset, envelopes, seats: int) -> tuple[dict[int, set], set]:
    """Secret strings each seat may read, and those no seat may read (from the unredacted stream)."""
    own: dict[int, set] = {s: set() for s in range(seats)}
    nobody: set = set()
    for envelope in envelopes:
        if envelope.is_engine or "secret" not in envelope.data:
            continue
        audience = ruleset.visible_to(envelope.event)
        if audience == PUBLIC:
            continue
        found = leaves(envelope.data["secret"])
        for seat in audience:
            own[seat] |= found
        if not audience:
            nobody |= found
    return own, nobody


def sentences_by_seat(ruleset, envelopes, names: Names, seats: int) -> dict[int, set]:
    """The sentences (events/narration.py) a secret event's audience reads and a spectator does not, per
    seat of the audience, as JSON strings: another seat must not read them (its label would tell it)."""
    told: dict[int, set] = {s: set() for s in range(seats)}
    for envelope in envelopes:
        if envelope.is_engine or "secret" not in envelope.data or ruleset.visible_to(envelope.event) == PUBLIC:
            continue
        public = narrate(ruleset, redact(ruleset, envelope.event, None), names)["text"]
        for seat in ruleset.visible_to(envelope.event):
            text = narrate(ruleset, redact(ruleset, envelope.event, seat), names)["text"]
            if text != public:
                told[seat].add(json.dumps(text))
    return told


def check_no_leaks(client, engine, ruleset, game_id: str, tokens: list[str], seed: str) -> int:
    game = engine.runner.load(game_id)
    if game.status == "finished":
        return 0  # once the game is over everything is published, the seed included
    envelopes = list(engine.store.read_all(game_id))
    own, nobody = secrets_by_seat(ruleset, envelopes, len(tokens))
    # the sentences a secret's audience reads: a label is a way to leak too
    for seat, sentences in sentences_by_seat(ruleset, envelopes, game.names, len(tokens)).items():
        own[seat] |= sentences
    # What is public by the rules themselves (not by what the API happens to send a spectator):
    # every event without its secret part, and the spectator's view.
    public = json.dumps([{k: v for k, v in e.data.items() if k != "secret"} for e in envelopes])
    public += json.dumps(ruleset.view(game.state, None))
    mover = min(game.awaiting()) if game.awaiting() else None
    probe = next(iter(ruleset.legal_moves(game.state, mover)), {"type": "Nope"}) if mover is not None \
        else {"type": "Nope"}
    checked = 0
    for reader, token in enumerate(tokens):
        # the probe is a move that is not the reader's to make: posted by an awaited seat it would be played,
        # and the game would move on (a played card, the next Narcos card made public) mid-check
        mine = reader in game.awaiting()
        seen = everything(client, game_id, token, game.version, {"type": "Nope"} if mine else probe)
        assert seed not in seen, f"seat {reader} can read the seed"
        others = set().union(*(own[s] for s in own if s != reader), nobody) - own[reader]
        leaked = {s for s in others if s in seen and s not in public}
        assert seed not in everything(client, game_id, None, game.version, {}), "a spectator can read the seed"
        assert not leaked, f"seat {reader} reads other seats' secrets: {sorted(leaked)[:5]}"
        hidden = getattr(ruleset, "hidden_from", None)
        for value in (hidden(game.state, reader) if hidden else []):
            assert json.dumps(value) not in seen, f"seat {reader} can read {value!r}"
        checked += len(others)
    return checked


@pytest.mark.parametrize("name", sorted(ALL))
def test_no_seat_reads_another_seats_secrets_through_any_endpoint(client, name):
    # Each check compares what every seat can read with what the rules say it may.
    client, engine = client
    ruleset = ALL[name]
    seats = min(3, ruleset.max_seats) if ruleset.min_seats <= 3 else ruleset.min_seats
    seed = f"secret-seed-{name}-0123456789abcdef"
    created = client.post("/v1/games", json={"ruleset": name, "seed": seed,
                                             "seats": [{"kind": "human"}] * seats}).json
    tokens = [s["token"] for s in created["seats"]]
    game_id, choose = created["id"], random.Random(name)
    compared = 0
    for step in range(COMMANDS_PER_GAME):
        if step % CHECK_EVERY == 0:
            compared += check_no_leaks(client, engine, ruleset, game_id, tokens, seed)
        game = client.get(f"/v1/games/{game_id}").json
        if game["status"] == "finished":
            break
        seat = int(choose.choice(sorted(game["awaiting"])))
        auth = {"Authorization": f"Bearer {tokens[seat]}"}
        moves = client.get(f"/v1/games/{game_id}", headers=auth).json["legal_moves"]
        answer = client.post(f"/v1/games/{game_id}/commands", json=choose.choice(moves), headers=auth)
        assert answer.status_code == 200, answer.get_data(as_text=True)
    compared += check_no_leaks(client, engine, ruleset, game_id, tokens, seed)
    if name in ("race", "druglord", "narcos"):  # games with hidden cards: the check really compared secrets
        assert compared > 0
