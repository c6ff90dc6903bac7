"""Saving and loading a game (``Game.to_json`` / ``Game.from_json``), with the migration of older saves.

Format 2 saves the round with one typed state per phase; format 1 (before the phases were
modules) kept them as flat fields and plain dicts and is migrated on load. Format 3 adds the
round's ``sealed`` choices (a step decided at once, mid-way); a format-2 save has none.
"""

from __future__ import annotations

import copy
import random
from dataclasses import asdict, replace
from typing import TYPE_CHECKING, Any

from .events import Event
from .model import SavedGame
from .options import Options
from .phases.michigan import pay_triggers
from .phases.state import (
    AuctionState,
    Claim,
    CornerState,
    LeadRequirement,
    MichiganState,
    Pick,
    PokerState,
    Share,
    Wait,
    WanaganState,
)
from .table import RoundState

if TYPE_CHECKING:
    from .table import Table

FORMAT = 3
STATE_FIELDS = (
    "seed",
    "stacks",
    "initial_stacks",
    "mat",
    "eliminated",
    "round_number",
    "log",
    "game_events",
    "started_at",
    "over",
    "finished",
    "playoff_result",
    "dealer",
    "record",
)


def game_to_json(game: Table) -> str:
    state: dict[str, Any] = {k: getattr(game, k) for k in STATE_FIELDS}
    state["log"] = [{**rec, "events": [e.to_dict() for e in rec["events"]]} for rec in game.log]
    state["game_events"] = [e.to_dict() for e in game.game_events]
    version, internal, gauss = game.rng.getstate()
    state["rng"] = [version, list(internal), gauss]
    state["round"] = asdict(replace(game.r, events=[], payouts=[])) if game.r is not None else None
    if game.r is not None:
        # the round's events and payouts are shared with the last log record: store them once
        state["round"]["events"] = None
        state["round"]["payouts"] = None
    saved = SavedGame(
        format=FORMAT, preset=game.preset_key, options=game.options.to_dict(), players=game.players, state=state
    )
    return saved.model_dump_json()


def read_save(text: str) -> tuple[str, Options, list[str], dict[str, Any]]:
    """(preset, options, players, state) of a save, migrated to the current format."""
    saved = SavedGame.model_validate_json(text)
    if saved.format > FORMAT:
        raise ValueError(f"this save is of format {saved.format}, newer than this engine's {FORMAT}")
    state = saved.state
    if saved.format == 1 and state.get("round") is not None:
        state = {**state, "round": round_v1_to_v2(state["round"])}
    return saved.preset, Options().with_overrides(saved.options), list(saved.players), state


def restore(game: Table, state: dict[str, Any]) -> None:
    """Put a (migrated) saved state into a freshly made game of the same preset and players."""
    for k in STATE_FIELDS:
        setattr(game, k, copy.deepcopy(state.get(k)))  # ("record" is missing from saves made before replays were kept)
    game.log = [{**rec, "events": [Event.from_dict(e) for e in rec["events"]]} for rec in game.log]
    game.game_events = [Event.from_dict(e) for e in game.game_events]
    version, internal, gauss = state["rng"]
    game.rng = random.Random()
    game.rng.setstate((version, tuple(internal), gauss))
    game.set_mat(empty=False)
    rd = state["round"]
    if rd is None:
        game.r = None
        return
    game.r = _round(rd, game.log[-1])
    if game.r.step < len(game.order()) and game.order()[game.r.step] == "michigan":
        game.triggers = pay_triggers(game)


def _round(d: dict[str, Any], rec: dict[str, Any]) -> RoundState:
    d = dict(d)  # (a freshly read save: its lists and dicts are the round's own)
    wait, auction, corner, wanagan = d.pop("wait"), d.pop("auction"), d.pop("corner"), d.pop("wanagan")
    poker, michigan, claims = d.pop("poker"), d.pop("michigan"), d.pop("claims")
    michigan["lead_req"] = LeadRequirement(**michigan["lead_req"])
    if wanagan is not None:
        wanagan["picks"] = [None if p is None else Pick(**p) for p in wanagan["picks"]]
    d.update(events=rec["events"], payouts=rec["payouts"])
    return RoundState(
        **d,
        wait=None if wait is None else Wait(**wait),
        auction=None if auction is None else AuctionState(**auction),
        claims=[Claim(c["seat"], [Share(**s) for s in c["shares"]]) for c in claims],
        poker=PokerState(**poker),
        michigan=MichiganState(**michigan),
        corner=None if corner is None else CornerState(**corner),
        wanagan=None if wanagan is None else WanaganState(**wanagan),
    )


# format 1's flat round fields → (phase state, field)
_V1_POKER = {
    "chosen": "chosen",
    "choose_queue": "choose_queue",
    "folded": "folded",
    "committed": "committed",
    "current_bet": "current_bet",
    "need": "need",
    "pot_before": "pot_before",
    "poker_winners": "winners",
    "showdown": "showdown",
    "poker_hands": "hands",
    "last_poker_action": "last_action",
    "dealt": "dealt",
}
_V1_MICHIGAN = {
    "m_state": "state",
    "m_seat": "seat",
    "m_last": "last",
    "passes": "passes",
    "seq": "seq",
    "played": "played",
    "played_by": "played_by",
    "out": "out",
    "stuck": "stuck",
}


def round_v1_to_v2(old: dict[str, Any]) -> dict[str, Any]:
    """A format-1 round (flat fields, dicts and lists) as format 2 (one state per phase)."""
    d = dict(old)
    poker = {new: d.pop(key) for key, new in _V1_POKER.items() if key in d}
    michigan = {new: d.pop(key) for key, new in _V1_MICHIGAN.items() if key in d}
    req = d.pop("lead_req", None) or {"kind": "lowest"}
    michigan["lead_req"] = {"kind": req["kind"], "exclude": req.get("exclude"), "colour": req.get("colour")}
    # claims were [seat, [[space, share], ...]], and before that [seat, space, share]
    d["claims"] = [
        {
            "seat": c[0],
            "shares": [
                {"space": sp, "chips": share} for sp, share in (c[1] if isinstance(c[1], list) else [[c[1], c[2]]])
            ],
        }
        for c in d.get("claims", [])
    ]
    w = d.get("wanagan")
    if w is not None:
        picks = [None if p is None else p if isinstance(p, dict) else {"cards": p, "space": None} for p in w["picks"]]
        d["wanagan"] = {**w, "picks": picks}
    d["poker"], d["michigan"] = poker, michigan
    return d
