"""The project's rule book as data: what pays each space, what each option means, and why.

One source for three readers: ``docs/rules.md`` (written by ``python -m engine.rulebook``
and checked against it by a test), the bot's ``/tripoley rules`` pages and the terminal
game's ``rules`` / ``help SPACE``. Every text is built from a preset and its options, so a
table's house rules change the pages it shows. Each function that words a page takes the page's
``language`` (English by default): its sentences are the catalogs' (whole, with named placeholders),
its cards that language's ranks; ``markdown()`` is English whatever language is read elsewhere.
Pure: text in, text out.
"""

from __future__ import annotations

from dataclasses import fields
from typing import Any

from . import presets as P
from .cardnames import SYMBOLS, card_names, label_in
from .hands import NAMES_BY_STRENGTH
from .language import N_, SOURCE, words
from .options import RULEBOOK_ANTES, Options
from .reasons import Listed, Worded
from .ruletext import EVENS_ODDS_RUNS, OTHER_DIFFERENCES, REASONS, ROUND_STEPS, SPACE_BY_ID, WANAGAN_HANDS
from .ruletext import OPTION_TEXT as OPTION_TEXT  # re-exported: the bot reads option names from here

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


def _card_words(language: str) -> dict[str, str]:
    """The cards a rule sentence may name (``{king}``, ``{king_queen}``, ``{king_of_hearts}``…), as
    ``language`` writes them."""
    names = card_names(language)
    return {
        "jack": names.ranks[9],
        "queen": names.ranks[10],
        "king": names.ranks[11],
        "king_queen": label_in("K-Q", language),
        "king_of_hearts": names.pretty_text("KH"),
    }


def value_label(name: str, value: Any, language: str = SOURCE) -> str:
    """A value as a short phrase: ``flat:1`` → "1 chip a space", ``rounds:5`` → "after 5 rounds"
    (in ``language``)."""
    said = words(language)
    _, ngettext = said.gettext, said.ngettext
    known = OPTION_TEXT[name].values.get(value)
    if known:
        return _(known[0])
    if name == "ante":
        if value == "rulebook":
            return _("grows by round")
        count = int(str(value).partition(":")[2])
        return ngettext("{count} chip a space", "{count} chips a space", count).format(count=count)
    if name == "game_end":
        if value == "elimination":
            return _("when one player is left")
        kind, _colon, amount = str(value).partition(":")
        count = int(amount)
        if kind == "minutes":
            return ngettext("after {count} minute", "after {count} minutes", count).format(count=count)
        return ngettext("after {count} round", "after {count} rounds", count).format(count=count)
    if name == "decks":
        return ngettext("{count} deck", "{count} decks", int(value)).format(count=value)
    return ngettext("{count} chip", "{count} chips", int(value)).format(count=value)


def value_text(name: str, value: Any, language: str = SOURCE) -> str:
    """A value as a sentence for the rule pages (in ``language``)."""
    said = words(language)
    _, ngettext = said.gettext, said.ngettext
    known = OPTION_TEXT[name].values.get(value)
    if known:
        return _(known[1]).format(**_card_words(language))
    if name == "ante" and value == "rulebook":
        return _("The ante grows by round: {antes} chips a space, then {last} for every later round.").format(
            antes=", ".join(map(str, RULEBOOK_ANTES)), last=RULEBOOK_ANTES[-1]
        )
    if name == "ante":
        count = int(str(value).partition(":")[2])
        return ngettext(
            "Each player puts {count} chip on every space each round.",
            "Each player puts {count} chips on every space each round.",
            count,
        ).format(count=count)
    if name == "game_end":
        if value == "elimination":
            return _("A player who cannot pay the full ante is out for good; the game ends when one player is left.")
        kind, _colon, amount = str(value).partition(":")
        count = int(amount)
        if kind == "minutes":
            return ngettext(
                "The game ends after {count} minute (the round in progress is finished); a player short of the "
                "full ante sits a round out.",
                "The game ends after {count} minutes (the round in progress is finished); a player short of the "
                "full ante sits a round out.",
                count,
            ).format(count=count)
        return ngettext(
            "The game ends after {count} round; a player short of the full ante sits a round out.",
            "The game ends after {count} rounds; a player short of the full ante sits a round out.",
            count,
        ).format(count=count)
    if name == "bet_limit":
        return ngettext("The poker limit is {count} chip.", "The poker limit is {count} chips.", int(value)).format(
            count=value
        )
    if name == "start_stack":
        return ngettext(
            "Each player starts with {count} chip.", "Each player starts with {count} chips.", int(value)
        ).format(count=value)
    if name == "decks":
        return ngettext("{count} deck.", "{count} decks.", int(value)).format(count=value)
    return f"{value_label(name, value, language).capitalize()}."


def option_line(name: str, value: Any, language: str = SOURCE) -> str:
    """``**Pay cards**: when played (Cadaco variation 1). Pay cards pay only when …`` (in ``language``)."""
    _ = words(language).gettext
    return _("**{rule}**: {value}. {text}").format(
        rule=_(OPTION_TEXT[name].title),
        value=value_label(name, value, language),
        text=value_text(name, value, language),
    )


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
    if space.id in SPACE_BY_ID:
        return _(SPACE_BY_ID[space.id])
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
        runs = ", ".join(label_in(run, language) for run in EVENS_ODDS_RUNS)
        return _(WANAGAN_HANDS[space.hand]).format(runs=runs)
    raise ValueError(f"space {space.id!r} has a trigger the rule book does not explain: {space.trigger!r}")


def space_names(space: P.Space) -> set[str]:
    """The words a player may type after ``help`` to ask about a space."""
    return {_fold(space.id), _fold(space.label)}


def _fold(text: str) -> str:
    symbols = {"♣": "c", "♦": "d", "♥": "h", "♠": "s"}
    text = "".join(symbols.get(ch, ch) for ch in text.lower())
    return "".join(ch for ch in text if ch.isalnum())


UNKNOWN_SPACE = N_("no space called {name} on this mat; the spaces are {spaces}")


def find_space(preset: P.Preset, options: Options, name: str) -> P.Space:
    """The space a player means by ``name`` (id or label, any case, ``A♥ (2nd)`` or ``ah2``)."""
    mat = P.spaces_for(preset, options)
    wanted = _fold(name)
    for space in mat:
        if wanted in space_names(space):
            return space
    raise Worded(UNKNOWN_SPACE, name=repr(name), spaces=Listed(tuple(space.label for space in mat)))


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


def house_rule_changes(preset_key: str, overrides: dict[str, Any] | None, language: str = SOURCE) -> list[str]:
    """The table's options that differ from the preset, as "Name: value" phrases (in ``language``)."""
    _ = words(language).gettext
    preset = P.get_preset(preset_key)
    options = P.options_for(preset, overrides)
    return [
        _("{rule}: {value}").format(
            rule=_(OPTION_TEXT[name].title), value=value_label(name, getattr(options, name), language)
        )
        for name in option_names()
        if getattr(options, name) != getattr(preset.options, name)
    ]


# ----------------------------------------------------------------- pages
# Each page is made in one language (``language``: the catalogs' sentences, its card names); in English
# they are docs/rules.md's text, whatever language the terminal or the bot reads at the time.


def _phase_lines(preset: P.Preset, options: Options, language: str) -> list[str]:
    said = words(language)
    _, ngettext = said.gettext, said.ngettext
    ante = value_text("ante", options.ante, language)
    if options.dealer_double_ante:
        ante += " " + _("The dealer antes twice.")
    if any(space.ante != 1 for space in preset.spaces if space.trigger != P.CORNER):
        doubled = [label_in(space.label, language) for space in preset.spaces if space.ante > 1]
        ante += " " + ngettext("{spaces} takes a double ante.", "{spaces} take a double ante.", len(doubled)).format(
            spaces=", ".join(doubled)
        )
    lines = [_("• **Ante** — {rule}").format(rule=ante)]
    if "corner-bet" in preset.order:
        lines.append(_("• **Corner bet** — the dealer may back a corner Ace; the others may cover."))
    lines.append(
        _(
            "• **Deal** — every card is dealt one at a time, from the dealer's left, with one extra spare hand "
            "that gets its card right after the dealer; some hands get a card more."
        )
    )
    lines.append(_("• **Spare hand** — {rule}").format(rule=value_text("spare_hand", options.spare_hand, language)))
    if options.optional_suit:
        lines.append(_("• **Suit bid** — {rule}").format(rule=value_text("optional_suit", True, language)))
    if any(space.trigger in (P.CARD, P.COMBO, P.RUN) for space in preset.spaces):
        paid = value_text("paycards", options.paycards, language)
        if options.strict_claims:
            paid += " " + value_text("strict_claims", True, language)
        lines.append(_("• **Pay cards** — {rule}").format(rule=paid))
    lines += [_(ROUND_STEPS[step]) for step in preset.order if step in ROUND_STEPS]
    lines.append(_("• **Settle** — the dealer's seat moves one to the left."))
    return lines


def _poker_page(preset: P.Preset, options: Options, language: str) -> str:
    _ = words(language).gettext
    sentences = [
        _("Choose five of your cards as your poker hand (Best five picks the strongest; you may hide your strength).")
    ]
    if preset.rulebook_setup and "michigan" in preset.order:
        sentences.append(
            _(
                "Each player's whole hand as dealt (after the spare hand) plays; cards placed in Michigan stay with "
                "their owner."
            )
        )
    sentences += [
        _("One betting round: check while nobody has bet; after a bet, fold, call or raise."),
        value_text("poker_first_bettor", options.poker_first_bettor, language),
        value_text("bet_limit", options.bet_limit, language),
        value_text("bet_limit_scope", options.bet_limit_scope, language),
        _(
            "A player short of chips calls all-in and side pots are formed. When all but one fold, that player "
            "takes the poker space without showing."
        ),
    ]
    names = card_names(language)
    five, *others = (names.hand(hand) for hand in reversed(NAMES_BY_STRENGTH) if hand != "royal flush")
    hands = _(
        "Hands from high to low: {five_of_a_kind} (several decks or wild cards only), {others}. The Ace is high, "
        "and low in A-2-3-4-5. Suits never rank: equal hands split, an odd chip stays on the space."
    ).format(five_of_a_kind=five, others=", ".join(others))
    return "\n".join([_("**Poker**"), " ".join(sentences), hands])


def _michigan_page(options: Options, language: str) -> str:
    _ = words(language).gettext
    return "\n".join(
        [
            _("**Michigan (stops)**"),
            _(
                "A lead places a card; whoever holds the next higher card of that suit must play it, and so on, "
                "until an Ace is played or the next card is out of reach (in the spare hand or played already): "
                "that card is the stop, and its player leads again. Forced plays are made for you; you only choose "
                "your leads."
            ),
            value_text("michigan_leader", options.michigan_leader, language)
            + " "
            + value_text("first_lead", options.first_lead, language),
            _("After a stop: {rule}").format(rule=value_text("after_stop", options.after_stop, language)),
            _("A player who cannot lead: {rule}").format(rule=value_text("cannot_lead", options.cannot_lead, language)),
            _("When nobody can lead: {rule}").format(rule=value_text("all_stuck", options.all_stuck, language)),
            _("Going out: {rule}").format(rule=value_text("out_payment", options.out_payment, language)),
        ]
    )


def _wanagan_page(language: str) -> str:
    _ = words(language).gettext
    spaces = {
        "one_pair": label_in("One Pair", language),
        "two_pair": label_in("Two Pair", language),
        "three_kind": label_in("3 of a Kind", language),
    }
    sentences = [
        _(
            "There is no Michigan. In each of up to four reveal rounds every player secretly picks five cards and "
            "declares one space that still holds chips; the hands are shown together and each space goes to the "
            "best qualifying claim on it."
        ),
        _(
            "A hand qualifies when its five cards contain the combination: a full house contains {one_pair}, "
            "{two_pair} and {three_kind}; four of a kind contains {one_pair} and {three_kind} but not {two_pair}."
        ).format(**spaces),
        _("Claims are compared by the named combination only (no kickers)."),
        _(
            "Before round 2 everyone passes three cards to the left, before round 3 three to the right; in round 4 "
            "the {king_of_hearts}, 10♦, 7♠ and 4♣ are wild."
        ).format(**_card_words(language)),
        _("The rounds stop early when no space holds chips. Then poker for the Wanagan centre."),
    ]
    return _("**Wanagan**") + "\n" + " ".join(sentences)


def _end_page(options: Options, language: str) -> str:
    _ = words(language).gettext
    return "\n".join(
        [
            _("**End of the game**"),
            value_text("game_end", options.game_end, language),
            value_text("endgame", options.endgame, language),
        ]
    )


def _mat_page(preset: P.Preset, options: Options, language: str) -> str:
    _ = words(language).gettext
    players = _("{low}–{high} players").format(low=preset.min_players, high=preset.max_players)
    heading = _("**{game}** — {summary} ({players})").format(
        game=_(preset.name), summary=_(preset.summary) if preset.summary else "", players=players
    )
    lines = [heading, "", _("**The mat**")]
    for space in P.spaces_for(preset, options):
        lines.append(
            _("• **{space}** — {rule}").format(
                space=label_in(space.label, language), rule=space_text(space, options, language)
            )
        )
    lines.append(_("Chips on a space nobody wins stay there for a later round."))
    return "\n".join(lines)


def _settings_page(options: Options, language: str) -> str:
    _ = words(language).gettext
    lines = [_("**Settings of this game**")]
    lines += ["• " + option_line(name, getattr(options, name), language) for name in option_names()]
    return "\n".join(lines)


def _house_rules_page(preset: P.Preset, options: Options, language: str) -> str | None:
    _ = words(language).gettext
    offered = house_rules(preset.key)
    if not offered:
        return None
    lines = [_("**House rules** — the host may switch these in the lobby before the start:")]
    for name, values in offered.items():
        text = OPTION_TEXT[name]
        lines.append(
            _("• **{rule}** ({meaning}): {choices}. Now: {value}.").format(
                rule=_(text.title),
                meaning=_(text.line),
                choices=", ".join(value_label(name, value, language) for value in values),
                value=value_label(name, getattr(options, name), language),
            )
        )
    return "\n".join(lines)


def rule_pages(preset_key: str, overrides: dict[str, Any] | None = None, language: str = SOURCE) -> list[str]:
    """The rules of a preset (as a table with ``overrides`` plays it), a few short pages, in ``language``."""
    preset = P.get_preset(preset_key)
    options = P.options_for(preset, overrides)
    _ = words(language).gettext
    pages = [
        _mat_page(preset, options, language),
        _("**A round**") + "\n" + "\n".join(_phase_lines(preset, options, language)),
        _poker_page(preset, options, language),
    ]
    pages.append(_wanagan_page(language) if "wanagan" in preset.order else _michigan_page(options, language))
    pages += [_end_page(options, language), _settings_page(options, language)]
    house = _house_rules_page(preset, options, language)
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


def space_help(preset_key: str, options: Options, name: str, language: str = SOURCE) -> str:
    """``help SPACE`` in the terminal: one space explained (a :class:`Worded` error naming the mat's
    spaces in ``language`` if unknown)."""
    preset = P.get_preset(preset_key)
    try:
        space = find_space(preset, options, name)
    except ValueError:
        labels = tuple(label_in(sp.label, language) for sp in P.spaces_for(preset, options))
        raise Worded(UNKNOWN_SPACE, name=repr(name), spaces=Listed(labels)) from None
    return (
        words(language)
        .gettext("{space}: {rule}")
        .format(space=label_in(space.label, language), rule=space_text(space, options, language))
    )


def plain_pages(preset_key: str, options: Options, language: str = SOURCE) -> str:
    """The rule pages as plain text for a terminal (no Markdown emphasis), in ``language``."""
    return "\n\n".join(rule_pages(preset_key, options.to_dict(), language)).replace("**", "")


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
        for value in text.values:
            shown = str(value).lower() if isinstance(value, bool) else value
            lines.append(f"  - `{shown}`, {value_label(name, value)}: {value_text(name, value)}")
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
