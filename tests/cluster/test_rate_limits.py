"""The GCRA rate limiter on Redis Cluster: one script call touches the address's and the token's keys
(they share a hash tag), and the limits behave as on a single Redis."""
from __future__ import annotations

from rules import RULESETS
from service import create_app
from tests.support.race import RACE
from tests.support.settings import TEST_SETTINGS


def test_address_and_token_limits_in_one_script_on_a_cluster(redis_cluster, redis_client, queue_redis):
    app = create_app({**TEST_SETTINGS, "REDIS_URL": redis_cluster.url, "QUEUE_REDIS_URL": queue_redis.url,
                      "RULESETS": {**RULESETS, "race": RACE}, "RATE_LIMIT_PER_ADDRESS": 60,
                      "RATE_LIMIT_PER_TOKEN": 6, "RATE_LIMIT_BURST_SECONDS": 30})
    client = app.test_client()
    created = client.post("/v1/games", json={"ruleset": "race", "seats": [{"kind": "human"}] * 2}).json
    bearer = {"Authorization": f"Bearer {created['seats'][0]['token']}"}
    answers = [client.get(f"/v1/games/{created['id']}", headers=bearer) for _ in range(4)]
    # the token's burst is 3 (30 s of 6 a minute): the 4th is refused, with a wait of about one interval (10 s)
    assert [a.status_code for a in answers] == [200, 200, 200, 429]
    assert 1 <= int(answers[-1].headers["Retry-After"]) <= 10 and "from this token" in answers[-1].json["detail"]
    assert answers[0].headers["RateLimit-Limit"] == "3" and answers[0].headers["RateLimit-Remaining"] == "2"
    assert client.get(f"/v1/games/{created['id']}").status_code == 200  # the address still has room


def test_commands_take_their_limits_first_on_a_cluster(redis_cluster, redis_client, queue_redis):
    # a command's limits cannot ride on its append here (`{ratelimit}` and `{<game>}` are different
    # slots): they are taken before the command, with the same answers as on a single Redis
    app = create_app({**TEST_SETTINGS, "REDIS_URL": redis_cluster.url, "QUEUE_REDIS_URL": queue_redis.url,
                      "RULESETS": {**RULESETS, "race": RACE}, "RATE_LIMIT_PER_ADDRESS": 0,
                      "RATE_LIMIT_PER_TOKEN": 6, "RATE_LIMIT_BURST_SECONDS": 30})
    assert not app.extensions["cartel"].limiter.rides_on_appends
    client = app.test_client()
    created = client.post("/v1/games", json={"ruleset": "race", "seats": [{"kind": "human"}] * 2}).json
    tokens = [{"Authorization": f"Bearer {seat['token']}"} for seat in created["seats"]]
    url = f"/v1/games/{created['id']}/commands"
    answers = [client.post(url, json={"type": "Pass"}, headers=tokens[n % 2]) for n in range(6)]
    assert [a.status_code for a in answers] == [200] * 6
    assert [a.headers["RateLimit-Remaining"] for a in answers] == ["2", "2", "1", "1", "0", "0"]
    refused = client.post(url, json={"type": "Pass"}, headers=tokens[0])
    assert refused.status_code == 429 and 1 <= int(refused.headers["Retry-After"]) <= 10
    assert client.get(f"/v1/games/{created['id']}").json["version"] == answers[-1].json["version"]
