"""``/tripoley rules``: the engine's rule pages (the same text as docs/rules.md and the terminal's
``rules``), as a table plays them, plus how a game runs on Discord."""

from __future__ import annotations

from typing import Any

from bot.i18n import Locale, _, reading, translator
from engine.cardnames import label_in
from engine.game import Game
from engine.language import N_, rule_summary
from engine.presets import get_preset, spaces_for
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
    """ "House rules at this table: …" or that the table plays the preset as it is."""
    changes = house_rule_changes(preset_key, options)
    if not changes:
        return _("**House rules at this table**: none, the game as printed.")
    return _("**House rules at this table**: {changes}.").format(changes="; ".join(changes))


def pages_for(preset_key: str, options: dict[str, Any] | None = None, locale: str = "en") -> list[str]:
    """The rule pages of a preset; with a table's ``options``, as that table plays it. In French or German
    (``locale``) the family in brief and what pays each space come first in that language, and the
    Discord page last; the detailed pages between them are the English rule book's."""
    pages = rule_pages(preset_key, options)
    if options is not None:
        with reading(locale):
            pages[0] = house_rules_text(preset_key, options) + "\n\n" + pages[0]
    words = translator(Locale(locale))
    summary = rule_summary(locale)
    if summary is None:
        return pages + [words.gettext(HOW_TO_PLAY_HERE)]
    return [summary, mat_page(preset_key, options, locale)] + pages + [words.gettext(HOW_TO_PLAY_HERE)]


def mat_page(preset_key: str, options: dict[str, Any] | None, locale: str) -> str:
    """What pays each space of the preset's mat (as a table with ``options`` plays it), in ``locale``."""
    preset = get_preset(preset_key)
    played = preset.options.with_overrides(options or {})
    words = translator(Locale(locale))
    lines = [
        f"• **{label_in(space.label, locale)}** — {space_text(space, played, locale)}"
        for space in spaces_for(preset, played)
    ]
    title = words.gettext("What pays on this mat")
    return f"**{title}**\n" + "\n".join(lines)


def lobby_rules_lines(preset_key: str, options: dict[str, Any]) -> list[str]:
    """The lobby's list of the preset's house rules, each with its current value and what it decides."""
    offered = house_rules(preset_key)
    played = get_preset(preset_key).options.with_overrides(options)
    lines = []
    if offered:
        lines.append(_("**House rules** (the host switches them with the menu below):"))
        lines += [
            f"• {OPTION_TEXT[name].title}: **{value_label(name, getattr(played, name))}** — {OPTION_TEXT[name].line}"
            for name in offered
        ]
    changes = house_rule_changes(preset_key, options)
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
