"""The GCRA rate limiter on Redis Cluster: one script call touches the address's and the token's keys
(they share a hash tag), and the limits behave as on a single Redis."""
from __future__ import annotations

from rules import RULESETS
from service import create_app
from tests.support.race import RACE


def test_address_and_token_limits_in_one_script_on_a_cluster(redis_cluster, redis_client, queue_redis):
    app = create_app({"REDIS_URL": redis_cluster.url, "QUEUE_REDIS_URL": queue_redis.url,
                      "RULESETS": {**RULESETS, "race": RACE}, "RATE_LIMIT_PER_ADDRESS": 60,
                      "RATE_LIMIT_PER_TOKEN": 6, "RATE_LIMIT_BURST_SECONDS": 30})
    client = app.test_client()
    created = client.post("/v1/games", json={"ruleset": "race", "seats": [{"kind": "human"}] * 2}).json
    bearer = {"Authorization": f"Bearer {created['seats'][0]['token']}"}
    answers = [client.get(f"/v1/games/{created['id']}", headers=bearer) for _ in range(4)]
    # the token's burst is 3 (30 s of 6 a minute): the 4th is refused, with a wait of about one interval (10 s)
    assert [a.status_code for a in answers] == [200, 200, 200, 429]
    assert 1 <= int(answers[-1].headers["Retry-After"]) <= 10 and "from this token" in answers[-1].json["detail"]
    assert answers[0].headers["RateLimit-Limit"] == "6" and answers[0].headers["RateLimit-Remaining"] == "2"
    assert client.get(f"/v1/games/{created['id']}").status_code == 200  # the address still has room
