"""The end of a game and what is kept of it: cash-outs, results, replays, stats, the audit."""

from __future__ import annotations

import json
import logging
from typing import TYPE_CHECKING, Any

from bot.economy.bank import HOUSE
from bot.errors import DatabaseUnavailable
from bot.tables.model import Table, TableUpdate
from bot.tables.timers import DATABASE_RETRY

if TYPE_CHECKING:
    from bot.tables.manager import TableManager

log = logging.getLogger(__name__)


def hand_rank(name: str | None) -> int:
    """How strong a hand named in a showdown is (stored as a player's best hand; -1: none)."""
    from engine.hands import name_strength

    return name_strength(name)


class Results:
    def __init__(self, manager: TableManager) -> None:
        self.m = manager

    async def finish(self, table: Table, events: list, logged: int = 0) -> TableUpdate:
        """The game is over: everyone cashed out, results recorded. ``events[:logged]`` are in the
        log already."""
        game = table.game
        stacks = list(game.stacks)
        on_mat = sum(game.mat.values()) if isinstance(game.mat, dict) else 0
        held = sum(stacks) + on_mat
        if on_mat:
            log.error("table %s ended with %s chips on the mat; they go to the house", table.id, on_mat)
        payouts = [(seat.account, int(stacks[i])) for i, seat in enumerate(table.seats)]
        if on_mat:
            payouts.append((HOUSE, int(on_mat)))
        results = self._results(table, stacks, events)
        replay = self._replay_json(table)
        self.m.play.log_events(table, events[logged:])
        now = self.m.clock.now()
        self.m.store.discard(table)  # this transaction writes the newest state
        try:
            async with self.m.store.transaction() as conn:
                await self.m.bank.cash_out_all(conn, table.guild_id, table.id, payouts)
                await self.m.store.finish(conn, table, results, replay, now)
        except DatabaseUnavailable:
            self.m.timers.set_deadline(table, DATABASE_RETRY, "finish")  # the timers cash out again soon
            raise
        # Only once everyone is cashed out: if that failed, the table stays open and its next
        # deadline tries again, rather than a finished table holding chips nobody gets back.
        table.status = "finished"
        table.result = results
        self.m.timers.set_deadline(table, None)
        table.version += 1
        if held != sum(s.stake for s in table.seats):
            log.error(
                "table %s: chips changed during the game (%s → %s)", table.id, sum(s.stake for s in table.seats), held
            )
        self.m.forget(table)
        return self.m.update(table, "finished", events=list(events), message="Game over.")

    @staticmethod
    def _replay_json(table: Table) -> str | None:
        """The finished game as a replay file's text; None for a game begun before games were kept
        as replays (its early decks are not known)."""
        try:
            return json.dumps(table.game.to_replay())
        except ValueError as exc:
            log.info("table %s has no replay: %s", table.id, exc)
            return None

    def _results(self, table: Table, stacks: list[int], events: list) -> dict[str, Any]:
        history = list(getattr(table.game, "history", []) or []) or list(events)
        pots = [0] * len(table.seats)
        best: list[tuple[int, str | None]] = [(-1, None)] * len(table.seats)
        for event in history:
            kind = event.get("type")
            if kind == "payout" and isinstance(event.get("seat"), int) and 0 <= event["seat"] < len(pots):
                pots[event["seat"]] += 1
            if kind == "showdown":
                hands = event.get("hands") or []
                items = hands.items() if isinstance(hands, dict) else enumerate(hands)
                for key, hand in items:
                    seat = hand.get("seat", key) if isinstance(hand, dict) else key
                    name = hand.get("hand") if isinstance(hand, dict) else hand
                    if seat is None:
                        continue
                    try:
                        seat = int(seat)
                    except (TypeError, ValueError):
                        continue
                    if 0 <= seat < len(best) and hand_rank(name) > best[seat][0]:
                        best[seat] = (hand_rank(name), str(name))
        top = max(stacks) if stacks else 0
        highlights = self._highlights(table, history, best)
        seats = []
        for i, seat in enumerate(table.seats):
            seats.append(
                {
                    "seat": i,
                    "name": seat.name,
                    "user_id": seat.user_id,
                    "stake": seat.stake,
                    "final": int(stacks[i]),
                    "net": int(stacks[i]) - seat.stake,
                    "pots_won": pots[i],
                    "best_hand": best[i][1],
                    "best_hand_rank": best[i][0],
                    "winner": int(stacks[i]) == top and top > 0,
                }
            )
        from engine.rulebook import house_rule_changes

        return {
            "preset": table.preset,
            "preset_name": table.preset_info.name,
            "house_rules": house_rule_changes(table.preset, table.options),
            "rounds": table.round,
            "seats": sorted(seats, key=lambda s: -s["final"]),
            "highlights": highlights,
        }

    @staticmethod
    def _highlights(table: Table, history: list, best: list[tuple[int, str | None]]) -> dict[str, Any]:
        """The game's biggest pot (its largest single payout: who, how much, from which space, in
        which round; the earliest of equal ones) and its best hand shown down (the strongest; the
        first seat of equal ones), each None when the game had none."""
        from engine.textview import space_label

        view = table.game.view(None)
        names = [seat.name for seat in table.seats]
        biggest = None
        round_number = 0
        for event in history:
            kind = event.get("type")
            if kind == "round-start":
                round_number = int(event.get("round") or round_number)
            elif kind == "payout" and isinstance(event.get("seat"), int) and 0 <= event["seat"] < len(names):
                amount = int(event.get("amount") or 0)
                if amount > 0 and (biggest is None or amount > biggest["amount"]):
                    biggest = {
                        "seat": event["seat"],
                        "name": names[event["seat"]],
                        "amount": amount,
                        "space": space_label(view, str(event.get("space", ""))),
                        "round": round_number,
                    }
        rank, seat = max(((r, i) for i, (r, _) in enumerate(best)), key=lambda x: (x[0], -x[1]), default=(-1, 0))
        best_hand = {"seat": seat, "name": names[seat], "hand": best[seat][1]} if rank >= 0 else None
        return {"biggest_pot": biggest, "best_hand": best_hand}

    # -- what is kept -----------------------------------------------------------------

    async def audit(self, guild_id: int) -> dict[str, Any]:
        """Chips of users + house + tables (stacks and mats) + frozen (quarantined tables) against
        grants - removals; ``ok`` when they agree and every open table's engine holds exactly the
        chips the database says it holds. ``quarantined``: those tables, apart (see
        :func:`bot.messages.text.audit_text`)."""
        audit = await self.m.bank.audit(guild_id)
        house = await self.m.store.house_balance(guild_id)
        mismatched = []
        for table_id, chips in (await self.m.store.open_table_chips(guild_id)).items():
            table = self.m.by_id.get(table_id)
            if table is not None and table.chips_in_play() != chips:
                mismatched.append(table.id)
        on_mats = sum(
            sum(t.game.mat.values()) for t in self.m.by_id.values() if t.guild_id == guild_id and t.game is not None
        )
        return {
            "granted": audit.granted,
            "removed": audit.removed,
            "users": audit.wallets - house,
            "house": house,
            "tables": audit.tables,
            "frozen": audit.frozen,
            "quarantined": await self.m.store.quarantined_tables(guild_id),
            "on_mats": on_mats,
            "mismatched_tables": mismatched,
            "ok": audit.ok and not mismatched,
        }
