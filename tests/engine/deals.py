"""Concrete deals for rule tests: say who holds what, get the deck order that deals it."""

from __future__ import annotations

from collections import Counter

from engine import Action, Game
from engine import cards as C


def stack_deck(
    n_players: int,
    hands: dict[int, list[str]],
    spare: list[str] = (),
    dealer: int = 0,
    decks: int = 1,
    filler: list[str] | None = None,
) -> list[str]:
    """The deck (top card first) that deals ``hands`` (seat → cards) and ``spare``.

    Hands not fully given are topped up from the remaining cards, lowest first
    (or in ``filler`` order). Dealing starts left of the dealer, the spare hand
    right after the dealer.
    """
    slots = n_players + 1
    total = 52 * decks
    sizes = [total // slots + (1 if k < total % slots else 0) for k in range(slots)]
    content: list[list[int]] = [[] for _ in range(slots)]
    for seat, cs in hands.items():
        content[(seat - dealer - 1) % n_players] = C.parse_many(cs)
    content[n_players] = C.parse_many(spare)
    left = Counter(C.full_deck(decks))
    for part in content:
        for c in part:
            if left[c] <= 0:
                raise ValueError(f"{C.to_str(c)} used twice")
            left[c] -= 1
    pool: list[int] = []
    for c in C.parse_many(filler or []):
        if left[c] > 0:
            left[c] -= 1
            pool.append(c)
    pool += sorted(left.elements(), key=lambda c: (c >> 2, c & 3))
    for k in range(slots):
        if len(content[k]) > sizes[k]:
            raise ValueError(f"slot {k} holds {len(content[k])} cards, only {sizes[k]} are dealt to it")
        while len(content[k]) < sizes[k]:
            content[k].append(pool.pop(0))
    return [C.to_str(content[i % slots][i // slots]) for i in range(total)]


def new_game(
    preset: str = "tripoley",
    n: int = 3,
    hands: dict[int, list[str]] | None = None,
    spare: list[str] = (),
    dealer: int = 0,
    options: dict | None = None,
    stacks: list[int] | None = None,
    filler: list[str] | None = None,
) -> Game:
    g = Game.new(preset, [f"p{i}" for i in range(n)], options=options, stacks=stacks, dealer=dealer, seed=1)
    g.next_deal(stack_deck(n, hands or {}, spare, dealer, g.n_decks, filler))
    return g


def new_game_swapping(preset: str = "tripoley", **kw) -> Game:
    """``new_game`` with the Overview's spare-hand flow (``swap-or-auction``) for the Cadaco presets
    that offer it as a house rule (``tripoley`` as printed leaves the dead hand unused)."""
    if preset in ("tripoley", "tripoley-optional-suit"):
        kw["options"] = {"spare_hand": "swap-or-auction", **(kw.get("options") or {})}
    return new_game(preset, **kw)


def act(g: Game, seat: int, do: str, **kw) -> list:
    return g.apply(Action(seat=seat, do=do, **kw))


def hand(g: Game, seat: int) -> set[str]:
    return set(C.to_strs(g.r.hands[seat]))


def payouts(g: Game, round_index: int = -1) -> list[tuple[str, int, int]]:
    return [(p["space"], p["seat"], p["amount"]) for p in g.log[round_index]["payouts"]]


def through_poker(g: Game) -> None:
    """Keep the spare, show the best five, everybody checks."""
    while (aw := g.awaiting()) is not None and aw.phase in (
        "spare-hand",
        "auction",
        "suit-bid",
        "name-suit",
        "claim",
        "poker-choose",
        "poker-betting",
    ):
        if aw.phase == "spare-hand":
            act(g, aw.seat, "keep")
        elif aw.phase in ("auction", "suit-bid"):
            act(g, aw.seat, "pass")
        elif aw.phase == "name-suit":
            act(g, aw.seat, "name_suit", suit="H")
        elif aw.phase == "claim":
            act(g, aw.seat, "claim")
        elif aw.phase == "poker-choose":
            act(g, aw.seat, "choose", cards=aw.detail["best"])
        else:
            act(g, aw.seat, "check" if "check" in aw.legal else "call")
