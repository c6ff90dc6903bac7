"""Views of the engine's shape (``engine.viewtypes.GameView``, docs/engine-api.md "View"), made up for tests
without playing a game."""

from __future__ import annotations

import random

H, D, C, S = "\u2665", "\u2666", "\u2663", "\u2660"


def _sp(id, label, kind="card"):
    return {"id": id, "label": label, "kind": kind}


_TRIPOLEY = [
    _sp("10H", f"10{H}"),
    _sp("JH", f"J{H}"),
    _sp("QH", f"Q{H}"),
    _sp("KH", f"K{H}"),
    _sp("AH", f"A{H}"),
    _sp("KQH", f"K-Q{H}", "combo"),
    _sp("8-9-10", "8-9-10", "combo"),
    _sp("kitty", "Kitty", "kitty"),
    _sp("pot", "Pot", "pot"),
]
_RULEBOOK_TRIPOLEY = _TRIPOLEY[:7] + [_sp("kitty", "Kitty", "kitty"), _sp("center", "Tripoley", "center")]

MATS = {
    "tripoley": ("Tripoley (Cadaco)", _TRIPOLEY),
    "tripoley-optional-suit": ("Tripoley: Optional Suit", _TRIPOLEY),
    "three-in-one": ("Three in One", _TRIPOLEY),
    "rummoli": (
        "Rummoli",
        [
            _sp("pot", "Pot", "pot"),
            _sp("AC", f"A{C}"),
            _sp("AD", f"A{D}"),
            _sp("AH", f"A{H}"),
            _sp("AS", f"A{S}"),
            _sp("8-9-10", "8-9-10", "combo"),
            _sp("KQH", f"K-Q{H}", "combo"),
            _sp("kitty", "Kitty", "kitty"),
            _sp("10H", f"10{H}"),
            _sp("JH", f"J{H}"),
            _sp("QH", f"Q{H}"),
            _sp("KH", f"K{H}"),
            _sp("AH2", f"A{H} (2nd)"),
        ],
    ),
    "michigan-rummy": (
        "Michigan Rummy",
        [
            _sp("10H", f"10{H}"),
            _sp("JD", f"J{D}"),
            _sp("QC", f"Q{C}"),
            _sp("KH", f"K{H}"),
            _sp("AS", f"A{S}"),
            _sp("KQD", f"K-Q{D}", "combo"),
            _sp("8-9-10", "8-9-10", "combo"),
            _sp("pot", "Poker Pot", "pot"),
            _sp("center", "Michigan", "center"),
        ],
    ),
    "tripoley-rulebook": ("Tripoley (Rulebook)", _RULEBOOK_TRIPOLEY),
    "rummoli-rulebook": (
        "Rummoli (Rulebook)",
        [
            _sp("10S", f"10{S}"),
            _sp("JD", f"J{D}"),
            _sp("QC", f"Q{C}"),
            _sp("KH", f"K{H}"),
            _sp("AS", f"A{S}"),
            _sp("AKD", f"A-K{D}", "combo"),
            _sp("7-8-9", "7-8-9", "combo"),
            _sp("pot", "Poker Pot", "pot"),
            _sp("center", "Rummoli", "center"),
        ],
    ),
    "rummy-royal": (
        "Rummy Royal",
        _RULEBOOK_TRIPOLEY + [_sp(f"corner-A{s}", f"A{sym} corner", "corner") for s, sym in zip("CDHS", (C, D, H, S))],
    ),
    "great-lakes": (
        "Great Lakes",
        [
            _sp("JH", "Tomahawk"),
            _sp("QS", "Black Mariah"),
            _sp("KD", "Suicide King"),
            _sp("6-lead", "6 Lead", "special"),
            _sp("a-2", "A-2", "special"),
            _sp("full-house", "Full House", "special"),
            _sp("straight5", "5-Card Straight", "special"),
            _sp("losers-kitty", "Losers Kitty", "kitty"),
            _sp("center", "Great Lakes", "center"),
        ],
    ),
    "wanagan": (
        "Wanagan",
        [
            _sp("full-house", "Full House", "hand"),
            _sp("one-pair", "One Pair", "hand"),
            _sp("four-kind", "4 of a Kind", "hand"),
            _sp("evens-odds", "Evens or Odds", "hand"),
            _sp("two-pair", "Two Pair", "hand"),
            _sp("straight", "Any Straight", "hand"),
            _sp("three-kind", "3 of a Kind", "hand"),
            _sp("flush", "Any Flush", "hand"),
            _sp("center", "Wanagan", "center"),
        ],
    ),
}
PRESETS = list(MATS)

NAMES = [
    "ann",
    "bob",
    "cat",
    "Maximilian the Magnificent",
    "dee",
    "eve",
    "Ferdinand-Alexander",
    "gus",
    "hal",
    "ivy",
    "jo",
    "kay",
    "lou",
    "WWWWWWWWWWWWWWWWWW",
    "ned",
    "oz",
    "pia",
    "quentin",
    "rae",
    "sam",
]


def make_view(preset="tripoley", players=4, *, seed=1, viewer=None, phase="michigan-play", round=3, hand_size=None):
    rng = random.Random(seed)
    name, spaces = MATS[preset]
    deck = [r + s for s in "CDHS" for r in "23456789TJQKA"]
    rng.shuffle(deck)
    n = players
    dealer = rng.randrange(n)
    to_act = (dealer + 1) % n
    seats = []
    for i in range(n):
        status = "active"
        if i == (dealer + 2) % n and n > 2:
            status = "folded"
        if n > 8 and i == (dealer + 4) % n:
            status = "sitting-out"
        if n > 8 and i == (dealer + 5) % n:
            status = "eliminated"
        seats.append(
            {
                "seat": i,
                "name": NAMES[i % len(NAMES)],
                "stack": rng.randrange(0, 400),
                "cards": rng.randrange(0, 18),
                "status": status,
                "committed": rng.choice([0, 0, 5]) if phase.startswith("poker") else 0,
                "played": [],
                "is_dealer": i == dealer,
            }
        )
    mat = [dict(sp, chips=rng.choice([0, 1, 3, 7, 12, 36, 58, 140, 1234])) for sp in spaces]
    hs = hand_size or max(5, min(17, 52 // (n + 1)))
    hand = deck[:hs] if viewer is not None else None
    view = {
        "preset": preset,
        "preset_name": name,
        "round": round,
        "ante": 1,
        "phase": phase,
        "dealer": dealer,
        "to_act": to_act,
        "viewer": viewer,
        "pay_suit": "H",
        "seats": seats,
        "mat": mat,
        "hand": hand,
        "poker": {
            "chosen": None,
            "current_bet": 5 if phase.startswith("poker") else 0,
            "last_action": "bob raises 5" if phase.startswith("poker") else "",
            "showdown": None,
            "winners": [],
        },
        "michigan": {
            "sequence": ["8H", "9H", "TH", "JH"] if phase.startswith("michigan") else [],
            "last_card": "JH" if phase.startswith("michigan") else None,
            "out": None,
            "played": 4 if phase.startswith("michigan") else 0,
        },
        "spare": {"cards": hs, "auction": None},
        "events": [],
        "chip_denominations": {"white": 1, "red": 5, "blue": 10, "green": 25, "black": 100},
        "finished": False,
        "standings": [
            {"seat": s["seat"], "name": s["name"], "stack": s["stack"], "net": s["stack"] - 100} for s in seats
        ],
        "corner": None,
        "acting": [to_act],
        "sealed": None,
    }
    if viewer is not None and viewer == to_act:
        view["legal"] = ["play", "pass"]
        view["detail"] = {"cards": hand[:3]}
    return view
