"""Narcos 7 Cartel cards: abilities at the moment the card allows, "aun cuando no sea tu turno" (ruling C1),
Burn the crops and the Crop guards that answer it on the attacker's turn, and the "any moment" cards."""
from __future__ import annotations

from tests.rules.narcos.support import N, first, legal, managing, play, refused, types, with_player

BURN = {"type": "PlayCartel", "card": "burn-crops-1", "target": 1}


def burning(seat_one_hand: list[str], crops: int = 2) -> dict:
    """Seat 0 in Management holding Burn the crops; seat 1 with `crops` crops and `seat_one_hand`."""
    state = managing(1)
    state = with_player(state, 0, hand=["burn-crops-1"])
    return with_player(state, 1, hand=list(seat_one_hand), crops=crops)


def test_crop_guards_answer_burn_the_crops_on_the_attackers_turn():
    # 7: "La carta de habilidad se puede usar en cualquier momento si la habilidad indicada lo permite (aun cuando
    # no sea tu turno)" / "even when it is not your turn" -- Crop guards (reconstructed) answer Burn the crops
    state = burning(["crop-guards-1"])
    events, state = play(state, 0, BURN)
    assert types(events) == ["CartelPlayed", "ReactionAsked"]
    assert first(events, "ReactionAsked") == {"kind": "burn-crops", "seat": 1, "attacker": 0, "card": "burn-crops-1"}
    assert N.awaiting(state) == {1: "response"} and legal(state, 0) == []
    assert legal(state, 1) == [{"type": "PlayCartel", "card": "crop-guards-1", "target": 0}, {"type": "PassReaction"},
                               {"type": "ConvertWorker"}]  # 8: "Convierte un trabajador ... en cualquier momento"
    assert N.view(state, 0)["window"] == {"kind": "burn-crops", "waiting": [1], "attacker": 0, "card": "burn-crops-1"}
    events, state = play(state, 1, {"type": "PlayCartel", "card": "crop-guards-1", "target": 0})
    assert "CropBurned" not in types(events) and state["players"][1]["crops"] == 2
    assert state["players"][0]["sicarios"] == 1  # the attacker's sicario is spent all the same
    assert state["window"] is None and N.awaiting(state) == {0: "move"} and state["turn"]["phase"] == "manage"
    assert state["cartel_discard"] == ["burn-crops-1", "crop-guards-1"]


def test_letting_the_attack_happen_burns_a_crop():
    # 6.2 Plantation: "El cultivo no se gasta ... pero otros jugadores podrían atacarlo" / "may attack it"
    state = burning(["crop-guards-1"])
    _, state = play(state, 0, BURN)
    events, state = play(state, 1, {"type": "PassReaction"})
    assert first(events, "CropBurned") == {"seat": 1, "by": 0, "card": "burn-crops-1"}
    assert state["players"][1]["crops"] == 1 and state["window"] is None and state["players"][1]["hand"]


def test_the_target_is_asked_whenever_it_holds_a_cartel_card_so_its_hand_stays_secret():
    # 7 (ruling C1): who is asked tells nothing a hand size does not; the clock lets the attack happen
    state = burning(["tip-off-1"])
    events, state = play(state, 0, BURN)
    assert "ReactionAsked" in types(events)
    assert [m for m in legal(state, 1) if m["type"] != "ConvertWorker"] == [{"type": "PassReaction"}]
    assert N.timeout_default(state, 1) == {"type": "PassReaction"}
    empty = burning([])
    events, after = play(empty, 0, BURN)
    assert types(events) == ["CartelPlayed", "CropBurned"] and after["players"][1]["crops"] == 1


def test_a_reaction_card_is_not_played_without_the_attack_it_answers():
    # 7: "si la habilidad indicada lo permite" / "at any moment the ability allows"
    state = with_player(managing(1), 0, hand=["crop-guards-1"])
    assert not [m for m in legal(state, 0) if m["type"] == "PlayCartel"]
    refused(state, 0, {"type": "PlayCartel", "card": "crop-guards-1", "target": 1}, rule="7")
    refused(state, 1, {"type": "PassReaction"}, rule="7")


def test_an_any_moment_card_is_played_on_another_players_turn():
    # 7: "aun cuando no sea tu turno" -- Money laundering (reconstructed) whenever its owner has a move: here
    # seat 1 answering a leftover Dealer on seat 0's turn
    state = managing(1, front=["dealer-chicago-1"])
    state = with_player(state, 1, stored=3, hand=["laundering-1"])
    _, state = play(state, 0, {"type": "EndActions"})
    _, state = play(state, 0, {"type": "CollectSales"})
    assert N.awaiting(state) == {1: "response"}
    move = {"type": "PlayCartel", "card": "laundering-1", "target": -1}
    assert move in legal(state, 1)
    _, state = play(state, 1, move)
    assert state["players"][1]["money"] == 5 and state["players"][1]["workers"] == 4
    assert N.awaiting(state) == {1: "response"}  # still answering the leftover Dealer
