"""Narcos 4 Set-up, 5 the Narcos deck and the rounds, 2 the end of the game."""
from __future__ import annotations

from collections import Counter

from rules.base import Rng, fold
from rules.narcos.data import kind
from tests.rules.narcos.support import ANY_RNG, ROUND_TWO, N, first, legal, play, plays, refused, table, types


def test_setup_gives_each_player_the_starting_network_and_resources():
    # 4: "3 millones de dólares ... 5 Trabajadores ... 2 sicarios ... 1 cultivo ... 1 cargamento de coca ... en su
    # laboratorio"; "reparte una carta a cada jugador"
    state = fold(N, N.setup({}, 4, Rng("setup", 0)))
    for p in state["players"]:
        assert (p["money"], p["workers"], p["sicarios"], p["crops"], p["lab"], p["stored"]) == (3, 5, 2, 1, 1, 0)
        assert p["laboratory"] == "start-laboratory" and p["transport"] == "start-truck" and len(p["hand"]) == 1
    assert state["supply"] == 0  # "8 Meeples de sicario", 2 to each of 4 players


def test_round_one_deck_without_the_reserve_and_the_permanent_dealer():
    # 5: "retira aquellas cartas que tienen la marca de 2 círculos ... (un agente DEA, 7 militares, 4 aviones de
    # transporte y 4 de almacenamientos valor 12)"; 4: "deja uno al azar junto al mazo de Narcos, boca arriba"
    events = N.setup({"mode": "basic"}, 2, Rng("deck", 0))
    started, shuffled = events[0].data, events[1].data
    assert Counter(kind(c) for c in started["reserve"]) == {"military": 7, "transport": 4, "storage": 4, "dea": 1}
    assert kind(started["permanent"]) == "dealer" and started["permanent"] not in shuffled["secret"]["order"]
    assert shuffled["count"] == 51 and shuffled["kinds"]["dealer"] == 11 and "military" not in shuffled["kinds"]
    advanced = N.setup({"mode": "advanced"}, 2, Rng("deck", 0))
    assert advanced[0].data["permanent"] is None and advanced[1].data["count"] == 52
    assert sorted(advanced[0].data["tokens"].values()) == sorted(["-2", "speedboat", "plane", ">=8"])


def finish_turn(state, seat=0):
    """Stand, end actions, collect, pass improvements and every leftover buy."""
    _, state = plays(state, seat, {"type": "Stop"}, {"type": "EndActions"}, {"type": "CollectSales"})
    while state["turn"]["phase"] == "sales":
        _, state = play(state, state["turn"]["queue"][0], {"type": "PassSale"})
    _, state = play(state, seat, {"type": "PassImprovement"})
    while state["turn"]["phase"] == "buys":
        _, state = play(state, state["turn"]["queue"][0], {"type": "PassBuy"})
    return state


def test_fewer_than_seven_cards_lets_the_player_start_round_two():
    # 5 (*): "cuando un jugador, al inicio de turno, tenga disponibles menos de 7 cartas para jugar en el mazo,
    # puede escoger entre jugar con esas cartas o preparar el mazo ya para la ronda 2"
    state = table(["snitch-1"], deck_size=7)
    _, state = play(state, 0, {"type": "Draw"})
    state = finish_turn(state)
    assert state["turn"]["seat"] == 1 and legal(state, 1)[:2] == [{"type": "PlayOn"}, {"type": "StartRoundTwo"}]
    refused(state, 1, {"type": "Draw"}, rule="6.1")
    events, state = play(state, 1, {"type": "StartRoundTwo"})
    shuffled = first(events, "DeckShuffled")
    assert shuffled["round"] == 2 and shuffled["count"] == 6 + 1 + len(ROUND_TWO)  # left, discarded, reserved
    assert state["round"] == 2 and state["turn"]["phase"] == "draw"


def test_round_one_deck_running_out_rebuilds_the_deck_for_round_two():
    # 5: "Cuando se terminen las cartas de la primera ronda, se volverá a montar el mazo de Narcos mezclando las
    # cartas de los descartes con las cartas que estaban reservadas"
    state = table(["snitch-1", "storage-8-1"], deck_size=2)
    events, state = plays(state, 0, {"type": "PlayOn"}, {"type": "Draw"}, {"type": "Draw"})
    assert first(events, "DrawEnded")["reason"] == "deck empty"
    _, state = plays(state, 0, {"type": "EndActions"}, {"type": "CollectSales"}, {"type": "PassImprovement"})
    _, state = play(state, 1, {"type": "PassBuy"})
    assert state["round"] == 2 and len(state["deck"]) == 2 + len(ROUND_TWO)


def test_the_game_ends_when_the_round_two_deck_runs_out_and_the_most_money_wins():
    # 2: "El juego terminará cuando se acabe el mazo de cartas de la segunda ronda ... ganará el jugador con más
    # dinero en la mesa" (ruling: at the end of that turn; ties go to the most merchandise)
    state = table(["snitch-1"], deck_size=1)
    state = {**state, "round": 2, "turn": {**state["turn"], "phase": "draw"}}
    _, state = play(state, 0, {"type": "Draw"})
    state = {**state, "players": [{**state["players"][0], "money": 9}, {**state["players"][1], "money": 9, "lab": 4}]}
    _, state = plays(state, 0, {"type": "EndActions"}, {"type": "CollectSales"})
    events, state = play(state, 0, {"type": "PassImprovement"})
    assert first(events, "GameEnded")["winners"] == [1] and "merchandise" in first(events, "GameEnded")["reason"]
    assert N.outcome(state)["winners"] == [1] and N.awaiting(state) == {} and legal(state, 0) == []


def test_a_whole_game_is_replayable_from_its_events():
    # 5: the deck's order is drawn once, in the shuffle event; replaying never reshuffles
    events = N.setup({"mode": "advanced"}, 3, ANY_RNG)
    state = fold(N, events)
    for n in range(400):
        if N.outcome(state):
            break
        seat = min(N.awaiting(state))
        new = N.decide(state, seat, N.bot_move(state, seat, "greedy", Rng("r", n)), Rng("r", n))
        events += new
        state = fold(N, new, state)
    assert fold(N, events) == state and "TurnEnded" in types(events)
