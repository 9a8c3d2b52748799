"""Issue 37's "done when": a bot written with the SDK that only follows `me/stream` plays every game it is
challenged to, in all five rulesets, against real gunicorn, a real RQ worker and Redis.

Two such bots run, each a player following nothing but its own stream: Ada challenges Robo once per ruleset
(the shortest tables, as tests/e2e/test_web_play_every_game.py plays them; Trafficking's third seat is a
server bot), and each plays its seat whenever its stream says `your_turn`, renewing its seat token from its key
when it did not get one.  Robo accepts every challenge its stream brings; both stop after five `game_finished`.
"""
from __future__ import annotations

import random
import threading

import pytest

from clients.sdk import CartelClient, Conflict, IllegalMove, ProblemError
from rules import RULESETS
from tests.support.processes import database, running_service

SHORTEST = {"kingpin": {"target": 3000, "turn_limit": 25}, "druglord": {"game_to": 20}, "narcos": {"mode": "basic"}}
GAME_SECONDS = 300
# The test bot's one preference: it never proposes a trade (Lords of Cannabis), which random play makes the
# most of its moves (thousands a game); among the other legal moves it picks at random.
TRADES = ("MakeOffer", "OfferToAll", "CounterOffer")


def play_while_awaited(seat_client: CartelClient, game_id: str, seat: int, rng: random.Random) -> None:
    """Play the seat's moves (at random among the legal ones, trades aside) for as long as the game awaits it."""
    while True:
        game = seat_client.game(game_id)
        if game.status != "active" or seat not in game.awaiting or not game.legal_moves:
            return
        try:
            quiet = [move for move in game.legal_moves if move["type"] not in TRADES]
            seat_client.send(game_id, rng.choice(quiet or game.legal_moves), expected_version=game.version)
        except (Conflict, IllegalMove):  # the game moved on meanwhile (a server bot, a clock): read it again
            continue


def stream_bot(client: CartelClient, games: int, seen: list, errors: list, rng: random.Random) -> None:
    """The bot: everything it does starts from a note of its stream.  `challenge_accepted` names the game (its
    seat's entropy is sent then), `game_started` and `your_turn` have it play while its seat is awaited."""
    seats: dict[str, tuple[int, CartelClient]] = {}
    finished = 0
    try:
        with client.my_stream(after="0-0", read_timeout=30) as stream:
            for note in stream:
                seen.append((note.kind, note.data))
                if note.kind == "challenge":
                    accepted = client.accept(note.data["challenge"])
                    seats[accepted["game_id"]] = (accepted["seat"], client.with_token(accepted["token"]))
                elif note.kind in ("challenge_accepted", "game_started", "your_turn"):
                    game_id, seat = note.data["game_id"], note.data["seat"]
                    if game_id not in seats:  # a game it challenged to: its seat's token from its key
                        seats[game_id] = (seat, client.with_token(client.renew_seat_token(game_id, seat)))
                    if note.kind == "challenge_accepted":  # the game waits for its players' entropy: send ours
                        seat_client = seats[game_id][1]
                        seat_client.contribute_if_owed(game_id, seat, seat_client.game(game_id).raw["contributions"])
                    else:
                        play_while_awaited(seats[game_id][1], game_id, seat, rng)
                elif note.kind == "game_finished":
                    finished += 1
                    if finished == games:
                        return
    except (ProblemError, OSError) as error:
        errors.append(error)


@pytest.mark.timeout(GAME_SECONDS + 120)
def test_a_bot_that_follows_only_its_stream_plays_every_game_it_is_challenged_to(redis_server, tmp_path):
    # the games wait for their players' entropy, as the service ships (30 s): each bot sends its own at once
    with running_service(database(redis_server.url, 11), tmp_path, env={"CONTRIBUTION_SECONDS": "30"}) as web:
        lobby = CartelClient(web.url, timeout=30)
        ada = lobby.with_token(lobby.create_player("Ada")["key"])
        robo = lobby.with_token(lobby.create_player("Robo")["key"])
        notes: dict[str, list] = {"Ada": [], "Robo": []}
        errors: list = []
        bots = [threading.Thread(target=stream_bot, args=(who, len(RULESETS), notes[name], errors,
                                                          random.Random(name)), daemon=True)
                for name, who in (("Ada", ada), ("Robo", robo))]
        for bot in bots:
            bot.start()
        challenges = [ada.challenge("Robo", name, options=SHORTEST.get(name)) for name in RULESETS]
        for bot in bots:
            bot.join(GAME_SECONDS)
        assert not errors, errors
        assert not any(bot.is_alive() for bot in bots), {name: [k for k, _ in seen[-5:]] for name, seen in notes.items()}

        games = {c["id"]: c for c in ada.my_challenges()}
        assert {games[c["id"]]["status"] for c in challenges} == {"accepted"}
        game_ids = {games[c["id"]]["game_id"] for c in challenges}
        for game_id in game_ids:
            game = lobby.game(game_id)
            assert game.status == "finished" and game.outcome, game
            assert [seat.player for seat in game.seats[:2]] == [ada.me()["id"], robo.me()["id"]]
        assert {lobby.game(game_id).ruleset for game_id in game_ids} == set(RULESETS)
        assert all(lobby.game(game_id).raw["seed_source"] == "server" for game_id in game_ids)
        # each bot's stream told it each game's start, at least one turn and the end, in that order
        for name, seen in notes.items():
            for game_id in game_ids:
                kinds = [kind for kind, data in seen if data.get("game_id") == game_id]
                assert kinds[0] == "challenge_accepted" and kinds[1] == "game_started", (name, kinds)
                assert "your_turn" in kinds and kinds[-1] == "game_finished", (name, kinds)
        assert [kind for kind, _ in notes["Robo"]].count("challenge") == len(RULESETS)
