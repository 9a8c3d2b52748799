"""Buying and Playing Crop Cards: the deck (38, split reconstructed), one card a turn, Gangsta and the
Mob Boss, the five Progress cards (texts reconstructed), Victory Point cards kept hidden."""
from __future__ import annotations

import json

from rules.base import redact
from rules.lords_of_cannabis.cards import CARD, CROPS_FILE, crop_deck
from rules.lords_of_cannabis.state import public_points, total_points
from tests.rules.lords_of_cannabis.support import (
    L,
    cards,
    crops,
    first,
    greenhouse,
    legal,
    play,
    refused,
    route,
    table,
    tunnel,
    types,
)

FUEL, CEMENT, WATER, SEEDS, SOIL = range(5)


def test_the_deck_has_38_cards_and_says_what_is_reconstructed():
    # issue: "38 Crop cards"; Progress cards: "each have their own specified actions on them" (unpublished)
    data = json.loads(CROPS_FILE.read_text(encoding="utf-8"))
    assert "reconstructed" in data["reconstructed"] and len(crop_deck()) == 38
    assert crop_deck().count("gangsta") == 18 and not CARD["strong_arm"]["printed"]
    assert CARD["get_jacked"]["name"] == "Get Jacked!"


def test_a_bought_card_comes_off_the_top_and_only_the_buyer_sees_it():
    # Buying a Crop Card: "requires 1 each of FUEL, SEEDS, and SOIL"; "you must take one from the top of the
    # shuffled pile. Conceal all of your Crop Cards until they are played."
    deck = crop_deck()
    deck.remove("strong_arm")
    state = cards(table(3, phase="main", deck=["strong_arm"] + deck), 0, FUEL=1, SEEDS=1, SOIL=1)
    events, state = play(state, 0, {"type": "BuyCrop"})
    assert first(events, "CropBought") == {"seat": 0, "secret": {"card": "strong_arm"}}
    assert L.visible_to(events[0]) == {0} and "secret" not in redact(L, events[0], 1).data
    assert L.view(state, 0)["players"][0]["crops"] == ["strong_arm"]
    assert "crops" not in L.view(state, 1)["players"][0] and L.view(state, 1)["players"][0]["crop_count"] == 1
    assert state["hands"][0] == [0] * 5 and len(state["deck"]) == 37


def test_only_one_crop_card_a_turn_and_it_may_come_before_the_roll():
    # Playing Crop Cards: "You may play only one Crop Card at any time during your turn"; Turn Overview: "Crop Cards
    # can be played before a roll or after"
    state = crops(table(3, phase="roll"), 0, "mass_production", "strong_arm")
    assert {"type": "PlayMassProduction", "resources": ["FUEL", "SOIL"]} in legal(state, 0)
    events, state = play(state, 0, {"type": "PlayMassProduction", "resources": ["SOIL", "FUEL"]})
    assert state["hands"][0] == [1, 0, 0, 0, 1] and state["phase"] == "roll"
    assert not any(m["type"].startswith("Play") for m in legal(state, 0))
    refused(state, 0, {"type": "PlayStrongArm", "resource": "SOIL"}, "Playing Crop Cards", "only one")
    # "All played Crop Cards are returned to the bottom of the deck face up."
    assert state["deck"][-1] == "mass_production"


def test_gangsta_moves_the_sheriff_and_takes_a_random_card_from_each_busted_player_in_secret():
    # Gangsta Cards: "You must remove the Sheriff from his current location and dispatch him to another location of
    # your choice. The player or players who are now busted by the Sheriff must allow the dispatcher to select a
    # random card out of each of their decks"
    state = greenhouse(greenhouse(greenhouse(table(4), 1, 29), 2, 37), 0, 23)
    state = crops(cards(cards(state, 1, WATER=2), 2, SOIL=1), 0, "gangsta")
    state = {**state, "sheriff": 12}
    refused(state, 0, {"type": "PlayGangsta", "brick": 12}, "Gangsta Cards", "not already on")
    events, state = play(state, 0, {"type": "PlayGangsta", "brick": 11})   # 29 borders 11; 37 and 23 do not
    assert types(events) == ["GangstaPlayed", "CardStolen"]
    stolen = events[1]
    assert stolen.data["from"] == 1 and stolen.data["secret"] == {"resource": "WATER"}
    assert L.visible_to(stolen) == {0, 1} and "secret" not in redact(L, stolen, 2).data
    assert state["hands"][0][WATER] == 1 and state["sheriff"] == 11 and state["gangstas"][0] == 1
    # "'Gangsta' Cards that are played remain face up throughout the rest of the game."
    assert "gangsta" not in state["deck"][-1:] and state["crops"][0] == []


def played_gangstas(state, counts):
    """Given Gangsta cards already face up in front of the seats (taken out of the deck)."""
    deck = list(state["deck"])
    for _ in range(sum(counts)):
        deck.remove("gangsta")
    return {**state, "deck": deck, "gangstas": list(counts)}


def test_three_gangstas_make_the_mob_boss_and_only_more_take_it_away():
    # Gangsta Cards: "The first player to turn up three 'Gangsta' Cards gets the Mob Boss Card, which is worth 2
    # Victory Points"; "he does not become Mob Boss until he can obtain one more 'Gangsta' Card than the Mob Boss."
    state = played_gangstas(crops(table(3, phase="roll"), 0, "gangsta"), [2, 3, 0])
    state = {**state, "mob_boss": 1}
    _, state = play(state, 0, {"type": "PlayGangsta", "brick": 3})
    assert state["gangstas"][0] == 3 and state["mob_boss"] == 1            # a tie keeps the holder
    state = {**crops(state, 0, "gangsta"), "crop_played": False}
    _, state = play(state, 0, {"type": "PlayGangsta", "brick": 4})
    assert state["mob_boss"] == 0 and public_points(state, 0) == 2 and public_points(state, 1) == 0


def test_tunnel_building_builds_two_tunnels_free():
    # Progress Cards: "Tunnel Building" (reconstructed text: "Build up to 2 Tunnels free of cost")
    state = crops(greenhouse(table(3, phase="main"), 0, 29), 0, "tunnel_building")
    _, state = play(state, 0, {"type": "PlayTunnelBuilding"})
    assert state["phase"] == "tunnels" and {"type": "EndTunnelBuilding"} in legal(state, 0)
    _, state = play(state, 0, {"type": "BuildTunnel", "path": route(29, 22)[0]})
    _, state = play(state, 0, {"type": "BuildTunnel", "path": route(22, 28)[0]})
    assert state["phase"] == "main" and state["stock"][0][0] == 12 and state["hands"][0] == [0] * 5


def test_up_sizing_strong_arm_and_get_jacked():
    # Progress Cards (reconstructed texts): "Up-Sizing" flips a Greenhouse free; "Strong-Arm" takes every card of a
    # resource from the others; "Get Jacked!" takes a random card from one player
    state = crops(greenhouse(table(3, phase="main"), 0, 29), 0, "up_sizing", "strong_arm", "get_jacked")
    _, after = play(state, 0, {"type": "PlayUpSizing", "at": 29})
    assert after["sites"][29] == [0, 2] and after["points"][0] == 2
    state = cards(cards(state, 1, SOIL=2, FUEL=1), 2, SOIL=3)
    events, after = play(state, 0, {"type": "PlayStrongArm", "resource": "SOIL"})
    assert first(events, "StrongArmPlayed")["taken"] == [0, 2, 3] and after["hands"][0][SOIL] == 5
    events, after = play(state, 0, {"type": "PlayGetJacked", "victim": 2})
    assert types(events) == ["GetJackedPlayed", "CardStolen"] and after["hands"][0][SOIL] == 1
    refused(state, 0, {"type": "PlayGetJacked", "victim": 0}, "Progress Cards")


def test_victory_point_cards_stay_hidden_and_count_for_the_win_on_your_own_turn():
    # Victory Point Cards: "kept face down in front of you until the end of the game"; Winning the Game: "The first
    # player to accumulate at least TEN Victory Points during his turn immediately wins the game."
    state = tunnel(table(3, phase="main"), 0, *route(29, 22, 28))
    for node in (29, 42, 44, 2):
        state = greenhouse(state, 0, node, level=2)
    state = crops(cards(state, 0, CEMENT=1, WATER=1, SEEDS=1, SOIL=1), 0, "close_call")
    assert public_points(state, 0) == 8 and total_points(state, 0) == 9
    assert L.view(state, 1)["players"][0]["points"] == 8 and "total_points" not in L.view(state, 1)["players"][0]
    events, state = play(state, 0, {"type": "BuildGreenhouse", "at": 28})
    assert types(events) == ["GreenhouseBuilt", "GameWon"] and first(events, "GameWon")["points"] == 10
    assert L.outcome(state)["winners"] == [0] and L.awaiting(state) == {} and legal(state, 0) == []


def test_ten_points_won_on_another_players_turn_win_when_your_turn_begins():
    # Winning the Game: "during his turn" -- ruling: checked whenever the active player acts, so at the start of it
    state = table(3, current=2, phase="main")
    for node in (29, 42, 44, 2, 8):
        state = greenhouse(state, 0, node, level=2)
    assert total_points(state, 0) == 10 and L.outcome(state) is None
    events, state = play(state, 2, {"type": "EndTurn"})
    assert types(events) == ["TurnEnded", "GameWon"] and L.outcome(state)["winners"] == [0]
