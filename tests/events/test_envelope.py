"""Stored events are upcast when read, never rewritten."""
from __future__ import annotations

from events import envelope
from events.envelope import decode_entry, encode_fields, register_upcaster, upcast
from rules.base import Event


def test_an_old_event_is_upcast_step_by_step(monkeypatch):
    monkeypatch.setattr(envelope, "UPCASTERS", {})
    register_upcaster(1, "CashPaid", lambda t, d: (t, {**d, "currency": "USD"}))
    register_upcaster(2, "CashPaid", lambda t, d: ("MoneyPaid", {"amount": d["dollars"], "currency": d["currency"]}))
    assert upcast("CashPaid", {"dollars": 200}, 1, current=3) == ("MoneyPaid", {"amount": 200, "currency": "USD"}, 3)
    assert upcast("Other", {"x": 1}, 1, current=3) == ("Other", {"x": 1}, 3)


def test_decoding_an_entry_reads_every_envelope_field():
    fields = dict(zip(*[iter(encode_fields(Event("DiceRolled", {"dice": [1, 4]}), "bot:2", 99, "c9",
                                           {"type": "RollDice"}))] * 2))
    decoded = decode_entry("g", "17-0", fields)
    assert (decoded.version, decoded.type, decoded.data, decoded.actor, decoded.seat, decoded.at) == \
        (17, "DiceRolled", {"dice": [1, 4]}, "bot:2", 2, 99)
    assert decoded.command == {"type": "RollDice"} and decoded.history_dict()["command"] == {"type": "RollDice"}
    assert "command" not in decoded.public_dict()
