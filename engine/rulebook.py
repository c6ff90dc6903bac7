"""The project's rule book as data: what pays each space, what each option means, and why.

One source for three readers: ``docs/rules.md`` (written by ``python -m engine.rulebook``
and checked against it by a test), the bot's ``/tripoley rules`` pages and the terminal
game's ``rules`` / ``help SPACE``. Every text is built from a preset and its options, so a
table's house rules change the pages it shows. Pure: text in, text out.
"""

from __future__ import annotations

from dataclasses import fields
from typing import Any

from . import presets as P
from .cardnames import SYMBOLS, card_names
from .language import N_, SOURCE, words
from .options import RULEBOOK_ANTES, Options
from .ruletext import OPTION_TEXT as OPTION_TEXT  # re-exported: the bot reads option names from here
from .ruletext import OTHER_DIFFERENCES, REASONS

# Wanagan: what a hand must contain to claim a space, and how two such claims compare.
_WANAGAN_HANDS = {
    "one-pair": ("a pair", "the higher pair wins"),
    "two-pair": ("two pairs", "the higher top pair wins, then the second pair"),
    "three-kind": ("three of a kind", "the higher three wins"),
    "four-kind": ("four of a kind", "the higher four wins"),
    "full-house": ("a full house", "the higher three wins, then the pair"),
    "straight": ("five ranks in a row", "the higher top card wins (A-2-3-4-5 is the lowest, its top card the 5)"),
    "flush": ("five cards of one suit", "the higher top card wins, then the next, and so on"),
    "evens-odds": (
        "five consecutive even or five consecutive odd ranks, the Ace counting low (2-4-6-8-10, "
        "4-6-8-10-Q, A-3-5-7-9, 3-5-7-9-J, 5-7-9-J-K)",
        "the higher top card wins, the Ace low",
    ),
}

_SPACE_BY_ID = {
    "AH2": N_("A second pocket for the A♥: the card that takes the A♥ space takes this one too, with the same claim."),
    "6-lead": N_(
        "The first player in the round to start a sequence with a 6 (their lowest card of that suit) takes it."
    ),
    "a-2": N_(
        "The first player who places an Ace, ending the sequence, and then leads a 2 of the other colour takes "
        "it. Aces placed in a Full House or a 5-Card Straight count: the 2 need only be of the other colour than "
        "one of the Aces placed in that play, whatever order they were put down in."
    ),
}

_SPACE_BY_TRIGGER = {
    P.POKER: N_("The best poker hand at the showdown takes it; equal hands split it."),
    P.LOSERS: N_("The worst poker hand at the showdown takes it (at the final showdown too)."),
    P.FULL_HOUSE_PLAY: N_(
        "The player to act may, instead of a normal play, place four cards that make a full house "
        "with the last card placed; they take this space, the sequence stops and they lead next."
    ),
    P.STRAIGHT_PLAY: N_(
        "The player holding the next card may place it with three more of any suit continuing the "
        "ranks (five in a row with the last card placed) and take this space; the next player follows the suit of "
        "the straight's last card."
    ),
    P.CORNER: N_(
        "A side bet: at the ante the dealer may back one corner Ace and the others may cover it with an "
        "equal bet; once the spare hand is settled, the holder of that Ace takes the corner if they backed it, "
        "otherwise the chips stay. It is not a money card."
    ),
}


def option_names() -> list[str]:
    """The engine's options, in its own order (what the rule pages must explain)."""
    return [f.name for f in fields(Options)]


def value_label(name: str, value: Any) -> str:
    """A value as a short phrase: ``flat:1`` → "1 chip a space", ``rounds:5`` → "after 5 rounds"."""
    known = OPTION_TEXT[name].values.get(value)
    if known:
        return known[0]
    if name == "ante":
        if value == "rulebook":
            return "grows by round"
        count = int(str(value).partition(":")[2])
        return f"{count} chip{'s' if count != 1 else ''} a space"
    if name == "game_end":
        kind, _, rounds = str(value).partition(":")
        if value == "elimination":
            return "when one player is left"
        return f"after {rounds} {kind if rounds != '1' else kind.rstrip('s')}"
    if name == "decks":
        return f"{value} deck{'s' if value != 1 else ''}"
    return f"{value} chips"


def value_text(name: str, value: Any) -> str:
    """A value as a sentence for the rule pages."""
    known = OPTION_TEXT[name].values.get(value)
    if known:
        return known[1]
    if name == "ante" and value == "rulebook":
        return (
            "The ante grows by round: "
            + ", ".join(map(str, RULEBOOK_ANTES))
            + f" chips a space, then {RULEBOOK_ANTES[-1]} for every later round."
        )
    if name == "ante":
        count = int(str(value).partition(":")[2])
        return f"Each player puts {count} chip{'s' if count != 1 else ''} on every space each round."
    if name == "game_end":
        if value == "elimination":
            return "A player who cannot pay the full ante is out for good; the game ends when one player is left."
        kind = str(value).partition(":")[0]
        finish = " (the round in progress is finished)" if kind == "minutes" else ""
        return f"The game ends {value_label(name, value)}{finish}; a player short of the full ante sits a round out."
    if name == "bet_limit":
        return f"The poker limit is {value} chips."
    if name == "start_stack":
        return f"Each player starts with {value} chips."
    return f"{value_label(name, value).capitalize()}."


def option_line(name: str, value: Any) -> str:
    """``**Pay cards**: when played (Cadaco variation 1). Pay cards pay only when …``"""
    text = OPTION_TEXT[name]
    return f"**{text.title}**: {value_label(name, value)}. {value_text(name, value)}"


# ----------------------------------------------------------------- spaces


def _card_in(language: str, text: str) -> str:
    """A mat card (``KH``, or ``K*`` for the pay suit's) as ``language`` writes it."""
    rank = card_names(language).ranks["23456789TJQKA".index(text[0])]
    if text[1] == "*":
        return words(language).gettext("{rank} of the pay suit").format(rank=rank)
    return rank + SYMBOLS["CDHS".index(text[1])]


def space_text(space: P.Space, options: Options, language: str = SOURCE) -> str:
    """What pays a space, and when (in ``language``: the catalogs' sentences, its card names)."""
    _ = words(language).gettext
    if space.id in _SPACE_BY_ID:
        return _(_SPACE_BY_ID[space.id])
    if space.trigger in _SPACE_BY_TRIGGER:
        return _(_SPACE_BY_TRIGGER[space.trigger])
    played = options.paycards == "play"
    if space.trigger == P.CARD:
        card = _card_in(language, space.cards[0])
        if played:
            return _("Whoever plays the {card} in Michigan takes it.").format(card=card)
        if options.spare_hand == "none":
            return _("Whoever holds the {card} after the deal takes it.").format(card=card)
        return _("Whoever holds the {card} once the spare hand is settled takes it.").format(card=card)
    if space.trigger == P.COMBO:
        first, second = (_card_in(language, c) for c in space.cards)
        if played:
            return _("Whoever plays the {second} right after the {first}, in the same sequence, takes it.").format(
                first=first, second=second
            )
        return _("Whoever holds both the {first} and the {second} takes it.").format(first=first, second=second)
    if space.trigger == P.RUN:
        top = space.id.rsplit("-", 1)[1]
        if played:
            return _(
                "Whoever plays the {top} right after the other two cards of {run} in one suit, in the "
                "same sequence, takes it."
            ).format(top=top, run=space.id)
        return _("Whoever holds the {run} of one suit takes it; several holders split it.").format(run=space.id)
    if space.trigger == P.MICHIGAN:
        if options.all_stuck == "lowest-count-wins":
            return _(
                "The first player to empty their hand in Michigan takes it; if nobody can lead, the lowest count in "
                "hand wins it."
            )
        return _(
            "The first player to empty their hand in Michigan takes it; if play is blocked, nobody wins it this round."
        )
    if space.trigger == P.HAND:
        needs, compare = _WANAGAN_HANDS[space.hand]
        return (
            f"Won in a reveal round by declaring it with five cards that contain {needs}; between two such "
            f"claims {compare}, and equal ones split it."
        )
    raise ValueError(f"space {space.id!r} has a trigger the rule book does not explain: {space.trigger!r}")


def space_names(space: P.Space) -> set[str]:
    """The words a player may type after ``help`` to ask about a space."""
    return {_fold(space.id), _fold(space.label)}


def _fold(text: str) -> str:
    symbols = {"♣": "c", "♦": "d", "♥": "h", "♠": "s"}
    text = "".join(symbols.get(ch, ch) for ch in text.lower())
    return "".join(ch for ch in text if ch.isalnum())


def find_space(preset: P.Preset, options: Options, name: str) -> P.Space:
    """The space a player means by ``name`` (id or label, any case, ``A♥ (2nd)`` or ``ah2``)."""
    mat = P.spaces_for(preset, options)
    wanted = _fold(name)
    for space in mat:
        if wanted in space_names(space):
            return space
    raise ValueError(f"no space called {name!r} on this mat; the spaces are " + ", ".join(space.label for space in mat))


# ----------------------------------------------------------------- house rules


def house_rules(preset_key: str) -> dict[str, tuple[Any, ...]]:
    """The options a table of this preset may switch in the lobby, with the values offered:
    only those the engine accepts, so the lobby never offers a rule the game cannot play."""
    preset = P.get_preset(preset_key)
    offered: dict[str, tuple[Any, ...]] = {}
    for name, values in P.HOUSE_RULES.get(preset_key, {}).items():
        accepted = tuple(value for value in values if _accepted(preset, name, value))
        if len(accepted) > 1:
            offered[name] = accepted
    return offered


def _accepted(preset: P.Preset, name: str, value: Any) -> bool:
    try:
        P.options_for(preset, {name: value})
    except ValueError:
        return False
    return True


def house_rule_changes(preset_key: str, overrides: dict[str, Any] | None) -> list[str]:
    """The table's options that differ from the preset, as "Name: value" phrases."""
    preset = P.get_preset(preset_key)
    options = P.options_for(preset, overrides)
    return [
        f"{OPTION_TEXT[name].title}: {value_label(name, getattr(options, name))}"
        for name in option_names()
        if getattr(options, name) != getattr(preset.options, name)
    ]


# ----------------------------------------------------------------- pages


def _phase_lines(preset: P.Preset, options: Options) -> list[str]:
    lines = [
        f"• **Ante** — {value_text('ante', options.ante)}"
        + (" The dealer antes twice." if options.dealer_double_ante else "")
    ]
    if any(space.ante != 1 for space in preset.spaces if space.trigger != P.CORNER):
        doubled = ", ".join(space.label for space in preset.spaces if space.ante > 1)
        lines[-1] += f" {doubled} take a double ante."
    if "corner-bet" in preset.order:
        lines.append("• **Corner bet** — the dealer may back a corner Ace; the others may cover.")
    lines.append(
        "• **Deal** — every card is dealt one at a time, from the dealer's left, with one extra spare hand "
        "that gets its card right after the dealer; some hands get a card more."
    )
    lines.append(f"• **Spare hand** — {value_text('spare_hand', options.spare_hand)}")
    if options.optional_suit:
        lines.append(f"• **Suit bid** — {value_text('optional_suit', True)}")
    if any(space.trigger in (P.CARD, P.COMBO, P.RUN) for space in preset.spaces):
        lines.append(
            f"• **Pay cards** — {value_text('paycards', options.paycards)}"
            + (f" {value_text('strict_claims', True)}" if options.strict_claims else "")
        )
    steps = {
        "poker": "• **Poker** — five cards each, one betting round, showdown for the poker space.",
        "michigan": "• **Michigan** — the stops game below.",
        "wanagan": "• **Wanagan** — up to four reveal rounds (below).",
        "to-poker": "• **To the poker space** — every chip left on a money space moves to the poker space.",
    }
    lines += [steps[step] for step in preset.order if step in steps]
    lines.append("• **Settle** — the dealer's seat moves one to the left.")
    return lines


def _poker_page(preset: P.Preset, options: Options) -> str:
    whole = (
        " Each player's whole hand as dealt (after the spare hand) plays; cards placed in Michigan stay with "
        "their owner."
        if preset.rulebook_setup and "michigan" in preset.order
        else ""
    )
    return (
        "**Poker**\n"
        "Choose five of your cards as your poker hand (Best five picks the strongest; you may hide your strength)."
        f"{whole} One betting round: check while nobody has bet; after a bet, fold, call or raise. "
        f"{value_text('poker_first_bettor', options.poker_first_bettor)} {value_text('bet_limit', options.bet_limit)} "
        f"{value_text('bet_limit_scope', options.bet_limit_scope)} "
        "A player short of chips calls all-in and side pots are formed. When all but one fold, that player "
        "takes the poker space without showing.\n"
        "Hands from high to low: five of a kind (several decks or wild cards only), straight flush, four of a kind, "
        "full house, flush, straight, three of a kind, two pair, one pair, high card. The Ace is high, and low in "
        "A-2-3-4-5. Suits never rank: equal hands split, an odd chip stays on the space."
    )


def _michigan_page(options: Options) -> str:
    return (
        "**Michigan (stops)**\n"
        "A lead places a card; whoever holds the next higher card of that suit must play it, and so on, until an "
        "Ace is played or the next card is out of reach (in the spare hand or played already): that card is the "
        "stop, and its player leads again. Forced plays are made for you; you only choose your leads.\n"
        f"{value_text('michigan_leader', options.michigan_leader)} "
        f"{value_text('first_lead', options.first_lead)}\n"
        f"After a stop: {value_text('after_stop', options.after_stop)}\n"
        f"A player who cannot lead: {value_text('cannot_lead', options.cannot_lead)}\n"
        f"When nobody can lead: {value_text('all_stuck', options.all_stuck)}\n"
        f"Going out: {value_text('out_payment', options.out_payment)}"
    )


WANAGAN_PAGE = (
    "**Wanagan**\n"
    "There is no Michigan. In each of up to four reveal rounds every player secretly picks five cards and declares "
    "one space that still holds chips; the hands are shown together and each space goes to the best qualifying "
    "claim on it. A hand qualifies when its five cards contain the combination: a full house contains One Pair, "
    "Two Pair and 3 of a Kind; four of a kind contains One Pair and 3 of a Kind but not Two Pair. Claims are "
    "compared by the named combination only (no kickers). Before round 2 everyone passes three cards to the left, "
    "before round 3 three to the right; in round 4 the K♥, 10♦, 7♠ and 4♣ are wild. The rounds stop early when no "
    "space holds chips. Then poker for the Wanagan centre."
)


def _end_page(options: Options) -> str:
    return f"**End of the game**\n{value_text('game_end', options.game_end)}\n{value_text('endgame', options.endgame)}"


def _mat_page(preset: P.Preset, options: Options) -> str:
    players = f"{preset.min_players}–{preset.max_players} players"
    lines = [f"**{preset.name}** — {preset.summary} ({players})", "", "**The mat**"]
    for space in P.spaces_for(preset, options):
        lines.append(f"• **{space.label}** — {space_text(space, options)}")
    lines.append("Chips on a space nobody wins stay there for a later round.")
    return "\n".join(lines)


def _settings_page(preset: P.Preset, options: Options) -> str:
    lines = ["**Settings of this game**"]
    lines += [f"• {option_line(name, getattr(options, name))}" for name in option_names()]
    return "\n".join(lines)


def _house_rules_page(preset: P.Preset, options: Options) -> str | None:
    offered = house_rules(preset.key)
    if not offered:
        return None
    lines = ["**House rules** — the host may switch these in the lobby before the start:"]
    for name, values in offered.items():
        text = OPTION_TEXT[name]
        choices = ", ".join(value_label(name, value) for value in values)
        lines.append(f"• **{text.title}** ({text.line}): {choices}. Now: {value_label(name, getattr(options, name))}.")
    return "\n".join(lines)


def rule_pages(preset_key: str, overrides: dict[str, Any] | None = None) -> list[str]:
    """The rules of a preset (as a table with ``overrides`` plays it), a few short pages."""
    preset = P.get_preset(preset_key)
    options = P.options_for(preset, overrides)
    pages = [
        _mat_page(preset, options),
        "**A round**\n" + "\n".join(_phase_lines(preset, options)),
        _poker_page(preset, options),
    ]
    pages.append(WANAGAN_PAGE if "wanagan" in preset.order else _michigan_page(options))
    pages += [_end_page(options), _settings_page(preset, options)]
    house = _house_rules_page(preset, options)
    if house:
        pages.append(house)
    return pages


def page_title(page: str) -> str:
    """A rule page's heading: its first line that is a bold title alone, else its first bold words."""
    lines = page.splitlines()
    for line in lines:
        if line.startswith("**") and line.endswith("**") and line.count("**") == 2:
            return line.strip("*")
    first = lines[0] if lines else ""
    return first.split("**")[1] if first.startswith("**") else first


def space_help(preset_key: str, options: Options, name: str) -> str:
    """``help SPACE`` in the terminal: one space explained (``ValueError`` naming the spaces if unknown)."""
    space = find_space(P.get_preset(preset_key), options, name)
    return f"{space.label}: {space_text(space, options)}"


def plain_pages(preset_key: str, options: Options) -> str:
    """The rule pages as plain text for a terminal (no Markdown emphasis)."""
    return "\n\n".join(rule_pages(preset_key, options.to_dict())).replace("**", "")


# ----------------------------------------------------------------- docs/rules.md

DOC_INTRO = """# The rules of Tripoley and its family

This is the rule book of the games this project plays, written for players and hosts. Every
game is one of the presets below: a mat of spaces holding chips, and a round made of a deal,
a spare hand, pay cards, a hand of poker and a game of Michigan (stops). The presets differ on
many points, because the printed rules they come from differ; each point is a setting, listed
with every preset, and the last part of this page says which choice each game makes and why.

This page is generated from the engine's own rule data (`engine/rulebook.py`), the same text the
bot shows with `/tripoley rules` and the terminal game with `rules` and `help SPACE`; run
`python -m engine.rulebook > docs/rules.md` after changing a preset. Decisions on points no
printed rule settles are listed in [rules-decisions.md](rules-decisions.md); the format of a
game file is in [replay.md](replay.md).

## Common ground

- Cards: 52-card decks, no jokers; ranks from 2 up to Ace. Red suits are ♦ and ♥, black ♣ and ♠.
  With several decks identical cards exist: when two players hold the card asked for, the first
  holder clockwise from the player who acted last plays or claims it.
- Seats go clockwise and the deal moves one seat left after every round.
- Chips are whole numbers and never appear or vanish: a split that does not divide evenly
  leaves the odd chips on the space for a later round.
- Your poker hand is five cards you choose from your hand; "best five" is always offered.
- A house rule is a setting the host of a table may switch in the lobby before the game
  starts; the lobby, the rule pages at that table, the game's history and its game file show
  which ones apply.
"""


def _doc_page(page: str) -> str:
    """A rule page as Markdown: a line in bold alone becomes a heading, bullets become list items."""
    lines: list[str] = []
    for line in page.splitlines():
        if line.startswith("**") and line.endswith("**") and line.count("**") == 2:
            lines += ["", f"### {line.strip('*')}", ""]
        elif line.startswith("• "):
            lines.append("- " + line[2:])
        else:
            if lines and lines[-1].startswith("- "):
                lines.append("")  # a paragraph after a list, not a continuation of its last item
            lines.append(line)
    text = "\n".join(lines).strip() + "\n"
    while "\n\n\n" in text:
        text = text.replace("\n\n\n", "\n\n")
    return text


def _differences() -> list[str]:
    lines = [
        "## Where the sources differ, and why",
        "",
        "Each setting below is chosen differently by different presets; the reason follows each choice.",
        "",
    ]
    for name in option_names():
        users: dict[Any, list[str]] = {}
        for key, preset in P.PRESETS.items():
            users.setdefault(getattr(preset.options, name), []).append(key)
        if len(users) < 2:
            continue
        lines.append(f"### {OPTION_TEXT[name].title}")
        lines.append("")
        for value, keys in users.items():
            reason = REASONS.get((name, value), "")
            lines.append(f"- **{value_label(name, value)}** ({', '.join(f'`{k}`' for k in keys)}): {reason}".rstrip())
        lines.append("")
    lines += ["### Other points", ""]
    lines += [f"- **{point}**: {choice}" for point, choice in OTHER_DIFFERENCES]
    lines.append("")
    return lines


def _all_options() -> list[str]:
    lines = ["## Every setting", ""]
    for name in option_names():
        text = OPTION_TEXT[name]
        form = f" Written {text.form}." if text.form else ""
        lines.append(f"- **{text.title}** (`{name}`): {text.line}.{form}")
        for value, (label, sentence) in text.values.items():
            shown = str(value).lower() if isinstance(value, bool) else value
            lines.append(f"  - `{shown}`, {label}: {sentence}")
    lines.append("")
    return lines


def markdown() -> str:
    """The whole of docs/rules.md."""
    out = [DOC_INTRO]
    for key, preset in P.PRESETS.items():
        out.append(f"## {preset.name} (`{key}`)\n")
        out += [_doc_page(page) for page in rule_pages(key)]
    out.append("\n".join(_all_options() + _differences()).rstrip() + "\n")
    return "\n".join(out)


if __name__ == "__main__":
    print(markdown(), end="")
