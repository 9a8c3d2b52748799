"""Narcos secrets (hands, the peeked card, deck orders) and the bots (the greedy one counts public cards only)."""
from __future__ import annotations

import json

from rules.base import Rng, fold
from rules.narcos.bots import siren_odds
from tests.rules.narcos.support import N, draws, play, table, with_player


def test_deck_orders_are_secret_to_everyone_and_hands_to_their_seat():
    # 4: "Mezcla el resto de cartas"; "reparte una carta a cada jugador" (the deck face down, a Cartel hand in hand)
    events = N.setup({}, 3, Rng("secrets", 0))
    audiences = {e.type: N.visible_to(e) for e in events}
    assert audiences["DeckShuffled"] == set() and audiences["CartelShuffled"] == set()
    dealt = [e for e in events if e.type == "CartelDealt"]
    assert [N.visible_to(e) for e in dealt] == [{0}, {1}, {2}]
    state = fold(N, events)
    for seat in (None, 0, 1, 2):
        text = json.dumps(N.view(state, seat))
        assert json.dumps(state["deck"]) not in text and json.dumps(state["cartel_deck"]) not in text
        for other in range(3):
            shown = N.view(state, seat)["players"][other]
            assert ("hand" in shown) == (other == seat) and shown["hand_count"] == 1


def test_cards_turned_are_public():
    # 6.1: "levantando cartas ... boca arriba" / "face up"
    state = table(["storage-8-1"])
    events, state = draws(state, 1)
    assert N.visible_to(events[0]) == "public" and N.view(state, 1)["seen"] == ["storage-8-1"]


def test_siren_odds_count_the_public_composition_less_the_cards_seen():
    # 6.1: the greedy bot pushes its luck from what every player knows (the deck's contents, the cards turned)
    state = table(["snitch-1", "storage-8-1"])
    view = N.view(state, 0)
    assert abs(siren_odds(view) - 24 / 51) < 1e-9  # 5 Press, 8 Snitch, 10 Police, 1 DEA among 51
    _, state = draws(state, 1)
    assert abs(siren_odds(N.view(state, 0)) - 23 / 50) < 1e-9


def test_greedy_never_reads_the_hidden_deck():
    # rules-gaps 5: the bot decides from public information: reordering the hidden deck changes nothing it does
    state = table(["snitch-1", "storage-8-1", "storage-8-2"])
    _, state = draws(state, 2)
    shuffled = {**state, "deck": list(reversed(state["deck"]))}
    for probe in range(20):
        rng = Rng("greedy", probe)
        assert N.bot_move(state, 0, "greedy", rng) == N.bot_move(shuffled, 0, "greedy", Rng("greedy", probe))


def test_greedy_stops_at_two_sirens_when_the_odds_are_bad_and_draws_when_safe():
    # 6.1: "Si llegas a levantar 3 sirenas, tendrás que huir" -- at 2 sirens with several actions banked, stop
    state = with_player(table(["storage-8-1", "storage-8-2", "dealer-chicago-1", "police-1", "police-2"]), 0,
                        sicarios=0)
    _, state = draws(state, 1)
    assert N.bot_move(state, 0, "greedy", Rng("g", 1)) == {"type": "Draw"}
    _, state = draws(state, 2)
    _, state = play(state, 0, {"type": "Draw"})
    _, state = play(state, 0, {"type": "Draw"})
    assert state["turn"]["phase"] == "draw" and N.bot_move(state, 0, "greedy", Rng("g", 2)) == {"type": "Stop"}
