"""Coalesced mat updates, fresh message per round, DMs with the Forbidden fallback."""

from __future__ import annotations

import asyncio
import random
import time

import pytest

from bot.discordio.publisher import Publisher
from bot.messages.outgoing import table_message
from bot.messages.tablelines import TABLE_LINES
from bot.messages.text import ROUND_OVER
from bot.tables.clock import FakeClock
from bot.tables.manager import TableManager
from tests.cogs.fakes import FakeCarrier, RecordingSink

G, C = 3, 900
ANN, BOB = 31, 32


@pytest.fixture
async def setup(db, bank, prefs, settings):
    clock = FakeClock()
    manager = TableManager(db, bank, prefs, settings, TABLE_LINES, clock=clock, rng=random.Random(5))
    sink = RecordingSink()
    # Pacing: see test_lobby_edits_are_paced… and test_carried_edits_are_spaced….
    publisher = Publisher(manager, sink, renderer=None, min_interval=0, carry_interval=0)
    return manager, sink, publisher, clock


async def test_burst_of_updates_is_coalesced_newest_wins(setup):
    manager, sink, publisher, clock = setup
    await manager.lobby.create_table(G, C, ANN, "ann", "tripoley", {"game_end": "rounds:2"})
    table = manager.registry.get(C)
    table.lobby_message_id = 1  # as if /tripoley start had posted it
    sink.gate = asyncio.Event()  # hold the first send in flight
    await manager.lobby.join(C, BOB, "bob")
    for _ in range(5):
        await manager.lobby.add_ai(C, ANN)
    await asyncio.sleep(0)
    sink.gate.set()
    await publisher.flush()
    edits = [c for c in sink.calls if c[0] == "edit"]
    # One edit in flight (after the join) + one for the newest state: not six.
    assert len(edits) == 2
    assert edits[-1][3].text.count("(Normal AI)") == 5


async def test_fresh_mat_each_round_and_edits_within_a_round(setup):
    manager, sink, publisher, clock = setup
    await manager.lobby.create_table(G, C, ANN, "ann", "tripoley", {"game_end": "rounds:2"})
    await manager.lobby.join(C, BOB, "bob")
    table = manager.registry.get(C)
    await manager.lobby.start(C, ANN)
    await publisher.flush()
    posts = [c for c in sink.calls if c[0] == "post"]
    assert table.mat_message_id == posts[-1][2] and table.mat_round == 1
    rounds_posted = {1}
    for _ in range(3000):
        if table.status != "playing":
            break
        clock.t = table.deadline
        await manager.timers.tick()
        await publisher.flush()
        rounds_posted.add(table.mat_round)
    assert table.status == "finished"
    posts = [c for c in sink.calls if c[0] == "post"]
    assert len(posts) == 2 + 1 + 1  # lobby message + one mat per round + the final standings
    assert not [c for c in posts if c[3].embeds], "no results of their own: each round's message tells them"
    # One showdown per round: each round's message is closed with its results under it (no buttons,
    # no showdown line in its text: the results show those hands), its picture kept.
    told = [c for c in sink.calls if c[0] == "edit" and c[2] in (posts[1][2], posts[2][2]) and c[3].embeds]
    # (between rounds the live message shows them already: the round pause is 3 s here)
    assert [c for c in told if c[3].components], "the results come as soon as the round ends"
    closings = [c for c in told if not c[3].components]
    assert [c[2] for c in closings] == [posts[1][2], posts[2][2]]
    assert not [c for c in sink.calls if c[0] == "strip"]
    titles = [[e["title"] for e in c[3].embeds] for c in closings]
    assert titles[0] == ["Round 1 — who collected what"] and titles[1][0] == "Round 2 — who collected what"
    assert set(titles[1][1:]) <= {"Game over — the last hands"}
    for c in closings:
        assert c[3].components == [] and c[3].text.endswith(ROUND_OVER) and "**Showdown:**" not in c[3].text
    assert closings[0][3].keep_image and closings[0][3].image is None
    # The end at the bottom: the standings are the last message posted, after every round's results.
    last_post = max(i for i, c in enumerate(sink.calls) if c[0] == "post")
    final = sink.calls[last_post]
    assert final[2] == posts[-1][2] == table.mat_message_id and "game over" in final[3].text
    assert sink.calls.index(closings[0]) < last_post < sink.calls.index(closings[1])
    # The last round's message keeps its own end: the round's mat, closed, without buttons.
    closing = closings[1]
    assert closing[3].render == "mat" and "🏁" not in closing[3].text
    assert "## 🃏 Tripoley (Cadaco) — round 2" in closing[3].text
    # No game controls are left: only Rematch, the whole game's Log and its Replay.
    assert [c.custom_id for c in final[3].components] == [
        f"tripoley:{table.id}:0:rematch",
        f"tripoley:{table.id}:0:gamelog",
        f"tripoley:{table.id}:0:replay",
    ]


async def test_hands_by_dm_and_closed_dms_reported_once(setup):
    manager, sink, publisher, clock = setup
    await manager.prefs.set_dm_hands(ANN, True)
    await manager.prefs.set_dm_hands(BOB, True)
    sink.closed_dms.add(BOB)
    await manager.lobby.create_table(G, C, ANN, "ann", "tripoley", {"game_end": "rounds:2"})
    await manager.lobby.join(C, BOB, "bob")
    table = manager.registry.get(C)
    await manager.lobby.start(C, ANN)
    await publisher.flush()
    dms = [c for c in sink.calls if c[0] == "dm"]
    assert [c[1] for c in dms] == [ANN]
    assert "Your hand" in dms[0][3].text and dms[0][3].components == []
    notices = [c for c in sink.calls if c[0] == "notice"]
    assert len(notices) == 1 and f"<@{BOB}>" in notices[0][3] and "Show my hand" in notices[0][3]
    # Next deal: bob is not told again.
    for _ in range(3000):
        if table.round >= 2 or table.status != "playing":
            break
        clock.t = table.deadline
        await manager.timers.tick()
    await publisher.flush()
    assert len([c for c in sink.calls if c[0] == "notice"]) == 1
    assert len([c for c in sink.calls if c[0] == "dm"]) == 2


class RateLimited(Exception):
    """Shaped like discord.HTTPException after discord.py gave up on a run of 429s."""

    status = 429


class FlakySink(RecordingSink):
    """Fails the next `failures` posts/edits with a 429, then works."""

    def __init__(self, failures: int = 0, status: int = 429) -> None:
        super().__init__()
        self.failures = failures
        self.status = status
        self.attempts = 0

    def _maybe_fail(self):
        self.attempts += 1
        if self.failures > 0:
            self.failures -= 1
            exc = RateLimited()
            exc.status = self.status
            raise exc

    async def post(self, channel_id, out):
        self._maybe_fail()
        return await super().post(channel_id, out)

    async def edit(self, channel_id, message_id, out):
        self._maybe_fail()
        await super().edit(channel_id, message_id, out)


@pytest.fixture
async def flaky(db, bank, prefs, settings):
    clock = FakeClock()
    manager = TableManager(db, bank, prefs, settings, TABLE_LINES, clock=clock, rng=random.Random(5))
    sink = FlakySink()
    publisher = Publisher(manager, sink, renderer=None, retry_base=0.01, retry_max=0.05)
    return manager, sink, publisher, clock


async def test_failed_send_is_retried_until_the_latest_state_is_shown(flaky):
    manager, sink, publisher, clock = flaky
    await manager.lobby.create_table(G, C, ANN, "ann", "tripoley", {"game_end": "rounds:2"})
    table = manager.registry.get(C)
    table.lobby_message_id = 1
    sink.failures = 7  # more than one edit's worth of 429s: the old publisher dropped this state
    await manager.lobby.join(C, BOB, "bob")
    await asyncio.wait_for(publisher.flush(), 5)
    edits = [c for c in sink.calls if c[0] == "edit"]
    assert len(edits) == 1 and f"<@{BOB}>" in edits[0][3].text
    assert sink.attempts == 8


async def test_newer_state_replaces_a_failing_one(flaky):
    manager, sink, publisher, clock = flaky
    await manager.lobby.create_table(G, C, ANN, "ann", "tripoley", {"game_end": "rounds:2"})
    table = manager.registry.get(C)
    table.lobby_message_id = 1
    sink.failures = 3
    await manager.lobby.join(C, BOB, "bob")
    await asyncio.sleep(0)  # the first edit fails…
    await manager.lobby.add_ai(C, ANN)  # …and a newer state comes in while it waits to retry
    await asyncio.wait_for(publisher.flush(), 5)
    edits = [c for c in sink.calls if c[0] == "edit"]
    assert edits and "(Normal AI)" in edits[-1][3].text and f"<@{BOB}>" in edits[-1][3].text
    assert len(edits) == 1  # the failed, older state was never shown


async def test_refused_send_is_not_retried_forever(flaky):
    manager, sink, publisher, clock = flaky
    sink.status = 403
    await manager.lobby.create_table(G, C, ANN, "ann", "tripoley", {"game_end": "rounds:2"})
    manager.registry.get(C).lobby_message_id = 1
    sink.failures = 1
    await manager.lobby.join(C, BOB, "bob")
    await asyncio.wait_for(publisher.flush(), 5)
    assert sink.attempts == 1 and not [c for c in sink.calls if c[0] == "edit"]
    await manager.lobby.add_ai(C, ANN)  # the next state goes through
    await asyncio.wait_for(publisher.flush(), 5)
    assert [c for c in sink.calls if c[0] == "edit"]


async def test_game_progress_never_waits_on_discord(setup):
    """With every send hanging (a REST call that never returns), the game still runs to its end."""
    manager, sink, publisher, clock = setup
    sink.gate = asyncio.Event()  # never set: every post/edit hangs
    await manager.lobby.create_table(G, C, ANN, "ann", "tripoley", {"game_end": "rounds:1"})
    await manager.lobby.add_ai(C, ANN)
    await manager.lobby.start(C, ANN)
    table = manager.registry.get_by_id(manager.registry.get(C).id)
    for _ in range(3000):
        if table.status != "playing":
            break
        clock.t = table.deadline
        await asyncio.wait_for(manager.timers.tick(), 2)
    assert table.status == "finished"
    sink.gate.set()
    await asyncio.wait_for(publisher.flush(), 5)
    assert "game over" in [c for c in sink.calls if c[0] in ("edit", "post")][-1][3].text


class TimedSink(RecordingSink):
    def __init__(self) -> None:
        super().__init__()
        self.edit_times: dict[int, list[float]] = {}

    async def edit(self, channel_id, message_id, out):
        await super().edit(channel_id, message_id, out)
        self.edit_times.setdefault(message_id, []).append(time.monotonic())


async def test_lobby_edits_are_paced_and_the_newest_wins(db, bank, prefs, settings):
    """Join, Add AI, Add AI, Start within a few ms: the lobby message is edited at most once per
    interval, and what it ends up showing is the newest state (the game started)."""
    manager = TableManager(db, bank, prefs, settings, TABLE_LINES, clock=FakeClock(), rng=random.Random(5))
    sink = TimedSink()
    publisher = Publisher(manager, sink, renderer=None, min_interval=0.3)
    await manager.lobby.create_table(G, C, ANN, "ann", "tripoley", {"game_end": "rounds:2"})
    table = manager.registry.get(C)
    table.lobby_message_id = LOBBY = 1  # as if /tripoley start had posted it
    await manager.lobby.join(C, BOB, "bob")
    await asyncio.sleep(0.01)  # the join's edit goes out at once
    await manager.lobby.add_ai(C, ANN)
    await manager.lobby.add_ai(C, ANN)
    await manager.lobby.start(C, ANN)
    await asyncio.wait_for(publisher.flush(), 5)
    lobby_edits = [c[3] for c in sink.calls if c[0] == "edit" and c[2] == LOBBY]
    times = sink.edit_times[LOBBY]
    assert len(lobby_edits) == 2, [o.text for o in lobby_edits]  # the join, then the newest state only
    assert "game started" in lobby_edits[-1].text
    assert all(b - a >= 0.3 - 0.02 for a, b in zip(times, times[1:])), times
    # The mat is posted right after, and its own edits are paced the same way.
    assert [c for c in sink.calls if c[0] == "post"]
    mat = table.mat_message_id
    for _ in range(4):
        table.add_log("something happened")
        publisher.publish(table)
        await asyncio.sleep(0.05)
    await asyncio.wait_for(publisher.flush(), 5)
    mat_times = sink.edit_times[mat]
    assert 1 <= len(mat_times) <= 2
    assert all(b - a >= 0.3 - 0.02 for a, b in zip(mat_times, mat_times[1:])), mat_times


async def test_text_only_edits_keep_the_picture(db, bank, prefs, settings):
    """The mat picture is uploaded only when it changes: an edit that changes only the text (a log
    line) keeps the message's picture and uploads nothing."""
    import json

    from bot.discordio.ui import message_kwargs

    def renderer(kind, view):
        return json.dumps(view, sort_keys=True, default=str).encode()  # a picture per distinct view

    manager = TableManager(db, bank, prefs, settings, TABLE_LINES, clock=FakeClock(), rng=random.Random(5))
    sink = RecordingSink()
    publisher = Publisher(manager, sink, renderer=renderer, min_interval=0)
    await manager.lobby.create_table(G, C, ANN, "ann", "tripoley", {"game_end": "rounds:1"})
    await manager.lobby.join(C, BOB, "bob")
    await manager.lobby.start(C, ANN)
    await publisher.flush()
    table = manager.registry.get(C)
    assert publisher.uploads == 1 and sink.calls[-1][0] == "post" and sink.calls[-1][3].image
    table.add_log("a line only the text shows")
    publisher.publish(table)
    await publisher.flush()
    kind, _, message_id, out = sink.calls[-1]
    assert (kind, message_id) == ("edit", table.mat_message_id) and "a line only the text shows" in out.text
    assert out.keep_image and out.image is None and "attachments" not in message_kwargs(out, edit=True)
    assert publisher.uploads == 1
    before = publisher.uploaded_bytes
    while table.status == "playing" and publisher.uploads == 1:  # moves until the picture changes
        aw = table.awaiting()
        action = manager.flow.ai_action(table, aw.seat).to_dict()
        action.pop("seat")
        await manager.play.act(manager.registry.get(C), table.seats[aw.seat].user_id, action)
        await publisher.flush()
    kind, _, _, out = sink.calls[-1]
    assert publisher.uploads == 2 and out.image and not out.keep_image and publisher.uploaded_bytes > before


async def test_a_late_picture_never_holds_up_the_text(db, bank, prefs, settings):
    """When the render workers are busy, an edit of the round's message shows its text (whose turn
    it is) with the old picture after ``picture_wait``; the new picture follows in the next edit."""
    import json
    import threading

    hold = threading.Event()  # set: a new picture is not drawn until ``drawn`` is released
    drawn, waiting = threading.Event(), threading.Event()

    def renderer(kind, view):
        if hold.is_set():
            waiting.set()
            drawn.wait(5)
        return json.dumps(view, sort_keys=True, default=str).encode()  # a picture per distinct view

    manager = TableManager(db, bank, prefs, settings, TABLE_LINES, clock=FakeClock(), rng=random.Random(5))
    sink = RecordingSink()
    publisher = Publisher(manager, sink, renderer=renderer, min_interval=0, picture_wait=0.05)
    await manager.lobby.create_table(G, C, ANN, "ann", "tripoley", {"game_end": "rounds:1"})
    await manager.lobby.join(C, BOB, "bob")
    await manager.lobby.start(C, ANN)
    await publisher.flush()
    table = manager.registry.get(C)
    hold.set()
    while not waiting.is_set():  # moves until one changes the picture (its drawing is held)
        assert table.status == "playing"
        calls = len(sink.calls)
        aw = table.awaiting()
        action = manager.flow.ai_action(table, aw.seat).to_dict()
        action.pop("seat")
        await manager.play.act(manager.registry.get(C), table.seats[aw.seat].user_id, action)
        for _ in range(50):
            await asyncio.sleep(0.01)
            if waiting.is_set() and len(sink.calls) > calls:
                break
    kind, _, message_id, out = sink.calls[-1]  # sent while the picture is still being drawn
    assert (kind, message_id) == ("edit", table.mat_message_id) and out.text == table_message(table).text
    assert out.keep_image and out.image is None
    uploads = publisher.uploads
    hold.clear()
    drawn.set()
    await asyncio.sleep(0.05)
    await publisher.flush()
    kind, _, message_id, out = sink.calls[-1]  # the picture followed
    assert (kind, message_id) == ("edit", table.mat_message_id) and out.image and not out.keep_image
    assert publisher.uploads == uploads + 1


async def test_a_new_rounds_message_does_not_wait_for_its_picture(db, bank, prefs, settings):
    """A new round's message is posted at once when its picture is late (without a picture: the
    old round's would be wrong there), and the picture is added by an edit once drawn."""
    import json
    import threading

    hold, drawn = threading.Event(), threading.Event()

    def renderer(kind, view):
        if hold.is_set():
            drawn.wait(5)
        return json.dumps(view, sort_keys=True, default=str).encode()

    clock = FakeClock()
    manager = TableManager(db, bank, prefs, settings, TABLE_LINES, clock=clock, rng=random.Random(5))
    sink = RecordingSink()
    publisher = Publisher(manager, sink, renderer=renderer, min_interval=0, picture_wait=0.05)
    await manager.lobby.create_table(G, C, ANN, "ann", "tripoley", {"game_end": "rounds:2"})
    await manager.lobby.join(C, BOB, "bob")
    await manager.lobby.start(C, ANN)
    await publisher.flush()
    table = manager.registry.get(C)
    while table.deadline_kind != "next-deal":  # to the pause before round 2
        clock.t = table.deadline
        await manager.timers.tick()
        await publisher.flush()
    hold.set()  # round 2's picture is held
    clock.t = table.deadline
    await manager.timers.tick()
    for _ in range(100):
        await asyncio.sleep(0.01)
        if table.mat_round == 2:
            break
    kind, _, message_id, out = next(c for c in reversed(sink.calls) if c[0] == "post" and not c[3].embeds)
    assert message_id == table.mat_message_id and table.mat_round == 2 and out.image is None
    hold.clear()
    drawn.set()
    await asyncio.sleep(0.05)
    await publisher.flush()
    kind, _, edited, out = sink.calls[-1]
    assert (kind, edited) == ("edit", message_id) and out.image and not out.keep_image


async def started_game(manager, publisher):
    """A two-player game with its first table message posted."""
    await manager.lobby.create_table(G, C, ANN, "ann", "tripoley", {"game_end": "rounds:2"})
    await manager.lobby.join(C, BOB, "bob")
    await manager.lobby.start(C, ANN)
    await publisher.flush()
    return manager.registry.get(C)


async def next_change(manager, publisher, table, clock):
    """Let the timer move the game on once (the player to act times out), then send what is due."""
    clock.t = table.deadline
    await manager.timers.tick()
    await publisher.flush()


async def test_a_click_on_the_table_message_carries_its_edits(setup):
    """While a click on the table message lives, the message's newest state goes through it (not
    counted by Discord): no channel edit of that message at all."""
    manager, sink, publisher, clock = setup
    table = await started_game(manager, publisher)
    mat = table.mat_message_id
    carrier = FakeCarrier(sink.calls)
    publisher.carriers.remember(table.id, C, carrier, mat)
    before = len(sink.calls)
    for _ in range(3):
        await next_change(manager, publisher, table, clock)
        if table.mat_message_id != mat:
            break
    sent = sink.calls[before:]
    carried = [c for c in sent if c[0] == "carried_edit"]
    assert carried
    if table.mat_message_id == mat:
        assert carried[-1][3].text == table_message(table).text  # the newest state
    assert not [c for c in sent if c[0] == "edit" and c[2] == mat]
    assert publisher.carried == len([c for c in sent if c[0].startswith("carried") or c[0] == "followup"])


async def test_a_dead_carrier_falls_back_to_one_channel_edit_and_is_forgotten(setup):
    manager, sink, publisher, clock = setup
    table = await started_game(manager, publisher)
    mat = table.mat_message_id
    publisher.carriers.remember(table.id, C, FakeCarrier(sink.calls, dead=True), mat)
    before = len(sink.calls)
    await next_change(manager, publisher, table, clock)
    edits = [c for c in sink.calls[before:] if c[0] == "edit" and c[2] == mat]
    assert len(edits) == 1 and edits[0][3].text == table_message(table).text
    assert publisher.carriers.for_message(mat) is None and publisher.carried == 0


async def test_an_expired_click_carries_nothing(db, bank, prefs, settings):
    """Interaction tokens live 15 minutes: an older click is not used."""
    now = [0.0]
    clock = FakeClock()
    manager = TableManager(db, bank, prefs, settings, TABLE_LINES, clock=clock, rng=random.Random(5))
    sink = RecordingSink()
    publisher = Publisher(manager, sink, renderer=None, min_interval=0, monotonic=lambda: now[0])
    table = await started_game(manager, publisher)
    publisher.carriers.remember(table.id, C, FakeCarrier(sink.calls), table.mat_message_id)
    now[0] = 15 * 60.0
    before = len(sink.calls)
    await next_change(manager, publisher, table, clock)
    assert not [c for c in sink.calls[before:] if c[0].startswith("carried")]
    assert [c for c in sink.calls[before:] if c[0] == "edit"]


async def test_round_results_close_the_rounds_own_message_through_its_click(setup):
    """At the end of a round: its results are told on the round's own message (one showdown per
    round, no message of their own), edited through the click made on it as it closes; only the new
    round's message is a channel post."""
    manager, sink, publisher, clock = setup
    table = await started_game(manager, publisher)
    first = table.mat_message_id
    carrier = FakeCarrier(sink.calls)
    publisher.carriers.remember(table.id, C, carrier, first)
    before = len(sink.calls)
    for _ in range(3000):
        if table.mat_message_id != first:
            break
        await next_change(manager, publisher, table, clock)
    await publisher.flush()
    sent = sink.calls[before:]
    assert not [c for c in sent if c[0] in ("post", "followup") and c[3].embeds], "no results of their own"
    told = [c for c in sent if c[0] == "carried_edit" and c[3].embeds]  # through the click on it
    assert told and told[-1][3].embeds[0]["title"] == "Round 1 — who collected what"
    closed = told[-1][3]
    assert closed.components == [] and "This round is over" in closed.text and closed.keep_image
    assert not [c for c in sent if c[0] in ("strip", "carried_strip")]
    assert [c[0] for c in sent if c[0] == "post"] == ["post"]  # round 2's message


async def test_carried_edits_are_spaced_by_carry_interval(db, bank, prefs, settings):
    """Edits through a click have a bucket of their own: at most one per carry_interval, newest state."""
    now = [100.0]
    clock = FakeClock()
    manager = TableManager(db, bank, prefs, settings, TABLE_LINES, clock=clock, rng=random.Random(5))
    sink = RecordingSink()
    publisher = Publisher(manager, sink, renderer=None, min_interval=0, carry_interval=0.5, monotonic=lambda: now[0])
    table = await started_game(manager, publisher)
    publisher.carriers.remember(table.id, C, FakeCarrier(sink.calls), table.mat_message_id)
    await next_change(manager, publisher, table, clock)
    assert len([c for c in sink.calls if c[0] == "carried_edit"]) == 1
    ch = publisher.queue.channels[C]
    assert publisher.sender.edit_wait(ch, table.mat_message_id) == pytest.approx(0.5)  # the click's bucket
    assert publisher.sender.edit_wait(ch, None) <= 0  # a channel edit: its own bucket (min_interval 0 here)
    now[0] += 0.5
    assert publisher.sender.edit_wait(ch, table.mat_message_id) <= 0
