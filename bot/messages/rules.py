"""``/tripoley rules``: the engine's rule pages (the same text as docs/rules.md and the terminal's
``rules``), as a table plays them, plus how a game runs on Discord."""

from __future__ import annotations

from typing import Any

from bot.i18n import READING, _, reading
from engine.cardnames import label_in
from engine.game import Game
from engine.language import N_, rule_summary
from engine.presets import get_preset
from engine.rulebook import OPTION_TEXT, house_rule_changes, house_rules, rule_pages, space_text, value_label

HOW_TO_PLAY_HERE = N_(
    "**Playing on Discord**\n"
    "• `/tripoley start` opens a table; press **Join** (or add AI seats) and the host presses **Start**. Before "
    "the start the host may switch the game's house rules with the lobby's menu.\n"
    "• Your buy-in moves from your wallet to the table; at the end your stack goes back to your wallet.\n"
    "• The table message shows the mat, whose turn it is and the deadline. Press **Show my hand** to see your "
    "cards and make your private choices (poker five, leads, bids). Public buttons (check, call, fold, pass…) "
    "work for the player whose turn it is.\n"
    "• With strict claims, a **Claim!** button names what your card pays: press it before the next card is "
    "played, or the chips stay on the mat.\n"
    "• Run out of time and a safe move is made for you (check or fold, your best five, your lowest lead, no bid). "
    "Three timeouts in a row and an AI takes your seat until you press **I'm back**.\n"
    "• `/tripoley dm on` sends you your hand by DM at every deal."
)


def house_rules_text(preset_key: str, options: dict[str, Any] | None) -> str:
    """ "House rules at this table: …" or that the table plays the preset as it is (in the language read)."""
    changes = house_rule_changes(preset_key, options, READING.get().value)
    if not changes:
        return _("**House rules at this table**: none, the game as printed.")
    return _("**House rules at this table**: {changes}.").format(changes="; ".join(changes))


def pages_for(preset_key: str, options: dict[str, Any] | None = None, locale: str = "en") -> list[str]:
    """The rule pages of a preset; with a table's ``options``, as that table plays it (its house rules
    first). Every page is in ``locale``: in French or German the family in brief comes first (written in
    that language: engine/locale/LANG/rules.md), then the rule book's pages, and the Discord page last."""
    with reading(locale):
        language = READING.get().value
        pages = rule_pages(preset_key, options, language)
        if options is not None:
            pages[0] = house_rules_text(preset_key, options) + "\n\n" + pages[0]
        pages.append(_(HOW_TO_PLAY_HERE))
    summary = rule_summary(language)
    return pages if summary is None else [summary, *pages]


def lobby_rules_lines(preset_key: str, options: dict[str, Any]) -> list[str]:
    """The lobby's list of the preset's house rules, each with its current value and what it decides (in
    the language read)."""
    language = READING.get().value
    offered = house_rules(preset_key)
    played = get_preset(preset_key).options.with_overrides(options)
    lines = []
    if offered:
        lines.append(_("**House rules** (the host switches them with the menu below):"))
        lines += [
            _("• {rule}: **{value}** — {meaning}").format(
                rule=_(OPTION_TEXT[name].title),
                value=value_label(name, getattr(played, name), language),
                meaning=_(OPTION_TEXT[name].line),
            )
            for name in offered
        ]
    changes = house_rule_changes(preset_key, options, language)
    if changes:
        lines.append(_("Changed from the printed game: {changes}").format(changes="; ".join(changes)))
    else:
        lines.append(_("Played as printed."))
    return lines


def space_rules(game: Game, locale: str = "en") -> list[tuple[str, str, str]]:
    """Every space of the game's mat as it is played now (its preset and house rules): (id, label,
    what pays it), the words of the terminal's ``help SPACE``; in ``locale`` (bot.i18n.choice)."""
    return [(space.id, label_in(space.label, locale), space_text(space, game.options, locale)) for space in game.spaces]


def space_rule(game: Game, space_id: str, locale: str = "en") -> str | None:
    """One space's rule as ``**label**: what pays it`` ("What pays?"); None when the mat has no such space
    (any more)."""
    for space, label, text in space_rules(game, locale):
        if space == space_id:
            return f"**{label}**: {text}"
    return None
