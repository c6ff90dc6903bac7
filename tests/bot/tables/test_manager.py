from __future__ import annotations

import json
import random

import pytest

from bot import errors
from bot.economy.bank import HOUSE
from engine.replay import run_replay

G, C = 1, 500  # guild, channel
ANN, BOB = 11, 22


async def lobby(manager, *, ai=1, humans=(ANN, BOB), options=None, buy_in=100):
    await manager.lobby.create_table(
        G, C, humans[0], f"user{humans[0]}", "tripoley", options or {"game_end": "rounds:2"}, buy_in=buy_in
    )
    for h in humans[1:]:
        await manager.lobby.join(C, h, f"user{h}")
    for _ in range(ai):
        await manager.lobby.add_ai(C, humans[0])
    return manager.registry.get(C)


async def drive_to_human(manager, clock, table, limit=200, in_turn=False):
    """Fire AI/next-deal deadlines until a human must act (or the game ends). In a step every seat
    decides at once, the other players still choosing choose first (their Normal AI's choice), so
    the seat returned is the one left to act, as in a decision in turn (``in_turn``: all of them
    choose, and the drive goes on to a decision in turn)."""
    for _ in range(limit):
        if table.status != "playing":
            return None
        if table.deadline_kind == "turn":
            game = table.game
            together = game.is_simultaneous()
            for s in game.acting_seats()[0 if in_turn else 1 :] if together else []:
                action = manager.flow.ai_action(table, s).to_dict()
                action.pop("seat")
                await manager.play.act(
                    manager.registry.get(table.channel_id), table.seats[s].user_id, action, table.round
                )
            if in_turn and together:
                continue
            return table.deadline_seat
        clock.t = table.deadline
        await manager.timers.tick()
    raise AssertionError("no human turn reached")


async def test_lobby_buy_ins_refund_and_conservation(manager, bank):
    table = await lobby(manager, ai=1)
    assert [s.stake for s in table.seats] == [100, 100, 100]
    assert (await bank.audit(G)).tables == 300
    await manager.lobby.leave(C, BOB)
    assert await bank.balance(G, BOB, 0) == 1000
    await manager.play.stop(C, ANN, can_manage=False)
    assert C not in manager.registry.by_channel
    audit = await bank.audit(G)
    assert audit.ok and audit.tables == 0
    assert await bank.balance(G, ANN, 0) == 1000


async def test_one_table_per_channel_and_host_only_start(manager):
    await lobby(manager, ai=1)
    with pytest.raises(errors.TableExists):
        await manager.lobby.create_table(G, C, BOB, "bob")
    with pytest.raises(errors.NotAllowed):
        await manager.lobby.start(C, BOB)
    with pytest.raises(errors.TripoleyError):
        await manager.lobby.join(C, BOB, "bob")  # already seated


async def test_not_enough_chips_for_buy_in(manager):
    await lobby(manager, ai=0, humans=(ANN,), buy_in=600)
    await manager.lobby.leave(C, ANN)
    with pytest.raises(errors.NotEnoughChips):
        await manager.lobby.create_table(G, C, ANN, "ann", buy_in=5000)
    assert C not in manager.registry.by_channel


async def test_lobby_expires_and_refunds(manager, clock, bank, settings):
    await lobby(manager, ai=1)
    clock.advance(settings.lobby_timeout + 1)
    updates = await manager.timers.tick()
    assert updates and updates[0].kind == "cancelled"
    assert C not in manager.registry.by_channel
    assert (await bank.audit(G)).ok and await bank.balance(G, ANN, 0) == 1000


async def test_human_turn_wrong_user_and_stale_round(manager, clock):
    table = await lobby(manager, ai=1)
    await manager.lobby.start(C, ANN)
    seat = await drive_to_human(manager, clock, table, in_turn=True)
    other = table.seats[1 - seat].user_id if seat in (0, 1) else ANN
    with pytest.raises(errors.NotYourTurn):
        await manager.play.act(manager.registry.get(C), other, {"do": "pass"})
    with pytest.raises(errors.StaleButton):
        await manager.play.act(
            manager.registry.get(C), table.seats[seat].user_id, {"do": "pass"}, round_number=table.round + 5
        )


async def test_timeouts_play_safe_default_and_three_make_the_seat_ai(manager, clock, bank):
    table = await lobby(manager, ai=0, options={"game_end": "rounds:3"})
    await manager.lobby.start(C, ANN)
    timeouts = {}
    for _ in range(500):
        if table.status != "playing":
            break
        seat = await drive_to_human(manager, clock, table)
        if seat is None:
            break
        clock.t = table.deadline
        updates = await manager.timers.tick()
        timeouts[seat] = timeouts.get(seat, 0) + 1
        if table.seats[seat].away:
            assert timeouts[seat] == 3
            assert "I'm back" in updates[-1].message
            break
    away = [s for s in table.seats if s.away]
    assert away, "a seat should have been handed to the AI"
    # The AI now plays for that seat; "I'm back" gives it back.
    user = away[0].user_id
    with pytest.raises(errors.NotAllowed):
        await manager.play.act(manager.registry.get(C), user, {"do": "check"})
    await manager.play.back(C, user)
    assert not away[0].away and away[0].timeouts == 0


async def test_full_game_with_ai_cashes_out_and_conserves_chips(manager, clock, bank):
    table = await lobby(manager, ai=2, humans=(ANN,))
    await manager.lobby.start(C, ANN)
    # ANN leaves at once: her seat plays as AI to the end, she's cashed out then.
    await manager.lobby.leave(C, ANN)
    assert table.status == "finished"  # every human left → game stopped
    audit = await bank.audit(G)
    assert audit.ok and audit.tables == 0
    assert table.result["seats"]
    stats = await manager.store.stats(G, ANN)
    assert stats["games"] == 1
    history = await manager.store.history(G)
    assert history[0]["result"]["preset"] == "tripoley"


async def test_a_finished_game_keeps_its_replay_for_this_server_only(manager):
    table = await lobby(manager, ai=2, humans=(ANN,))
    await manager.lobby.start(C, ANN)
    await manager.lobby.leave(C, ANN)  # the host's leaving stops the game: a stopped game is a replay too
    (item,) = await manager.store.history(G)
    assert item["has_replay"]
    data = json.loads(await manager.store.replay(G, table.id))
    assert data["end"] == "host-stop"
    out = run_replay(data)
    assert out["finished"] and out["stacks"] == [
        s["final"] for s in sorted(table.result["seats"], key=lambda s: s["seat"])
    ]
    assert await manager.store.replay(G + 1, table.id) is None, "another server's game is not handed out"


async def test_game_runs_to_the_end_by_timers(manager, clock, bank):
    table = await lobby(manager, ai=1, options={"game_end": "rounds:2"})
    await manager.lobby.start(C, ANN)
    seen_mat = False
    for _ in range(2000):
        if table.status != "playing":
            break
        clock.t = table.deadline
        await manager.timers.tick()
        audit = await manager.results.audit(G)
        assert audit["ok"], audit
        seen_mat = seen_mat or audit["on_mats"] > 0
    assert seen_mat
    assert table.status == "finished"
    audit = await bank.audit(G)
    assert audit.ok and audit.tables == 0
    total = sum([await bank.balance(G, u, 0) for u in (ANN, BOB, HOUSE)])
    assert total == audit.granted


async def test_resume_from_saved_state(make_manager, clock, bank):
    first = make_manager()
    table = await lobby(first, ai=1)
    await first.lobby.start(C, ANN)
    seat = await drive_to_human(first, clock, table)
    saved_deadline = table.deadline
    saved_round = table.round
    user = table.seats[seat].user_id

    second = make_manager()  # a restart: a new manager on the same database
    [resumed] = await second.timers.resume()
    assert resumed.id == table.id and resumed.round == saved_round
    assert resumed.deadline == saved_deadline and resumed.deadline_kind == "turn"
    aw = resumed.game.awaiting()
    assert aw.seat == seat
    # Deadline already past when we come back: it fires at once.
    clock.t = saved_deadline + 30
    updates = await second.timers.tick()
    assert updates and resumed.seats[seat].timeouts == 1
    # And the human can still act on the resumed game.
    seat2 = await drive_to_human(second, clock, resumed)
    if seat2 is not None:
        aw = resumed.game.awaiting()
        verb = "check" if "check" in aw.legal else aw.legal[0]
        action = {"do": verb}
        if verb == "choose":
            action["cards"] = aw.detail["best"]
        elif verb == "lead":
            action["card"] = aw.detail["cards"][0]
        elif verb in ("bid", "suit_bid", "bet", "raise"):
            action["amount"] = aw.detail["min"]
        elif verb == "name_suit":
            action["suit"] = "H"
        await second.play.act(second.registry.get(C), resumed.seats[seat2].user_id, action)
    assert user in (ANN, BOB)


async def test_double_click_applies_once(manager, clock):
    import asyncio

    table = await lobby(manager, ai=1)
    await manager.lobby.start(C, ANN)
    seat = await drive_to_human(manager, clock, table)
    aw = table.game.awaiting()
    if aw.phase == "poker-choose":  # tripoley opens with poker: the five cards are the first decision
        action = {"do": "choose", "cards": aw.detail["best"]}
    else:
        action = {"do": next(v for v in ("check", "call", "keep", "pass", "claim", "fold", "lead") if v in aw.legal)}
        if action["do"] == "lead":
            action["card"] = aw.detail["cards"][0]
    user = table.seats[seat].user_id
    before = len(table.game.history)
    results = await asyncio.gather(
        manager.play.act(manager.registry.get(C), user, dict(action)),
        manager.play.act(manager.registry.get(C), user, dict(action)),
        return_exceptions=True,
    )
    applied = [r for r in results if not isinstance(r, Exception)]
    refused = [r for r in results if isinstance(r, errors.TripoleyError)]
    assert len(applied) >= 1 and len(applied) + len(refused) == 2
    assert len(table.game.history) > before


async def test_concurrent_joins_fill_seats_without_losing_chips(manager, bank):
    import asyncio

    await manager.lobby.create_table(G, C, ANN, "ann", "tripoley", {}, buy_in=50)
    users = list(range(100, 112))  # more than the 9 seats
    results = await asyncio.gather(*(manager.lobby.join(C, u, f"u{u}") for u in users), return_exceptions=True)
    table = manager.registry.get(C)
    assert len(table.seats) == table.preset_info.max_players
    assert sum(isinstance(r, errors.LobbyFull) for r in results) == len(users) - (table.preset_info.max_players - 1)
    audit = await bank.audit(G)
    assert audit.ok and audit.tables == 50 * len(table.seats)


async def test_turn_overdue_after_a_restart_gets_a_grace_period(make_manager, clock):
    first = make_manager()
    table = await lobby(first, ai=1)
    await first.lobby.start(C, ANN)
    seat = await drive_to_human(first, clock, table)
    saved_deadline = table.deadline
    streak = table.seats[seat].timeouts

    clock.t = saved_deadline + 600  # the bot was down well past the deadline
    second = make_manager()
    [resumed] = await second.timers.resume()
    grace = second.timers.resume_grace
    assert resumed.deadline_kind == "turn" and resumed.deadline == clock.t + grace
    # Not a timeout now, nor a moment before the grace ends.
    assert await second.timers.tick() == []
    clock.advance(grace - 0.5)
    assert await second.timers.tick() == []
    assert resumed.seats[seat].timeouts == streak and resumed.game.awaiting().seat == seat
    # If they don't act, it is a real timeout, counted as usual.
    clock.advance(1.0)
    updates = await second.timers.tick()
    assert updates and resumed.seats[seat].timeouts == streak + 1
    assert "ran out of time" in (updates[-1].message or "")


async def test_deadline_not_yet_due_at_restart_is_kept(make_manager, clock):
    first = make_manager()
    table = await lobby(first, ai=1)
    await first.lobby.start(C, ANN)
    await drive_to_human(first, clock, table)
    saved_deadline = table.deadline
    clock.t = saved_deadline - 40  # plenty of time left: unchanged
    [resumed] = await make_manager().timers.resume()
    assert resumed.deadline == saved_deadline


def test_event_lines_come_from_the_engine_text_and_keep_who_what_how_many_where():
    from bot.messages.tablelines import describe_event
    from engine import Game

    game = Game.new("rummoli", ["Ann", "Bob", "Ada (AI)"], seed=3)
    view = game.view(None)
    label = {sp["id"]: sp["label"] for sp in view["mat"]}
    line = describe_event({"type": "payout", "seat": 1, "space": "kitty", "amount": 7, "reason": "went out"}, view)
    assert "Bob" in line and "7" in line and label["kitty"] in line
    line = describe_event({"type": "transfer", "from_seat": 0, "to_seat": 2, "amount": 3, "reason": "cards left"}, view)
    assert line.startswith("Ann pays Ada (AI) 3")
    line = describe_event({"type": "unclaimed", "seat": 0, "space": "JH"}, view)
    assert "Ann" in line and "J♥" in line and "claim" in line
    line = describe_event({"type": "stop", "seat": 2, "card": "KD"}, view)
    assert "K♦" in line and "Ada (AI)" in line
    line = describe_event({"type": "cannot-lead", "seat": 1, "paid": 1}, view)
    assert "Bob" in line and "1" in line
    line = describe_event({"type": "to_space", "seat": 1, "space": "kitty", "amount": 4, "reason": "cards left"}, view)
    assert "Bob" in line and "4" in line and label["kitty"] in line
    assert describe_event({"type": "round-end", "round": 2, "stacks": [90, 110, 100]}, view) == "Round 2 over"
    assert describe_event({"type": "game-end", "reason": "round limit"}, view).startswith("Game over")
    # Not worth a line (or secret): antes, bets' chips, deals, chosen poker hands, showdowns.
    assert describe_event({"type": "to_space", "seat": 0, "space": "pot", "amount": 1, "reason": "ante"}, view) is None
    assert describe_event({"type": "to_space", "seat": 0, "space": "pot", "amount": 5, "reason": "bet"}, view) is None
    assert describe_event({"type": "ante", "seat": 0, "space": "pot", "amount": 1}, view) is None
    assert describe_event({"type": "chosen", "seat": 0}, view) is None
    assert describe_event({"type": "deal", "cards": {"0": 13}, "spare": 13}, view) is None


async def _saved_seat_stakes(db, table_id):
    import json

    row = await db.fetchone("SELECT chips, state_json FROM tables WHERE id = ?", (table_id,))
    state = json.loads(row["state_json"])
    return int(row["chips"]), sum(s["stake"] for s in state["seats"])


@pytest.mark.parametrize("step", ["join", "add_ai", "leave"])
async def test_lobby_chips_and_seats_are_saved_together(manager, bank, db, monkeypatch, step):
    """If saving the seat fails, the buy-in (or refund) is rolled back with it: the chips a table
    holds in the database are always the stakes of its saved seats."""
    table = await lobby(manager, ai=0, humans=(ANN,) if step != "leave" else (ANN, BOB))
    before = (await bank.balance(G, ANN, 0), await bank.balance(G, BOB, 1000), list(table.seats))

    async def broken_write(conn, t):
        raise RuntimeError("disk full")

    monkeypatch.setattr(manager.store, "write", broken_write)
    with pytest.raises(RuntimeError):
        if step == "join":
            await manager.lobby.join(C, BOB, "bob")
        elif step == "add_ai":
            await manager.lobby.add_ai(C, ANN)
        else:
            await manager.lobby.leave(C, BOB)
    monkeypatch.undo()
    assert table.seats == before[2]
    assert (await bank.balance(G, ANN, 0), await bank.balance(G, BOB, 1000)) == before[:2]
    chips, stakes = await _saved_seat_stakes(db, table.id)
    assert chips == stakes == sum(s.stake for s in table.seats)
    assert (await bank.audit(G)).ok
    # And the lobby still works.
    if step == "leave":
        await manager.lobby.leave(C, BOB)
    else:
        await manager.lobby.join(C, BOB, "bob")
    chips, stakes = await _saved_seat_stakes(db, table.id)
    assert chips == stakes == sum(s.stake for s in table.seats)


async def test_a_failed_cash_out_is_retried_not_lost(manager, clock, bank, monkeypatch):
    table = await lobby(manager, ai=1, options={"game_end": "rounds:1"})
    await manager.lobby.start(C, ANN)
    real = bank.cash_out_all
    failures = []

    async def flaky_cash_out(conn, *args, **kwargs):
        if not failures:
            failures.append(1)
            raise RuntimeError("database is locked")
        return await real(conn, *args, **kwargs)

    monkeypatch.setattr(bank, "cash_out_all", flaky_cash_out)
    for _ in range(3000):
        if table.status == "finished":
            break
        clock.t = max(clock.t, table.deadline)
        await manager.timers.tick()
    assert failures and table.status == "finished" and C not in manager.registry.by_channel
    audit = await bank.audit(G)
    assert audit.ok and audit.tables == 0


def test_secret_cards_stay_out_of_the_public_log():
    from bot.messages.tablelines import public_action_text
    from engine import Action

    names = ["ann"]
    passed = public_action_text(names, Action(seat=0, do="pass_cards", cards=["AS", "KH", "2C"]))
    revealed = public_action_text(
        names, Action(seat=0, do="reveal", cards=["AS", "AD", "AC", "KH", "KD"], space="full-house")
    )
    chosen = public_action_text(names, Action(seat=0, do="choose", cards=["AS", "AD", "AC", "KH", "KD"]))
    for text in (passed, revealed, chosen):
        assert not any(c in text for c in ("AS", "KH", "2C", "A♠", "K♥")), text
    assert "3 cards" in passed


def test_a_played_card_is_named_in_the_public_log():
    """A Great Lakes "play" decision puts the card face up: the log says which (it left the hand)."""
    from bot.messages.tablelines import public_action_text
    from bot.messages.text import card as card_text
    from engine import Action, Game
    from engine.ai import choose_action

    game = Game.new("great-lakes", ["a", "b", "c", "d"], seed=11)
    rng = random.Random(2)
    for _ in range(5000):
        if game.finished:
            break
        aw = game.awaiting()
        if aw is None:
            list(game.next_deal())
            continue
        if "play" in aw.legal:
            action = Action(seat=aw.seat, do="play")
            hand_before = set(game.view(aw.seat)["hand"])
            events = list(game.apply(action))
            played = set(hand_before) - set(game.view(aw.seat)["hand"])
            text = public_action_text(["a", "b", "c", "d"], action, events)
            who = "abcd"[aw.seat]
            assert len(played) >= 1 and text.startswith(f"{who} plays ") and text != f"{who} plays"
            first = next(e["card"] for e in events if e.get("type") == "play")
            assert first in played and text == f"{who} plays {card_text(first)}"
            return
        game.apply(choose_action(game, aw.seat, kind="heuristic", rng=rng))
    pytest.fail("no play decision came up")


def test_a_claim_in_the_hand_view_names_every_space_it_pays():
    """Rummoli's A♥ pays both A♥ pockets: one claim, and the hand view says so."""
    from bot.messages.handtext import hand_text
    from engine import Action
    from tests.engine.deals import new_game

    hearts = [r + "H" for r in "3456789TJQKA"]
    g = new_game("rummoli", hands={2: ["2C"] + hearts}, spare=["3C"])
    while (aw := g.awaiting()) is not None and not (aw.phase == "claim" and aw.detail["space"] == "AH"):
        if aw.phase == "poker-choose":
            g.apply(
                Action(seat=aw.seat, do="choose", cards=aw.detail["best"] if aw.seat == 2 else aw.detail["cards"][:5])
            )
        else:
            g.apply(
                Action(seat=aw.seat, do={"spare-hand": "keep", "poker-betting": "check", "claim": "claim"}[aw.phase])
            )
    text = hand_text(g.view(2), 2)
    assert "Your claim: A♥ (both A♥ pockets, 6 chips)" in text, text
    for seat in (0, 1):
        assert "AH2" not in hand_text(g.view(seat), seat) and "pockets" not in hand_text(g.view(seat), seat), (
            "only the claiming seat sees the claim"
        )


def test_a_rummoli_warning_shows_in_the_players_own_hand_view_only():
    from bot.messages.handtext import hand_text
    from engine import Game
    from tests.engine.deals import stack_deck

    game = Game.new("rummoli", ["a", "b", "c"], dealer=0, seed=1)
    game.next_deal(stack_deck(3, {0: ["AH"]}, [], 0))
    assert "Careful: you hold pay cards" in hand_text(game.view(0), 0)
    assert "Careful" not in hand_text(game.view(1), 1)


def test_a_rummoli_warning_reads_in_the_readers_language():
    from bot.i18n import reading
    from bot.messages.handtext import hand_text
    from engine import Game
    from tests.engine.deals import stack_deck

    game = Game.new("rummoli", ["a", "b", "c"], dealer=0, seed=1)
    game.next_deal(stack_deck(3, {0: ["AH"]}, [], 0))
    english = hand_text(game.view(0), 0)
    warning = next(line for line in english.splitlines() if line.startswith("Careful: "))
    assert "A♥" in warning, warning
    for locale, careful in (("fr", "Attention"), ("de", "Vorsicht")):
        with reading(locale):
            text = hand_text(game.view(0), 0)
        line = next((line for line in text.splitlines() if line.startswith(careful)), "")
        assert "A♥" in line and "you hold" not in line and "pay card" not in line, text
