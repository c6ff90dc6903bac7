"""Game options (docs/rules.md): every point where the sources disagree.

Options are validated once, when a game is created, into an immutable
``Options`` record; the round loop reads fields, never strings.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields, replace
from typing import Any

from .language import N_
from .reasons import Listed, Worded

RULEBOOK_ANTES = (1, 2, 3, 4, 5, 10, 15, 20, 25, 30)

CHOICES: dict[str, tuple[str, ...]] = {
    "spare_hand": ("none", "exchange-or-sell", "swap-or-auction", "rulebook", "rummoli"),
    "bet_limit_scope": ("per-bet", "total"),
    "paycards": ("deal", "play"),
    "poker_first_bettor": ("dealer", "left-of-dealer"),
    "michigan_leader": ("dealer", "left-of-dealer", "poker-winner"),
    "first_lead": ("lowest-card", "lowest-of-chosen-suit", "low-black"),
    "after_stop": (
        "lowest-other-suit",
        "chosen-other-suit",
        "chosen-opposite-colour",
        "low-opposite-colour",
    ),
    "cannot_lead": ("pass", "pay-kitty-1"),
    "all_stuck": ("pay-per-card-to-kitty", "lowest-count-wins"),
    "out_payment": ("per-card-to-winner", "per-card-to-kitty", "none"),
    "endgame": ("poker-showdown", "michigan-interests", "none"),
    "run": ("8-9-10", "6-7-8", "7-8-9"),
}


@dataclass(frozen=True)
class Options:
    ante: str = "flat:1"
    dealer_double_ante: bool = False
    spare_hand: str = "swap-or-auction"
    paycards: str = "deal"
    strict_claims: bool = False
    poker_first_bettor: str = "dealer"
    bet_limit: int = 20
    bet_limit_scope: str = "per-bet"  # per bet or raise, or a player's total in the betting round
    michigan_leader: str = "dealer"
    first_lead: str = "lowest-card"
    after_stop: str = "lowest-other-suit"
    cannot_lead: str = "pass"
    all_stuck: str = "pay-per-card-to-kitty"
    out_payment: str = "per-card-to-winner"
    endgame: str = "poker-showdown"
    game_end: str = "rounds:5"
    start_stack: int = 100
    optional_suit: bool = False
    run: str = "8-9-10"
    decks: int = 0  # 0 = by player count (Rulebook table) or 1

    def with_overrides(self, overrides: dict[str, Any] | None) -> Options:
        if not overrides:
            return self
        known = {f.name: f for f in fields(self)}
        clean: dict[str, Any] = {}
        for key, value in overrides.items():
            if key not in known:
                raise Worded(
                    N_("unknown option {key} (known: {known})"), key=repr(key), known=Listed(tuple(sorted(known)))
                )
            clean[key] = _coerce(key, value, known[key].type)
        result = replace(self, **clean)
        result.validate()
        return result

    def validate(self) -> None:
        for key, allowed in CHOICES.items():
            value = getattr(self, key)
            if value not in allowed:
                raise Worded(
                    N_("option {key} must be one of {allowed}; got {value}"),
                    key=key,
                    allowed=Listed(allowed),
                    value=repr(value),
                )
        self.ante_for_round(1)  # parses
        self.game_end_rule()
        if self.bet_limit < 1:
            raise Worded(N_("option bet_limit must be at least 1"))
        if self.start_stack < 0:
            raise Worded(N_("option start_stack must not be negative"))
        if not 0 <= self.decks <= 4:
            raise Worded(N_("option decks must be 0 (automatic) to 4"))

    def ante_for_round(self, round_number: int) -> int:
        """Chips each player puts on each space this round (before doubling)."""
        if self.ante == "rulebook":
            return RULEBOOK_ANTES[min(round_number, len(RULEBOOK_ANTES)) - 1]
        kind, _, amount = self.ante.partition(":")
        if kind != "flat" or not amount.isdigit() or int(amount) < 1:
            raise Worded(N_("option ante must be 'flat:N' (N ≥ 1) or 'rulebook'; got {value}"), value=repr(self.ante))
        return int(amount)

    def game_end_rule(self) -> tuple[str, int]:
        if self.game_end == "elimination":
            return ("elimination", 0)
        kind, _, amount = self.game_end.partition(":")
        if kind not in ("rounds", "minutes") or not amount.isdigit() or int(amount) < 1:
            raise Worded(
                N_("option game_end must be 'rounds:N', 'minutes:N' or 'elimination'; got {value}"),
                value=repr(self.game_end),
            )
        return (kind, int(amount))

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def _coerce(key: str, value: Any, annotation: Any) -> Any:
    kind = annotation if isinstance(annotation, str) else getattr(annotation, "__name__", str(annotation))
    if kind == "bool":
        if isinstance(value, bool):
            return value
        if isinstance(value, str) and value.lower() in ("true", "false", "on", "off", "yes", "no", "1", "0"):
            return value.lower() in ("true", "on", "yes", "1")
        raise Worded(N_("option {key} must be true or false; got {value}"), key=key, value=repr(value))
    if kind == "int":
        if isinstance(value, bool):
            raise Worded(N_("option {key} must be a whole number; got {value}"), key=key, value=repr(value))
        try:
            return int(value)
        except (TypeError, ValueError):
            raise Worded(N_("option {key} must be a whole number; got {value}"), key=key, value=repr(value)) from None
    if isinstance(value, int) and key in ("ante",):
        return f"flat:{value}"
    return str(value)
