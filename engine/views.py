"""What a seat may see: the game's per-seat view (docs/engine-api.md, "View")."""

from __future__ import annotations

import copy
from typing import TYPE_CHECKING, Any

from . import cards as C
from .phases.corner import CornerState
from .phases.michigan import MichiganState
from .phases.names import SIMULTANEOUS, PhaseName
from .viewtypes import CornerView, GameView, MichiganView, PokerView, SeatStatus, SeatView, SpareView, Standing

if TYPE_CHECKING:
    from .table import RoundState, Table

DENOMINATIONS = {"white": 1, "red": 5, "blue": 10, "green": 25, "black": 100}


def view(game: Table, seat: int | None) -> GameView:
    """JSON-able, only what ``seat`` may know (``None``: a spectator)."""
    r = game.r
    pending = game.pending_waits() if (r is not None and not game.finished) else []
    to_act = pending[0].seat if pending else None
    mine_wait = next((pw for pw in pending if pw.seat == seat), None)
    mine = seat is not None and r is not None and 0 <= seat < game.n
    together = r is not None and r.wait is not None and r.wait.phase in SIMULTANEOUS and not game.finished
    sealed = None
    if together and mine and r is not None:
        own = next((a for a in r.sealed if a["seat"] == seat), None)
        sealed = dict(own) if own is not None else None
    out: GameView = {
        "preset": game.preset_key,
        "preset_name": game.preset.name,
        "round": game.round_number,
        "ante": r.ante if r else game.options.ante_for_round(1),
        "phase": game_phase(game),
        "dealer": game.dealer,
        "to_act": to_act,
        "viewer": seat,
        "pay_suit": C.SUITS[r.pay_suit] if r else "H",
        "seats": seat_views(game),
        "mat": [{"id": sp.id, "label": sp.label, "kind": sp.trigger, "chips": game.mat[sp.id]} for sp in game.spaces],
        "hand": C.to_strs(C.sorted_hand(r.hands[seat])) if mine and r and seat is not None else None,
        "poker": poker_view(r, seat if mine else None) if r is not None else None,
        "michigan": michigan_view(r.michigan) if r is not None else None,
        "spare": spare_view(r) if r is not None else None,
        "events": [e.to_dict() for e in (r.events[-12:] if r else [])],
        "chip_denominations": dict(DENOMINATIONS),
        "finished": game.finished,
        "standings": standings(game),
        "corner": corner_view(r.corner) if r is not None and r.corner else None,
        # a step decided at once: who may still choose (public); the viewer's own choice (theirs only)
        "acting": [pw.seat for pw in pending] if together else ([to_act] if to_act is not None else []),
        "sealed": sealed,
    }
    if mine_wait is not None:
        out["legal"] = list(mine_wait.legal)
        out["detail"] = copy.deepcopy(mine_wait.detail)
    return out


def seat_views(game: Table) -> list[SeatView]:
    r = game.r
    order = game.order()
    m = r.michigan if r else None
    seats: list[SeatView] = []
    for s in range(game.n):
        status: SeatStatus = "active"
        if game.eliminated[s]:
            status = "eliminated"
        elif r is not None and s not in r.active:
            status = "sitting-out"
        elif r is not None and r.poker.folded[s] and order[min(r.step, len(order) - 1)] == "poker":
            status = "folded"
        played = [C.to_str(c) for c, b in zip(m.played, m.played_by) if b == s] if m else []
        seats.append(
            {
                "seat": s,
                "name": game.players[s],
                "stack": game.stacks[s],
                "cards": len(r.hands[s]) if r else 0,
                "status": status,
                "committed": r.poker.committed[s] if r else 0,
                "played": played,
                "is_dealer": s == game.dealer,
            }
        )
    return seats


def poker_view(r: RoundState, viewer: int | None) -> PokerView:
    """The round's poker; ``chosen`` only for ``viewer`` (a seat dealt in, or None)."""
    p = r.poker
    chosen = p.chosen[viewer] if viewer is not None else None
    return {
        "chosen": C.to_strs(chosen) if chosen else None,
        "current_bet": p.current_bet,
        "last_action": p.last_action,
        "showdown": copy.deepcopy(p.showdown),
        "winners": list(p.winners),
    }


def michigan_view(m: MichiganState) -> MichiganView:
    return {
        "sequence": C.to_strs(m.seq),
        "last_card": C.to_str(m.played[-1]) if m.played else None,
        "out": m.out,
        "played": len(m.played),
    }


def spare_view(r: RoundState) -> SpareView:
    au = r.auction
    return {
        "cards": len(r.spare),
        "auction": {"high_bid": au.high, "high_bidder": au.high_bidder, "kind": au.kind} if au else None,
    }


def corner_view(c: CornerState) -> CornerView:
    return {"ace": c.ace, "amount": c.amount, "backers": list(c.backers)}


def game_phase(game: Table) -> str:
    """``Game.phase``: the decision awaited, or where the game stands between decisions."""
    if game.finished:
        return PhaseName.FINISHED
    if game.r is not None and game.r.wait is not None:
        return game.r.wait.phase
    return PhaseName.GAME_OVER if game.over else PhaseName.ROUND_OVER


def standings(game: Table) -> list[Standing]:
    rows: list[Standing] = [
        {"seat": s, "name": game.players[s], "stack": game.stacks[s], "net": game.stacks[s] - game.initial_stacks[s]}
        for s in range(game.n)
    ]
    return sorted(rows, key=lambda row: (-row["stack"], row["seat"]))


_ATOM_TYPES = frozenset({str, int, float, bool, type(None)})


def plain_copy(obj: Any) -> Any:
    """Deep copy of JSON-like data (dicts, lists, tuples, scalars): far cheaper than copy.deepcopy."""
    if isinstance(obj, dict):
        return {k: v if type(v) in _ATOM_TYPES else plain_copy(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        if obj and isinstance(obj[0], (dict, list, tuple)):
            first = obj[0]
            if not isinstance(first, dict) and not (first and isinstance(first[0], (dict, list, tuple))):
                return [list(v) for v in obj]  # a list of flat lists (e.g. card combinations)
            return [plain_copy(v) for v in obj]
        return list(obj)
    return obj
