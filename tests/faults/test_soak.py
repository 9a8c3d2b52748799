"""The soak of issue 28 (bench/soak.py), short: two nodes (Pushpin + gunicorn each) and a worker on one
Redis (AOF, appendfsync always), games of every ruleset played over HTTP by scripted clients and bots,
SSE followers on both nodes, and a SIGKILL of each kind of part (a gunicorn worker, a gunicorn master,
an RQ worker, a Pushpin, redis-server), each restarted.  Nothing acknowledged may be lost, every
history must verify, every follower must end holding each event once, and no game may be stuck."""
from __future__ import annotations

import pytest

from bench.soak import KINDS, PLAYED, Plan, soak


def assert_nothing_lost(result: dict) -> None:
    assert result["acks_lost"] == []
    assert result["histories_failed"] == []
    assert result["followers_unhealed"] == []
    assert result["stuck"] == []
    assert result["kill_errors"] == []
    assert result["lost"] == 0
    # every kind of fault happened, while clients were playing and following
    assert set(result["kills"]) == set(KINDS), result["kills"]
    assert set(result["rulesets"]) == set(PLAYED)
    assert result["acknowledged_commands"] > 0
    assert result["reconnects"] > 0  # a killed Pushpin or web master dropped streams, which resumed


def test_short_soak_loses_nothing_through_a_kill_of_each_kind(tmp_path_factory):
    # a short directory: Pushpin's IPC sockets live in it, and a Unix socket's path is at most 107 bytes
    # (under pytest-xdist, tmp_path's ".../popen-gw2/test_short_soak_loses_nothing_0/node0/run/..." is longer)
    result = soak(Plan(minutes=0.35, games=10, followers=50, kill_every=4, workers=1, player_threads=2,
                       think=0.5, quiet=6, seed="soak-short"), tmp_path_factory.mktemp("soak"))
    assert_nothing_lost(result)


@pytest.mark.soak  # about 4 minutes: on demand with the other soaks (`-m soak`), not in the default run
def test_three_minute_soak_loses_nothing(tmp_path_factory):
    result = soak(Plan(minutes=3, games=20, followers=150, kill_every=15, workers=2, player_threads=4,
                       quiet=15, seed="soak-slow"), tmp_path_factory.mktemp("soak"))
    assert_nothing_lost(result)
    assert sum(result["kills"].values()) >= 10
    assert result["games_ended"] > 0
