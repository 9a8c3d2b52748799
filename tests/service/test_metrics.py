"""GET /metrics: Prometheus text format with the command, refusal, append and lobby metrics."""
from __future__ import annotations

from prometheus_client.parser import text_string_to_metric_families

from tests.service.conftest import bearer


def scrape(client) -> dict[tuple, float]:
    """{(sample name, sorted labels): value} from /metrics."""
    response = client.get("/metrics")
    assert response.status_code == 200
    assert response.headers["Content-Type"].startswith("text/plain; version=0.0.4")
    return {(s.name, tuple(sorted(s.labels.items()))): s.value
            for family in text_string_to_metric_families(response.get_data(as_text=True)) for s in family.samples}


def value(samples, name: str, **labels) -> float:
    return samples.get((name, tuple(sorted(labels.items()))), 0.0)


def test_metrics_count_commands_conflicts_illegal_moves_and_bad_requests(client, race):
    game_id, tokens = race
    url = f"/v1/games/{game_id}/commands"
    before = scrape(client)
    for _ in range(3):  # seat 0 passes, seat 1 passes, seat 0 passes
        version = client.get(f"/v1/games/{game_id}").json["version"]
        seat = [s for s, kind in client.get(f"/v1/games/{game_id}").json["awaiting"].items()][0]
        ok = client.post(url, json={"type": "Pass"}, headers={**bearer(tokens[int(seat)]), "If-Match": f'"{version}"'})
        assert ok.status_code == 200, ok.json
    assert client.post(url, json={"type": "Pass"}, headers={**bearer(tokens[1]), "If-Match": '"2"'}).status_code == 409
    assert client.post(url, json={"type": "Roll"}, headers=bearer(tokens[0])).status_code == 422  # not seat 0's turn
    assert client.post(url, json={"type": "Fly"}, headers=bearer(tokens[1])).status_code == 400
    assert client.post(url, data="{not json", content_type="application/json",
                       headers=bearer(tokens[1])).status_code == 400
    after = scrape(client)

    def delta(name, **labels):
        return value(after, name, **labels) - value(before, name, **labels)

    assert delta("cartel_commands_accepted_total", ruleset="race", actor="seat") == 3
    assert delta("cartel_command_conflicts_total") == 1
    assert delta("cartel_illegal_moves_total") == 1
    assert delta("cartel_bad_requests_total") == 2
    # create (GameCreated), start (setup) and the 3 commands appended; the 409 never reached the script
    assert delta("cartel_append_seconds_count", outcome="ok") == 3
    assert value(after, "cartel_append_seconds_count", outcome="ok") >= 5
    assert value(after, "cartel_append_seconds_bucket", outcome="ok", le="+Inf") == \
        value(after, "cartel_append_seconds_count", outcome="ok")
    assert value(after, "cartel_games", status="active") == 1
    assert value(after, "cartel_games", status="open") == 0


def test_metrics_counts_games_by_status_from_the_lobby(client):
    client.post("/v1/games", json={"ruleset": "race", "seats": [{"kind": "human"}, {"kind": "open"}]})
    client.post("/v1/games", json={"ruleset": "race", "seats": [{"kind": "human"}, {"kind": "open"}]})
    client.post("/v1/games", json={"ruleset": "race", "seats": [{"kind": "human"}, {"kind": "human"}]})
    samples = scrape(client)
    assert value(samples, "cartel_games", status="open") == 2
    assert value(samples, "cartel_games", status="active") == 1
    assert value(samples, "cartel_games", status="finished") == 0
