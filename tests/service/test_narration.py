"""Every read path serves each event with its sentence (issue 25 (1)): a command's answer, the events
page, the live stream and the history export, each written for its reader from the redacted event
and with the names the players chose; a history's verification ignores the sentences (derived, not
evidence), so an export verifies with them, with them edited, and without them."""
from __future__ import annotations

import json

import pytest

from events.narration import narrate
from rules import EVERY_RULESET
from rules.base import Event, redact
from rules.narration import Names
from service import create_app
from tests.service.conftest import bearer
from tests.support.settings import TEST_SETTINGS

PIG = EVERY_RULESET["pig"]
NAMES = Names(("Ana", "Bo"))


@pytest.fixture
def client(redis_server, redis_client):
    app = create_app({**TEST_SETTINGS, "REDIS_URL": redis_server.url, "RULESETS": EVERY_RULESET, "TESTING": True})
    yield app.test_client()
    app.extensions["cartel"].hub.close()


@pytest.fixture
def pig(client):
    created = client.post("/v1/games", json={"ruleset": "pig", "seed": "narrated", "options": {"target": 20},
                                             "seats": [{"kind": "human", "name": "Ana"},
                                                       {"kind": "human", "name": "Bo"}]})
    assert created.status_code == 201, created.json
    return created.json["id"], [seat["token"] for seat in created.json["seats"]]


def expected(event: dict, reader: int | None) -> dict:
    """The sentence of a served event as the rules write it for this reader."""
    return narrate(PIG, redact(PIG, Event(event["type"], event["data"]), reader), NAMES)


def play(client, game_id: str, tokens: list[str], commands: int) -> list[dict]:
    """Roll until the pot holds 6, then hold; the answers' events."""
    answered = []
    for _ in range(commands):
        game = client.get(f"/v1/games/{game_id}").json
        if game["status"] == "finished":
            break
        seat = int(min(game["awaiting"]))
        view = client.get(f"/v1/games/{game_id}", headers=bearer(tokens[seat])).json
        move = {"type": "Hold"} if view["view"]["pot"] >= 6 else {"type": "Roll"}
        answer = client.post(f"/v1/games/{game_id}/commands", json=move, headers=bearer(tokens[seat]))
        assert answer.status_code == 200, answer.get_data(as_text=True)
        answered += answer.json["events"]
    return answered


def test_a_commands_answer_and_the_events_page_narrate_each_event_with_the_chosen_names(client, pig):
    game_id, tokens = pig
    answered = play(client, game_id, tokens, 6)
    assert answered and all(e["narration"] == expected(e, None) for e in answered)
    assert any("Ana" in e["narration"]["text"] or "Bo" in e["narration"]["text"] for e in answered)
    page = client.get(f"/v1/games/{game_id}/events?after=0", headers=bearer(tokens[1])).json["events"]
    assert page[0]["type"] == "GameCreated"
    assert page[0]["narration"]["text"] == "A game of Pig (example game) was set up for 2 seats: Ana and Bo."
    for event in page:
        if event["type"] not in ("GameCreated",) and event["type"] in PIG.evolvers:
            assert event["narration"] == expected(event, 1), event
        assert event["narration"]["text"] and "_" not in event["narration"]["text"]
    rolled = [e for e in page if e["type"] == "DieRolled"]
    assert rolled and rolled[0]["narration"]["text"].startswith(("Ana rolled a ", "Bo rolled a "))


def test_the_live_stream_narrates_each_event(client, pig):
    game_id, tokens = pig
    play(client, game_id, tokens, 3)
    version = client.get(f"/v1/games/{game_id}").json["version"]
    response = client.get(f"/v1/games/{game_id}/events", headers={"Accept": "text/event-stream"}, buffered=False)
    text = ""
    for chunk in response.response:
        text += chunk.decode() if isinstance(chunk, bytes) else chunk
        if f"id: {version}\n" in text:
            break
    response.close()
    events = [json.loads(line[len("data: "):]) for line in text.splitlines()
              if line.startswith("data: ") and '"narration"' in line]
    assert [e["version"] for e in events] == list(range(1, version + 1))
    assert all(e["narration"] == expected(e, None) for e in events if e["type"] in PIG.evolvers)


def test_an_exported_history_narrates_every_event_and_verifies_with_or_without_its_sentences(client, pig):
    game_id, tokens = pig
    play(client, game_id, tokens, 400)
    lines = client.get(f"/v1/games/{game_id}/history").get_data(as_text=True).splitlines()
    header, records = json.loads(lines[0]), [json.loads(line) for line in lines[1:]]
    assert all(r["narration"]["text"] for r in records)
    won = [r for r in records if r["type"] == "PotBanked"][-1]
    assert won["narration"]["text"].endswith(f"held and banked {won['data']['pot']}.")

    def verdict(records: list[dict]) -> dict:
        body = "".join(json.dumps(r) + "\n" for r in [header, *records])
        return client.post("/v1/replays", data=body, content_type="application/x-ndjson").json

    as_exported = verdict(records)
    assert as_exported["valid"] and as_exported["complete"], as_exported
    # derived, not evidence: a sentence edited or left out changes nothing the verifier proves
    edited = [dict(r, narration={"text": "Bo won by a mile.", "refs": []}) for r in records]
    assert verdict(edited) == as_exported
    bare = [{k: v for k, v in r.items() if k != "narration"} for r in records]
    assert verdict(bare) == as_exported
