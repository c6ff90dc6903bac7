"""What is kept of a game: its results (the stats, the final message) and the audit.

:func:`game_results` is what a finished game records (:meth:`bot.tables.flow.Flow.finish`
cashes out and saves them); :class:`Results` answers the audit from the bank, the store and the
tables open now.
"""

from __future__ import annotations

from typing import Any

from bot.economy.bank import Bank
from bot.tables.model import Table
from bot.tables.registry import Registry
from bot.tables.store import TableStore
from engine import Event


def hand_rank(name: str | None) -> int:
    """How strong a hand named in a showdown is (stored as a player's best hand; -1: none)."""
    from engine.hands import name_strength

    return name_strength(name)


def game_results(table: Table, stacks: list[int], events: list[Event]) -> dict[str, Any]:
    """A finished game's results: each seat's stake, final stack, pots won and best hand shown (at
    a showdown or a Wanagan reveal), its highlights."""
    history = list(getattr(table.game, "history", []) or []) or list(events)
    pots = [0] * len(table.seats)
    best: list[tuple[int, str | None]] = [(-1, None)] * len(table.seats)
    worst: list[tuple[int, str | None]] = [(-1, None)] * len(table.seats)  # where the worst hand wins
    low = bool(getattr(table.game, "poker_low", False))
    for event in history:
        kind = event.get("type")
        if kind == "payout" and isinstance(event.get("seat"), int) and 0 <= event["seat"] < len(pots):
            pots[event["seat"]] += 1
        if kind in ("showdown", "reveal"):  # a Wanagan reveal shows its five cards to all too
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
                rank = hand_rank(name)
                if 0 <= seat < len(worst) and rank >= 0 and (worst[seat][0] < 0 or rank < worst[seat][0]):
                    worst[seat] = (rank, str(name))
    top = max(stacks) if stacks else 0
    highlights = game_highlights(table, history, best, worst if low else None)
    seats = []
    for i, seat in enumerate(table.seats):
        seats.append(
            {
                "seat": i,
                "name": seat.name,
                "user_id": seat.user_id,
                "stake": seat.stake,
                "final": int(stacks[i]),
                # What the game won or lost its player's wallet (stats, leaderboards): nothing at a table
                # whose stacks came from another account (a tournament's: bot/tournaments).
                "net": int(stacks[i]) - seat.stake if seat.funded_by is None else 0,
                "pots_won": pots[i],
                "best_hand": best[i][1],
                "best_hand_rank": best[i][0],
                **({"worst_hand": worst[i][1]} if low else {}),
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


def game_highlights(
    table: Table,
    history: list[Event],
    best: list[tuple[int, str | None]],
    worst: list[tuple[int, str | None]] | None = None,
) -> dict[str, Any]:
    """The game's biggest pot (its largest single payout: who, how much, from which space, in
    which round; the earliest of equal ones) and its best hand shown down (the strongest; the
    first seat of equal ones), each None when the game had none. Where the worst hand wins the
    poker (Great Lakes: ``worst`` given, per seat), its worst hand shown instead (``worst_hand``)."""
    from engine.textview import space_label

    view = table.running_game.view(None)
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
    if worst is not None:
        shown = [(r, i) for i, (r, _) in enumerate(worst) if r >= 0]
        if not shown:
            return {"biggest_pot": biggest, "worst_hand": None}
        rank, seat = min(shown)  # the weakest; the first seat of equal ones
        return {"biggest_pot": biggest, "worst_hand": {"seat": seat, "name": names[seat], "hand": worst[seat][1]}}
    rank, seat = max(((r, i) for i, (r, _) in enumerate(best)), key=lambda x: (x[0], -x[1]), default=(-1, 0))
    best_hand = {"seat": seat, "name": names[seat], "hand": best[seat][1]} if rank >= 0 else None
    return {"biggest_pot": biggest, "best_hand": best_hand}


class Results:
    def __init__(self, registry: Registry, store: TableStore, bank: Bank) -> None:
        self.registry = registry
        self.store = store
        self.bank = bank

    async def audit(self, guild_id: int) -> dict[str, Any]:
        """Chips of users + house + tables (stacks and mats) + frozen (quarantined tables) against
        grants - removals; ``ok`` when they agree and every open table's engine holds exactly the
        chips the database says it holds. ``quarantined``: those tables, apart (see
        :func:`bot.messages.notices.audit_text`)."""
        audit = await self.bank.audit(guild_id)
        house = await self.store.house_balance(guild_id)
        mismatched = []
        for table_id, chips in (await self.store.open_table_chips(guild_id)).items():
            table = self.registry.get_by_id(table_id)
            if table is not None and table.chips_in_play() != chips:
                mismatched.append(table.id)
        on_mats = sum(sum(t.game.mat.values()) for t in self.registry.of_guild(guild_id) if t.game is not None)
        return {
            "granted": audit.granted,
            "removed": audit.removed,
            "users": audit.wallets - house,
            "house": house,
            "tables": audit.tables,
            "frozen": audit.frozen,
            "quarantined": await self.store.quarantined_tables(guild_id),
            "on_mats": on_mats,
            "mismatched_tables": mismatched,
            "ok": audit.ok and not mismatched,
        }
