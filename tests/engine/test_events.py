"""The typed event records: their saved shape, reading it back, their words; the phase names' table."""

from __future__ import annotations

import dataclasses
import json

import pytest

from engine import Game
from engine import events as ev
from engine import textview as TV
from engine.events import EVENT_TYPES, EndReason, Event
from engine.phases import DECISION
from engine.phases.names import PHASE_TEXTS, PhaseName

# A value of each field type the records use, to make one record of every type.
SAMPLES = {
    "int": 1,
    "str": "AH",
    "bool": True,
    "int | None": None,
    "str | None": None,
    "list[int]": [3, 4],
    "dict[str, int]": {"0": 13},
    "dict[str, str]": {"0": "KS"},
    "dict[str, dict[str, Any]]": {"0": {"cards": ["AS", "KS", "QS", "JS", "TS"], "hand": "royal flush"}},
    "EndReason": EndReason.ROUND_LIMIT,
}


def sample(cls: type[Event]) -> Event:
    return cls(**{f.name: SAMPLES[f.type] for f in dataclasses.fields(cls)})


@pytest.mark.parametrize("kind", sorted(EVENT_TYPES))
def test_every_record_reads_back_from_its_saved_dict_and_has_words(kind):
    record = sample(EVENT_TYPES[kind])
    saved = record.to_dict()
    assert next(iter(saved)) == "type" and saved["type"] == kind
    assert json.loads(json.dumps(saved)) == saved  # plain JSON, enums as their values
    back = Event.from_dict(json.loads(json.dumps(saved)))
    assert type(back) is type(record) and back == record and back.to_dict() == saved
    game = Game.new("rummy-royal", ["ann", "bob", "cat"], seed=1)
    line = TV.describe_event(saved, game.view(None))
    assert line is None or line.strip()


def test_the_saved_shape_leaves_out_a_field_only_while_it_holds_its_default():
    assert ev.Pass(seat=1, kind="spare").to_dict() == {"type": "pass", "seat": 1, "kind": "spare"}
    assert ev.Pass(seat=1, kind="spare", forced=True).to_dict()["forced"] is True
    assert list(ev.PaySuit(suit="H", reason="nobody bid").to_dict()) == ["type", "suit", "reason"]
    assert list(ev.PaySuit(seat=2, suit="S").to_dict()) == ["type", "seat", "suit"]
    assert ev.Stop(seat=0, card="5C").to_dict() == {"type": "stop", "seat": 0, "card": "5C"}
    # a field without a default is always there, None or not
    assert ev.CornerStays(space="corner-AS", holder=None).to_dict() == {
        "type": "corner-stays",
        "space": "corner-AS",
        "holder": None,
    }


def test_a_record_reads_as_its_dict():
    pay = ev.Payout(space="AH", seat=2, amount=3, reason="placed")
    assert pay.type == "payout" and pay["type"] == "payout" and pay["seat"] == 2
    assert pay.get("forced") is None and "reason" in pay and dict(pay) == pay.to_dict()
    assert pay == {"type": "payout", "space": "AH", "seat": 2, "amount": 3, "reason": "placed"}
    assert pay != {"type": "payout", "space": "AH", "seat": 2, "amount": 4, "reason": "placed"}
    with pytest.raises(dataclasses.FrozenInstanceError):
        pay.amount = 4


def test_a_game_end_reason_is_an_enum_saved_as_its_words():
    end = Event.from_dict({"type": "game-end", "reason": "stopped by the host"})
    assert isinstance(end, ev.GameEnd) and end.reason is EndReason.HOST_STOP
    game = Game.new("tripoley", ["ann", "bob", "cat"], seed=2)
    game.next_deal()
    *_, stopped = game.end_now()
    assert stopped == end and stopped.to_dict() == {"type": "game-end", "reason": "stopped by the host"}
    restored = Game.from_json(game.to_json())
    assert isinstance(restored.game_events[-1], ev.GameEnd) and restored.game_events[-1].reason is EndReason.HOST_STOP


@pytest.mark.parametrize(
    ("data", "words"),
    [
        ({"type": "no-such-event"}, "unknown event type 'no-such-event'"),
        ({"seat": 1}, "unknown event type None"),
        ({"type": "payout", "seat": 1}, "bad payout event"),
        ({"type": "out", "seat": 1, "card": "AS"}, "bad out event"),
        ({"type": "game-end", "reason": "boredom"}, "bad game-end event"),
        ({"type": "game-end"}, "bad game-end event"),
    ],
)
def test_a_damaged_event_is_refused_with_a_clear_message(data, words):
    with pytest.raises(ValueError, match=words):
        Event.from_dict(data)


def test_the_terminal_frames_headline_events_and_the_sentence_has_no_frame():
    view = Game.new("tripoley", ["ann", "bob", "cat"], seed=2).view(None)
    end = ev.RoundEnd(round=2, stacks=[1, 2, 3])
    assert TV.describe_event(end, view) == "--- round 2 over ---"
    assert TV.event_sentence(end, view) == "round 2 over"
    assert TV.describe_event(ev.GameEnd(reason=EndReason.TIME_LIMIT), view) == "=== game over (time limit) ==="
    assert TV.event_sentence(ev.Out(seat=1), view) == TV.describe_event(ev.Out(seat=1), view) == "bob goes out"


def test_every_phase_has_its_words_and_every_decision_a_verb_and_a_prompt():
    assert set(PHASE_TEXTS) == set(PhaseName)
    assert set(DECISION) == {p for p, text in PHASE_TEXTS.items() if text.verb and text.prompt}
    assert TV.plain_message("waiting for seat 1 to poker-betting") == "waiting for seat 1 to bet"
