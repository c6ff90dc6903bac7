"""Michigan: leads, forced follows, stops, going out, all stuck (docs/rules.md).

Forced plays are made by the engine; a seat is asked only for a lead with a choice, a Great
Lakes combination play, or a strict claim. What a placed card pays is read once per hand into
``PayTriggers``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from .. import cards as C
from .. import events as ev
from ..language import N_
from ..model import Action, IllegalAction
from ..presets import ACE_TWO, CARD, COMBO, FULL_HOUSE_PLAY, LEAD, RUN, STRAIGHT_PLAY
from ..reasons import Card, Either, cards
from .base import Phase, card_of, unreadable
from .claims import pay_or_claim, wait_for_claims
from .combos import combination_plays, combo_cards
from .names import PhaseName
from .state import LeadRequirement, MichiganState, PayTriggers

if TYPE_CHECKING:
    from ..table import Table

#: A Great Lakes combination that is not one of those offered (``{options}``: the ones that are).
NOT_PLACEABLE = {
    "full_house": N_("not a full house you can place now; you may place {options}"),
    "straight": N_("not a 5-card straight you can place now; you may place {options}"),
}
COMBO_PLAYS = {FULL_HOUSE_PLAY: "full_house", STRAIGHT_PLAY: "straight"}  # Great Lakes: space trigger → action
FACE_VALUE = [2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10, 11]  # Rulebook all-stuck count, by rank


def pay_triggers(game: Table) -> PayTriggers:
    r = game.round
    t = PayTriggers()
    if r.interest is not None:
        # Board clearing: only the interests pay (docs/rules.md, Cadaco's method).
        for sp in game.spaces:
            if sp.id in r.interest:
                cards = [c for c in range(52) if c >> 2 in sp.ranks] if sp.trigger == RUN else game.space_cards(sp)
                for c in cards:
                    t.interest_pays.setdefault(c, []).append(sp.id)
        return t
    t.lead_pays = [
        (sp.id, sp.trigger, sp.ranks[0] if sp.ranks else C.TWO) for sp in game.spaces if sp.trigger in (LEAD, ACE_TWO)
    ]
    t.play_combos = {COMBO_PLAYS[sp.trigger]: sp.id for sp in game.spaces if sp.trigger in COMBO_PLAYS}
    if game.options.paycards != "play":
        return t
    for sp in game.spaces:
        if sp.trigger == CARD:
            t.card_pays.setdefault(game.space_cards(sp)[0], []).append(sp.id)
        elif sp.trigger == COMBO:
            t.combo_pays.append((sp.id, game.space_cards(sp)))
        elif sp.trigger == RUN:
            t.run_pays.append((sp.id, sp.ranks))
    return t


def lead_options(game: Table, seat: int) -> list[int]:
    """The cards ``seat`` may lead now."""
    r = game.r
    assert r is not None
    req = r.michigan.lead_req
    cands = r.hands[seat]
    if req.exclude is not None:
        ex = req.exclude
        cands = [c for c in cands if c & 3 != ex]
    if req.colour is not None:
        red = req.colour == "red"
        cands = [c for c in cands if ((c & 3) in (C.DIAMONDS, C.HEARTS)) == red]
    if not cands:
        return []
    if req.kind == "lowest":
        low = min(c >> 2 for c in cands)
        return sorted({c for c in cands if c >> 2 == low})
    lows: dict[int, int] = {}
    for c in cands:
        s = c & 3
        if s not in lows or c < lows[s]:
            lows[s] = c
    return sorted(lows.values(), key=C.sort_key)


def after_stop(game: Table, stop_card: int) -> LeadRequirement:
    s = stop_card & 3
    opposite = "black" if C.is_red(stop_card) else "red"
    rule = game.options.after_stop
    if rule == "lowest-other-suit":
        return LeadRequirement("lowest", exclude=s)
    if rule == "chosen-other-suit":
        return LeadRequirement("chosen", exclude=s)
    if rule == "chosen-opposite-colour":
        return LeadRequirement("chosen", colour=opposite)
    return LeadRequirement("lowest", colour=opposite)


def place(game: Table, seat: int, card: int, how: str) -> None:
    """Put ``card`` from ``seat``'s hand on the table and pay what it pays."""
    r = game.r
    assert r is not None
    m = r.michigan
    t = game.triggers
    r.hands[seat].remove(card)
    m.played.append(card)
    m.played_by.append(seat)
    m.seq.append(card)
    game.emit(ev.Play(seat=seat, card=C.to_str(card), how=how))
    if r.interest is not None:
        for sid in t.interest_pays.get(card, ()):
            game.payout(sid, seat, min(r.interest[sid], game.mat[sid]), "interest")
    elif game.options.paycards == "play":
        for sid in t.card_pays.get(card, ()):
            pay_or_claim(game, sid, [seat], "placed")
        for sid, need in t.combo_pays:
            k = len(need)
            if card == need[-1] and m.seq[-k:] == need:
                pay_or_claim(game, sid, [seat], "placed")
        for sid, ranks in t.run_pays:
            if card >> 2 == ranks[-1]:
                su = card & 3
                want = [C.make(rk, su) for rk in ranks]
                if m.seq[-len(want) :] == want:
                    pay_or_claim(game, sid, [seat], "placed")
    if not r.hands[seat] and m.out is None:
        m.out = seat


def aces_ending_sequence(m: MichiganState, seat: int) -> list[int]:
    """The Aces ``seat`` placed in the move that ended the sequence just played (Great Lakes A-2).

    Nothing follows an Ace and a Full House stops the sequence, so every Ace of a sequence is
    in its last move: when ``seat`` placed the sequence's last card, the sequence's Aces are the
    Aces of that move, one alone or several inside a Full House, whatever their order."""
    if not m.seq or m.played_by[-1] != seat:
        return []
    return [c for c in m.seq if c >> 2 == C.ACE]


def lead_pays(game: Table, seat: int, card: int) -> list[tuple[str, str]]:
    """(space, reason) of the lead spaces that leading ``card`` now would pay ``seat`` (asked
    before the lead starts a new sequence: A-2 looks at the sequence just ended)."""
    if not game.triggers.lead_pays:
        return []
    m = game.round.michigan
    out = []
    for sid, kind, rank in game.triggers.lead_pays:
        if kind == LEAD and card >> 2 == rank:
            out.append((sid, "lead"))
        elif (
            kind == ACE_TWO
            and card >> 2 == C.TWO
            and any(C.is_red(ace) != C.is_red(card) for ace in aces_ending_sequence(m, seat))
        ):
            out.append((sid, "ace then two"))
    return out


class Michigan(Phase):
    steps = ("michigan",)
    decisions: ClassVar[tuple[PhaseName, ...]] = (PhaseName.MICHIGAN_LEAD, PhaseName.MICHIGAN_PLAY)

    def start(self, game: Table, step: str) -> bool:
        r = game.round
        m = r.michigan
        opt = game.options
        if opt.michigan_leader == "dealer":
            leader = r.dealer
        elif opt.michigan_leader == "left-of-dealer":
            leader = game.next_active(r.dealer)
        else:
            leader = r.poker.winners[0] if r.poker.winners else r.dealer
        first = opt.first_lead
        if first == "lowest-card":
            m.lead_req = LeadRequirement("lowest")
        elif first == "lowest-of-chosen-suit":
            m.lead_req = LeadRequirement("chosen")
        else:
            m.lead_req = LeadRequirement("lowest", colour="black")
        m.state, m.seat, m.passes = "lead", leader, 0
        if "poker" in game.order()[r.step :]:
            r.poker.dealt = [list(h) for h in r.hands]
        game.triggers = pay_triggers(game)
        return self.run(game)

    def resume(self, game: Table) -> bool:
        """After a claim, play goes on."""
        return self.run(game)

    def run(self, game: Table) -> bool:
        """Play every forced card until someone must choose, claims, goes out, or all are stuck."""
        r = game.round
        m = r.michigan
        while True:
            if r.claims and not wait_for_claims(game):
                return False
            if m.out is not None:
                return self.went_out(game, m.out)
            if m.state == "follow":
                last = m.last
                holder = None if last >> 2 == C.ACE else game.holder(last + 4, m.seat)
                if holder is None:
                    game.emit(ev.Stop(seat=m.seat, card=C.to_str(last)))
                    m.state = "lead"
                    m.lead_req = after_stop(game, last)
                    m.passes = 0
                    continue
                if game.triggers.play_combos and holder != m.seat:
                    combos = combination_plays(game, holder, last)
                    if combos or holder in game.ask_holders:
                        forced = {} if combos else {"forced": True}
                        return game.wait(
                            holder,
                            PhaseName.MICHIGAN_PLAY,
                            ["play", *combos],
                            card=C.to_str(last + 4),
                            last_card=C.to_str(last),
                            **combos,
                            **forced,
                        )
                place(game, holder, last + 4, "follow")
                m.seat, m.last = holder, last + 4
                continue
            seat = m.seat
            opts = lead_options(game, seat)
            if not opts:
                self.cannot_lead(game, seat)
                if m.stuck:
                    return self.all_stuck(game)
                continue
            if len(opts) == 1:
                self.lead(game, seat, opts[0])
                continue
            return game.wait(
                seat, PhaseName.MICHIGAN_LEAD, ["lead"], cards=C.to_strs(opts), requirement=m.lead_req.to_dict()
            )

    def lead(self, game: Table, seat: int, card: int) -> None:
        m = game.round.michigan
        pays = lead_pays(game, seat, card)  # before the new sequence replaces the one just ended
        m.seq = []
        m.passes = 0
        place(game, seat, card, "lead")
        for sid, reason in pays:
            pay_or_claim(game, sid, [seat], reason)
        m.state, m.seat, m.last = "follow", seat, card

    def cannot_lead(self, game: Table, seat: int) -> None:
        r = game.round
        m = r.michigan
        paid = 0
        if game.options.cannot_lead == "pay-kitty-1":
            assert game.kitty_id is not None
            paid = game.to_space(seat, game.kitty_id, 1, "cannot lead")
        game.emit(ev.CannotLead(seat=seat, paid=paid))
        m.passes += 1
        if m.passes >= len(r.active):
            if game.options.cannot_lead == "pay-kitty-1" and m.lead_req.colour is not None:
                m.lead_req.colour = "red" if m.lead_req.colour == "black" else "black"
                game.emit(ev.ColourFlip(colour=m.lead_req.colour))
                m.passes = 0
            else:
                m.stuck = True
                return
        m.seat = game.next_active(seat)

    def check(self, game: Table, a: Action) -> None:
        if a.do == "lead":
            if not a.card:
                raise IllegalAction(N_("lead needs a card"))
            try:
                card = card_of(a.card)
            except ValueError as exc:
                raise unreadable(exc) from None
            opts = lead_options(game, a.seat)
            if card not in opts:
                raise IllegalAction(
                    N_("you cannot lead {card} now; you may lead {cards}"),
                    card=Card(C.to_str(card)),
                    cards=cards(C.to_strs(opts)),
                )
        elif a.do != "play":
            w = game.round.wait
            assert w is not None
            options = w.detail[a.do]
            want = sorted(C.to_strs(combo_cards(game, a)))
            if not any(sorted(o) == want for o in options):
                placed = Either(tuple(cards(o, " ") for o in options))
                raise IllegalAction(NOT_PLACEABLE[a.do], options=placed)

    def apply(self, game: Table, a: Action) -> bool:
        """A lead; or in Great Lakes the normal play, a Full House (ends the sequence, the player
        leads next) or a 5-Card Straight (the next player follows the suit of its last card)."""
        m = game.round.michigan
        if a.do == "lead":
            self.lead(game, a.seat, card_of(a.card))
            return self.run(game)
        seat, last = a.seat, m.last
        if a.do == "play":
            place(game, seat, last + 4, "follow")
            m.seat, m.last = seat, last + 4
            return self.run(game)
        cards = combo_cards(game, a)
        how = "full house" if a.do == "full_house" else "straight"
        for c in cards:
            place(game, seat, c, how)
        pay_or_claim(game, game.triggers.play_combos[a.do], [seat], how)
        m.seat, m.last = seat, cards[-1]
        if a.do == "full_house":
            # the sequence stops at the card the full house joined: the next lead's colour follows it
            game.emit(ev.Stop(seat=seat, card=C.to_str(last), reason="full house"))
            m.state, m.passes = "lead", 0
            m.lead_req = after_stop(game, last)
        return self.run(game)

    def record(self, game: Table) -> None:
        m = game.round.michigan
        game.log[-1]["michigan"] = {"out": m.out, "order": C.to_strs(m.played), "stuck": m.stuck}

    def went_out(self, game: Table, winner: int) -> bool:
        r = game.round
        assert game.kitty_id is not None
        game.emit(ev.Out(seat=winner))
        rule = "none" if r.interest is not None else game.options.out_payment
        for s in game.clockwise_from(game.next_active(winner)):
            if s == winner:
                continue
            left = len(r.hands[s])
            if rule == "per-card-to-winner":
                game.transfer(s, winner, left, "cards left")
            elif rule == "per-card-to-kitty":
                game.to_space(s, game.kitty_id, left, "cards left")
        game.payout(game.kitty_id, winner, None, "went out")
        self.record(game)
        return True

    def all_stuck(self, game: Table) -> bool:
        r = game.round
        assert game.kitty_id is not None
        game.emit(ev.Stuck())
        if r.interest is not None:
            pass  # a board-clearing hand moves no chip from the stacks: the Kitty waits for the next hand
        elif game.options.all_stuck == "pay-per-card-to-kitty":
            for s in r.active:
                game.to_space(s, game.kitty_id, len(r.hands[s]), "all stuck")
        else:
            counts = {s: sum(FACE_VALUE[c >> 2] for c in r.hands[s]) for s in r.active}
            low = min(counts.values())
            game.split(game.kitty_id, [s for s in r.active if counts[s] == low], "lowest count")
        self.record(game)
        return True
