"""Ratings over the API (issue 37 item 5): rated games between players update an OpenSkill rating per ruleset,
shown by GET /v1/rulesets/{name}/leaderboard, and the stored ratings equal those rebuilt from the finished
histories (a projection, not a counter)."""
from __future__ import annotations

from events import ratings
from service.wiring import engine
from tests.service.conftest import bearer


def player(client, name: str) -> str:
    created = client.post("/v1/players", json={"name": name})
    assert created.status_code == 201, created.json
    return created.json["key"]


def game_between(client, keys: list[str], creator: str) -> tuple[str, dict[int, str]]:
    """A race to 5 whose seats are bound to these players (the creator's at the creation, the others' at a
    claim), with the server's seed; its id and seat tokens."""
    seats = [{"kind": "human", "as_player": True}] + [{"kind": "open"}] * (len(keys) - 1)
    created = client.post("/v1/games", json={"ruleset": "race", "seats": seats, "options": {"goal": 5}},
                          headers=bearer(creator))
    assert created.status_code == 201, created.json
    game_id = created.json["id"]
    tokens = {0: created.json["seats"][0]["token"]}
    for seat, key in enumerate(keys[1:], start=1):
        claimed = client.post(f"/v1/games/{game_id}/seats/{seat}/claim", headers=bearer(key))
        assert claimed.status_code == 201, claimed.json
        tokens[seat] = claimed.json["token"]
    return game_id, tokens


def play_out(client, game_id: str, tokens: dict[int, str]) -> dict:
    for _ in range(500):
        docs = {s: client.get(f"/v1/games/{game_id}", headers=bearer(t)).json for s, t in tokens.items()}
        if any(doc["status"] == "finished" for doc in docs.values()):
            return docs[0]
        mover = next(s for s, doc in docs.items() if doc["legal_moves"])
        sent = client.post(f"/v1/games/{game_id}/commands", json=docs[mover]["legal_moves"][0],
                           headers=bearer(tokens[mover]))
        assert sent.status_code == 200, sent.json
    raise AssertionError("the race did not end")


def test_rated_games_make_a_leaderboard_equal_to_the_ratings_rebuilt_from_the_histories(app, client):
    ada, bo, cy = player(client, "Ada"), player(client, "Bo"), player(client, "Cy")
    winners = []
    for keys in ([ada, bo], [bo, cy], [ada, cy], [ada, bo, cy]):
        game_id, tokens = game_between(client, keys, keys[0])
        winners.append(play_out(client, game_id, tokens)["outcome"]["winners"])
    # a game one player resigns: the other wins, and the resigner ranks last
    game_id, tokens = game_between(client, [cy, ada], cy)
    assert client.post(f"/v1/games/{game_id}/seats/0/resign", headers=bearer(tokens[0])).status_code == 200
    board = client.get("/v1/rulesets/race/leaderboard")
    assert board.status_code == 200, board.json
    assert board.json["rated_games"] == 5
    rows = {row["name"]: row for row in board.json["players"]}
    assert {name: row["games"] for name, row in rows.items()} == {"Ada": 4, "Bo": 3, "Cy": 4}
    assert all(row["provisional"] for row in rows.values())
    assert [row["rating"] for row in board.json["players"]] == sorted((r["rating"] for r in rows.values()), reverse=True)
    with app.app_context():
        runner = engine().runner
        stored, _ = runner.store.ratings.ratings("race")
        assert stored == ratings.rebuild(runner, runner.store.ratings, "race")
        # and what the results say: the ratings folded from the games' own outcomes, in their order
        assert stored == ratings.fold(ratings.result_of(g.id, "race", g.table, g.outcome())
                                      for g in map(runner.load, runner.store.ratings.games("race")))


def test_a_player_against_a_bot_moves_both_and_the_leaderboard_lists_every_bot_level(client):
    """Bots carry ratings (issue 37 item 5): a game between a player and a bot seat is rated; the bot level's
    row moves from where it started, and every level of the ruleset is listed so a player can pick by it."""
    dee = player(client, "Dee")
    before = {row["level"]: row for row in client.get("/v1/rulesets/race/leaderboard").json["bots"]}
    assert set(before) == {"random", "slow"} and all(row["games"] == 0 for row in before.values())
    created = client.post("/v1/games", headers=bearer(dee), json={
        "ruleset": "race", "options": {"goal": 5},
        "seats": [{"kind": "human", "as_player": True}, {"kind": "bot", "level": "slow"}]})
    assert created.status_code == 201, created.json
    resigned = client.post(f"/v1/games/{created.json['id']}/seats/0/resign",
                           headers=bearer(created.json["seats"][0]["token"]))
    assert resigned.status_code == 200 and resigned.json["status"] == "finished", resigned.json
    board = client.get("/v1/rulesets/race/leaderboard").json
    bots = {row["level"]: row for row in board["bots"]}
    assert bots["slow"]["games"] == 1 and bots["slow"]["mu"] > before["slow"]["mu"]  # it won
    assert bots["random"] == before["random"]
    assert [row["name"] for row in board["players"]] == ["Dee"] and board["players"][0]["mu"] < 25


def test_a_game_with_a_fixed_seed_an_anonymous_seat_or_an_abort_is_not_rated(client):
    ada, bo = player(client, "Ann"), player(client, "Ben")
    fixed = client.post("/v1/games", headers=bearer(ada), json={
        "ruleset": "race", "seed": "chosen", "options": {"goal": 5}, "seats": [{"kind": "human", "as_player": True},
                                                                           {"kind": "open"}]})
    claimed = client.post(f"/v1/games/{fixed.json['id']}/seats/1/claim", headers=bearer(bo))
    play_out(client, fixed.json["id"], {0: fixed.json["seats"][0]["token"], 1: claimed.json["token"]})
    anonymous = client.post("/v1/games", headers=bearer(ada), json={
        "ruleset": "race", "options": {"goal": 5}, "seats": [{"kind": "human", "as_player": True}, {"kind": "human"}]})
    play_out(client, anonymous.json["id"], {s["seat"]: s["token"] for s in anonymous.json["seats"]})
    board = client.get("/v1/rulesets/race/leaderboard").json
    assert board["rated_games"] == 0 and board["players"] == []


def test_a_leaderboard_of_no_such_ruleset_is_404_and_a_bad_limit_400(client):
    assert client.get("/v1/rulesets/chess/leaderboard").status_code == 404
    for limit in ("0", "201", "x"):
        answer = client.get(f"/v1/rulesets/race/leaderboard?limit={limit}")
        assert answer.status_code == 400 and answer.mimetype == "application/problem+json", answer.json
