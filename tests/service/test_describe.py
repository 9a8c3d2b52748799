"""Rulesets describe themselves over HTTP (issue 10 item 4): schemas, static data, the rules
document, and a label beside every legal move; and a tampered replay counts what it checked."""
from __future__ import annotations

import json

from jsonschema import Draft202012Validator

from tests.service.conftest import bearer


def test_a_ruleset_links_its_schema_data_and_rules_document(client):
    body = client.get("/v1/rulesets/druglord").json
    assert body["rules_doc"] == "/v1/rulesets/druglord/rules"
    assert body["links"] == {"schema": "/v1/rulesets/druglord/schema", "data": "/v1/rulesets/druglord/data",
                             "rules": "/v1/rulesets/druglord/rules"}
    doc = client.get(body["rules_doc"])
    assert doc.status_code == 200 and doc.mimetype == "text/markdown"
    assert "## Command reference" in doc.get_data(as_text=True)


def test_the_schema_resource_describes_every_command_argument_and_event(client):
    body = client.get("/v1/rulesets/druglord/schema").json
    Draft202012Validator.check_schema(body["commands"])
    sway = body["commands"]["$defs"]["Sway"]
    assert sway["description"].startswith("Rule 7")
    assert sway["properties"]["units"]["description"]
    assert Draft202012Validator(body["commands"]).is_valid({"type": "Sway", "die": "defence", "weight": "pills",
                                                            "units": -3})
    assert not Draft202012Validator(body["commands"]).is_valid({"type": "Sway", "die": "defence"})
    assert body["events"]["SwayDeclared"]
    assert body["view"]["properties"]["game"] == {"const": "druglord"}


def test_druglord_data_lets_a_frontend_draw_the_map(client):
    data = client.get("/v1/rulesets/druglord/data").json["data"]
    regions = {r["id"]: r for r in data["regions"]}
    assert len(regions) == 74
    southwest = regions["FS5"]
    assert southwest["name"] and southwest["zone_name"] == "Flyover States"
    for field in ("borders", "ports", "demand", "x", "y"):
        assert field in southwest
    assert all(b in regions for r in regions.values() for b in r["borders"])
    assert "reconstructed" in data["map"] and data["map"]["reconstructed"]


def test_druglord_data_is_the_board_of_the_rules_version_asked(client):
    # issue 24: a version-1 game was drawn with version 2's Oregon-Nevada border; the page now asks for its
    # game's `ruleset_version` and gets that version's map.
    def borders(query=""):
        response = client.get(f"/v1/rulesets/druglord/data{query}")
        assert response.status_code == 200, response.json
        return {r["id"]: set(r["borders"]) for r in response.json["data"]["regions"]}, response.json["data"]
    old, old_data = borders("?version=1")
    latest, latest_data = borders()
    assert "FS5" not in old["NP2"] and "FS5" in latest["NP2"]          # Pacific Northwest - Southwest
    latest_version = client.get("/v1/rulesets/druglord").json["latest_version"]
    assert old_data["rules_version"] == 1 and latest_data["rules_version"] == latest_version >= 3
    assert borders("?version=3")[1]["rules_version"] == 3
    assert borders("?version=2")[0] == latest
    for query, status in (("?version=9", 404), ("?version=0", 400), ("?version=two", 400)):
        response = client.get(f"/v1/rulesets/druglord/data{query}")
        assert response.status_code == status and response.mimetype == "application/problem+json"
        assert response.json["detail"]
    assert "no rules version 9" in client.get("/v1/rulesets/druglord/data?version=9").json["detail"]
    assert client.get("/v1/rulesets/kingpin/data?version=1").status_code == 200
    versions = client.get("/v1/rulesets/druglord").json["versions"]
    assert [v["version"] for v in versions][:3] == [1, 2, 3] and "roll-off" in versions[2]["summary"]
    assert [v["version"] for v in versions][-1] == latest_version


def test_kingpin_data_is_the_card_catalogue(client):
    data = client.get("/v1/rulesets/kingpin/data").json["data"]
    assert {"truck3", "cop", "hitman"} <= set(data["catalog"]["kinds"])


def test_trafficking_and_lords_of_cannabis_data_let_a_frontend_draw_their_boards(client):
    board = client.get("/v1/rulesets/trafficking/data").json["data"]["board"]
    assert all({"id", "name", "kind", "x", "y", "arrows"} <= set(s) for s in board["squares"])
    assert board["lines"] and board["reconstructed"]
    board = client.get("/v1/rulesets/lords_of_cannabis/data").json["data"]["board"]
    assert len(board["bricks"]) == 24 and all({"x", "y", "resource"} <= set(b) for b in board["bricks"])
    assert all({"x", "y", "bricks"} <= set(n) for n in board["intersections"])


def test_trafficking_and_lords_of_cannabis_describe_their_commands(client):
    for name, command, arg in (("trafficking", "TakeCab", "to"), ("lords_of_cannabis", "BuildTunnel", "path")):
        body = client.get(f"/v1/rulesets/{name}/schema").json
        described = body["commands"]["$defs"][command]
        assert described["description"] and described["properties"][arg]["description"]
        assert all(body["events"].values()) and body["view"]["required"]


def test_unknown_ruleset_and_a_ruleset_without_docs(client):
    assert client.get("/v1/rulesets/nope/schema").status_code == 404
    assert client.get("/v1/rulesets/race/rules").status_code == 404  # a test ruleset has no rules document
    assert client.get("/v1/rulesets/race").json["rules_doc"] is None
    assert client.get("/v1/rulesets/race/schema").status_code == 200  # undeclared: empty descriptions


def test_every_legal_move_has_a_label_and_stays_postable(client):
    created = client.post("/v1/games", json={"ruleset": "kingpin", "seats": [{"kind": "human"}, {"kind": "human"}],
                                             "seed": "labels"}).json
    tokens = [s["token"] for s in created["seats"]]
    for _ in range(4):
        docs = [client.get(f"/v1/games/{created['id']}", headers=bearer(t)).json for t in tokens]
        doc = next(d for d in docs if d["legal_moves"])
        assert len(doc["move_labels"]) == len(doc["legal_moves"]) and all(doc["move_labels"])
        move = doc["legal_moves"][0]  # first a PurchaseCard: arguments and all, as listed
        assert set(move) > {"type"} or move["type"] in ("RollDice", "EndTurn", "Payday", "FinishDistribute")
        posted = client.post(f"/v1/games/{created['id']}/commands", json=move, headers=bearer(tokens[doc["you"]]))
        assert posted.status_code == 200, posted.json


def test_a_tampered_replay_counts_the_events_that_verified(client, race):
    game_id, tokens = race
    for _ in range(30):
        doc = client.get(f"/v1/games/{game_id}", headers=bearer(tokens[0])).json
        if doc["status"] == "finished":
            break
        for token in tokens:
            moves = client.get(f"/v1/games/{game_id}", headers=bearer(token)).json["legal_moves"]
            if moves:
                client.post(f"/v1/games/{game_id}/commands", json=moves[0], headers=bearer(token))
    lines = client.get(f"/v1/games/{game_id}/history").get_data(as_text=True).splitlines()
    records = [json.loads(line) for line in lines]
    target = next(r for r in records[1:] if r["version"] >= 3 and r["data"])
    key = next(iter(target["data"]))
    target["data"][key] = "tampered"
    body = "\n".join(json.dumps(r) for r in records) + "\n"
    result = client.post("/v1/replays", data=body, content_type="application/x-ndjson").json
    assert not result["valid"]
    assert result["events"] == result["diverged_at"] - 1 >= 2


def test_every_event_a_reader_receives_matches_its_type_s_served_data_schema(client):
    """Issue 25 (event data per type): the schema resource declares every event type's data, and each event of
    a new Druglord game, as seat 0, seat 1 and a spectator read it (a drawn card's `secret` only for its
    seat), validates against its type's schema; the table's own events are not the ruleset's."""
    from events.table import ENGINE_EVENTS

    described = client.get("/v1/rulesets/druglord/schema").json
    assert set(described["event_data"]) == set(described["events"])
    validators = {etype: Draft202012Validator(schema) for etype, schema in described["event_data"].items()}
    created = client.post("/v1/games", json={"ruleset": "druglord", "seats": [{"kind": "human"}, {"kind": "human"}],
                                             "seed": "event-data"}).json
    secrets = {}
    for reader, headers in (("s0", bearer(created["seats"][0]["token"])),
                            ("s1", bearer(created["seats"][1]["token"])), ("spectator", {})):
        events = client.get(f"/v1/games/{created['id']}/events", headers=headers).json["events"]
        for event in events:
            if event["type"] in ENGINE_EVENTS:
                continue
            problems = [e.message for e in validators[event["type"]].iter_errors(event["data"])]
            assert not problems, f"{reader}: {event['type']} {event['data']}: {problems}"
        secrets[reader] = sum("secret" in e["data"] for e in events if e["type"] == "RegionCardsDrawn")
    assert secrets == {"s0": 1, "s1": 1, "spectator": 0}
