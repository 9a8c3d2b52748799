"""POST /v1/replays says both things a verdict must: valid (every event re-derives, the header says
nothing the events contradict) and complete (the events are the whole game the header records)."""
from __future__ import annotations

import json

from tests.service.test_api import play_to_the_end, problem

NDJSON = "application/x-ndjson"


def exported(client, race) -> list[dict]:
    game_id, tokens = race
    play_to_the_end(client, game_id, tokens)
    return [json.loads(line) for line in client.get(f"/v1/games/{game_id}/history").get_data(as_text=True).splitlines()]


def post(client, records: list[dict], query: str = ""):
    return client.post(f"/v1/replays{query}", data="".join(json.dumps(r) + "\n" for r in records), content_type=NDJSON)


def test_a_whole_history_is_valid_and_complete(client, race):
    records = exported(client, race)
    assert records[0]["format"] == "tabletop-cartel-history/5" and records[0]["last_version"] == len(records) - 1
    verdict = post(client, records).json
    assert verdict["valid"] and verdict["complete"] and verdict["reason"] is None, verdict
    # format 5: every recorded draw was checked against its stream
    assert verdict["draws"] == sum(len(pairs) for r in records for _, pairs in r.get("draws", ())) > 0
    assert verdict["mismatches"] == [] and verdict["unvouched"] == []
    assert verdict["summary"].startswith("valid and complete")


def test_the_first_lines_of_a_history_are_valid_but_not_complete_and_step_to_their_end(client, race):
    # the issue: the first N lines of an export, its header's outcome nulled, answered valid as a whole game
    records = exported(client, race)
    prefix = [dict(records[0], outcome=None)] + records[1:6]
    verdict = post(client, prefix).json
    assert verdict["valid"] and not verdict["complete"], verdict
    assert verdict["mismatches"] == [{"field": "last_version", "header": len(records) - 1, "events": 5}]
    assert "stop at version 5" in verdict["reason"] and verdict["summary"].startswith("valid but not complete")
    assert post(client, prefix, "?version=5").json["version"] == 5  # a valid prefix steps to its last event
    assert "past its end" in problem(post(client, prefix, "?version=6"), 422)["detail"]


def test_a_header_with_another_games_id_is_not_valid_and_names_the_field(client, race):
    records = exported(client, race)
    verdict = post(client, [dict(records[0], game_id="0123456789abcdef")] + records[1:]).json
    assert not verdict["valid"] and not verdict["complete"], verdict
    assert [m["field"] for m in verdict["mismatches"]] == ["game_id"] and "0123456789abcdef" in verdict["reason"]
    assert verdict["summary"].startswith("not valid, so not complete")
