"""Two web nodes and two workers on a 3-master Redis Cluster (events) and a plain
Redis (RQ): games are played through both nodes alternately, followed over SSE
across nodes, exported and verified; each node's /metrics counts what it did."""
from __future__ import annotations

import random
import time
from concurrent.futures import ThreadPoolExecutor

import pytest
import requests
from prometheus_client.parser import text_string_to_metric_families

from clients.sdk import CartelClient, SeatSpec
from tests.support.processes import Gunicorn, Worker, metrics_dir, wait_until


@pytest.fixture(scope="module")
def nodes(redis_cluster, queue_redis, tmp_path_factory):
    """Two "machines": each a gunicorn and an RQ worker sharing a metrics directory."""
    redis_cluster.client().flushall()
    queue_redis.client().flushall()
    logs = tmp_path_factory.mktemp("two-nodes")
    webs, workers = [], []
    for name in ("a", "b"):
        env = {"QUEUE_REDIS_URL": queue_redis.url, "PROMETHEUS_MULTIPROC_DIR": str(metrics_dir(logs)),
               "SWEEP_SECONDS": "1"}
        workers.append(Worker(redis_cluster.url, logs / f"worker-{name}.log", extra_env=env))
        webs.append(Gunicorn(redis_cluster.url, logs / f"gunicorn-{name}.log", workers=2, extra_env=env))
    try:
        for worker in workers:
            worker.start()
        with ThreadPoolExecutor(len(webs)) as pool:  # the four processes start side by side
            for started in [pool.submit(web.start) for web in webs]:
                started.result()
        for web in webs:
            wait_until(lambda: "2 alive" in requests.get(web.url + "/readyz", timeout=5).text, timeout=60,
                       what=f"both workers in {web.url}/readyz")
        yield webs
    finally:
        with ThreadPoolExecutor(len(workers + webs)) as pool:
            list(pool.map(lambda process: process.stop(), workers + webs))


def scrape(url: str) -> dict[tuple, float]:
    assert requests.get(url + "/metrics", timeout=5).headers["Content-Type"].startswith("text/plain; version=0.0.4")
    return {(s.name, tuple(sorted(s.labels.items()))): s.value
            for family in text_string_to_metric_families(CartelClient(url).metrics()) for s in family.samples}


def total(scrapes, name: str, **labels) -> float:
    return sum(samples.get((name, tuple(sorted(labels.items()))), 0.0) for samples in scrapes)


def sse_versions(url: str, game_id: str, last_event_id: int) -> list[int]:
    """The ids of a finished game's SSE stream, resumed with Last-Event-ID."""
    response = requests.get(f"{url}/v1/games/{game_id}/events", stream=True, timeout=20,
                            headers={"Accept": "text/event-stream", "Last-Event-ID": str(last_event_id)})
    return [int(line[4:]) for line in response.iter_lines(decode_unicode=True) if line.startswith("id: ")]


def test_a_kingpin_game_through_both_nodes_alternately(nodes, tmp_path):
    node_a, node_b = nodes
    before = [scrape(web.url) for web in nodes]
    created = CartelClient(node_b.url).create_game(
        "kingpin", [SeatSpec.human("tester"), SeatSpec.bot("greedy"), SeatSpec.bot("random")],
        options={"target": 3000}, seed="cluster-kingpin")
    me = [CartelClient(web.url).with_token(created.tokens[0]) for web in nodes]
    choice = random.Random(11)
    moves_sent, turn, deadline = 0, 0, time.monotonic() + 120  # ~3 s on an idle machine
    game = me[0].game(created.id)
    while not game.finished:
        assert time.monotonic() < deadline, f"game still running at version {game.version}"
        node = me[turn % 2]  # every read and every move goes to the other node than the last one
        turn += 1
        if game.my_turn and game.legal_moves:
            result = node.send_fresh(created.id, lambda g: choice.choice(g.legal_moves) if g.legal_moves else None)
            moves_sent += result is not None
            game = me[turn % 2].game(created.id)
        else:
            game = node.game_if_changed(created.id, game.version) or game
            time.sleep(0.02)
    assert moves_sent > 0
    assert game.raw["outcome"]["winners"]
    actors = {e.actor.split(":")[0] for e in me[1].iter_events(created.id)}
    assert {"seat", "bot", "system"} <= actors

    # exported from one node, verified by the other
    path = tmp_path / "kingpin.jsonl"
    assert me[0].export_history(created.id, path) > 0
    verdict = me[1].verify(path)
    assert verdict.valid, (verdict.diverged_at, verdict.reason)
    # SSE needs no stickiness: a stream read up to version 10 on one node resumes on the other
    assert sse_versions(node_a.url, created.id, 0)[:10] == list(range(1, 11))
    assert sse_versions(node_b.url, created.id, 10) == list(range(11, game.version + 1))

    # each node counts its own processes (gunicorn's and its worker's); together they saw every move
    after = [scrape(web.url) for web in nodes]
    accepted = total(after, "cartel_commands_accepted_total", ruleset="kingpin", actor="seat") - \
        total(before, "cartel_commands_accepted_total", ruleset="kingpin", actor="seat")
    assert accepted == moves_sent
    assert total(after, "cartel_commands_accepted_total", ruleset="kingpin", actor="bot") > 0
    assert total(after, "cartel_job_lag_seconds_count", job="play_bot") > 0
    assert total(after, "cartel_append_seconds_count", outcome="ok") > moves_sent
    for samples in after:  # read from the lobby indexes: the same on every node
        assert samples[("cartel_games", (("status", "finished"),))] >= 1


def test_a_bot_game_created_on_one_node_finishes_and_verifies_on_the_other(nodes, tmp_path):
    node_a, node_b = nodes
    lobby_a, lobby_b = CartelClient(node_a.url), CartelClient(node_b.url)
    created = lobby_a.create_game("kingpin", [SeatSpec.bot("greedy"), SeatSpec.bot("random")],
                                  options={"target": 3000}, seed="cluster-bots")
    game = wait_until(lambda: (g := lobby_b.game(created.id)).finished and g, timeout=120, interval=0.2,
                      what="the bot game to finish")
    assert game.raw["outcome"]["winners"]
    path = tmp_path / "bots.jsonl"
    assert lobby_b.export_history(created.id, path) > 0
    verdict = lobby_a.verify(path)
    assert verdict.valid, (verdict.diverged_at, verdict.reason)
    assert [e.version for e in lobby_a.follow(created.id)] == list(range(1, game.version + 1))
    finished = {g.id for g in lobby_b.games(status="finished").games}
    assert created.id in finished
    assert all(scrape(web.url)[("cartel_games", (("status", "finished"),))] == len(finished) for web in nodes)
