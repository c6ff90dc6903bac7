"""``python -m engine play``: a game in the terminal, you in seat 0 against AI seats (``--ai-level``).

Reads one line per decision (``bet 5``, ``call``, ``lead 4C``, ``choose best``,
``bid 3``, ``name_suit S``...), re-asks with the engine's message when a move is
refused, and works with piped input: at end of input it leaves cleanly. The
loop takes an ``input_fn`` and an output stream so tests can drive it directly.
Colour (rich) marks the red suits, the seat to act and refusals; it is off when
the output is not a terminal or ``NO_COLOR`` is set.
"""

from __future__ import annotations

import json
import os
import random
import re
import sys
from collections import Counter
from collections.abc import Callable, Mapping
from typing import Any, TextIO

from rich.console import Console
from rich.text import Text

from . import cards as C
from . import events as ev
from . import rulebook
from . import screen as SC
from . import textview as TV
from .ai import choose_action
from .commands import CARD_VERBS, card_syntax, parse_command
from .events import Event
from .game import Game
from .language import LANGUAGE, N_, SOURCE, _, language_from_environment, ngettext
from .model import Action, IllegalAction
from .phases.names import PhaseName
from .presets import PRESETS, get_preset
from .reasons import Worded
from .viewtypes import GameView

HUMAN = 0
AI_NAMES = [
    "ann",
    "bob",
    "cat",
    "dan",
    "eve",
    "fay",
    "gus",
    "hal",
    "ivy",
    "jon",
    "kim",
    "lou",
    "max",
    "ned",
    "oli",
    "pam",
    "quin",
    "rex",
    "sue",
    "tom",
]

META = {
    "table": "table",
    "t": "table",
    "view": "table",
    "help": "help",
    "?": "help",
    "h": "help",
    "quit": "quit",
    "exit": "quit",
    "q": "quit",
    "rules": "rules",
}


#: Said at the first lead when the rules leave the player no choice in Michigan.
MICHIGAN_BY_RULE = N_(
    "Michigan plays itself at this table: its rules make every lead the lowest card allowed and every"
    " follow is forced, so you are asked only when two cards tie for a lead (`rules michigan`)."
)


def michigan_plays_itself(game: Game) -> bool:
    """Whether every Michigan lead is fixed by the options (the lowest card allowed, not a choice)."""
    options = game.options
    return options.first_lead != "lowest-of-chosen-suit" and options.after_stop in (
        "lowest-other-suit",
        "low-opposite-colour",
    )


class QuitGame(Exception):
    """The player typed ``quit``."""


#: Styles of the coloured output: what a line starts with → its style.
REFUSED = N_("Not allowed: {reason}. Try again.")
UNREADABLE = N_("Cannot read that: {reason}. Try again.")
YOUR_MOVE = N_("Your move. Legal actions:")


def line_styles() -> tuple[tuple[str, str], ...]:
    """How a line starts and its colour, in the game's language: refusals, headings, the prompt, the
    seat to act."""
    return (
        (_(REFUSED).partition("{reason}")[0].rstrip(), "yellow"),
        (_(UNREADABLE).partition("{reason}")[0].rstrip(), "yellow"),
        ("==", "bold cyan"),
        ("---", "cyan"),
        (_(YOUR_MOVE).partition(".")[0], "bold green"),
        ("> ", "bold reverse"),
    )


RED_CARD = re.compile(r"(?:(?:10|[2-9JQKA])-)*(?:10|[2-9JQKA])[\u2665\u2666]")  # 10♥, K-Q♦
BLACK_CARD = re.compile(r"(?:(?:10|[2-9JQKA])-)*(?:10|[2-9JQKA])[\u2663\u2660]")
#: Where the terminal cannot show them: suit symbols as letters (10♥ → 10h), dashes as hyphens.
ASCII_FALLBACK = str.maketrans(
    {
        "\u2663": "c",
        "\u2666": "d",
        "\u2665": "h",
        "\u2660": "s",
        "\u2014": "-",
        "\u2013": "-",
        "\u2265": ">=",
        "\u2192": "->",
    }
)


def styled(line: str) -> Text:
    """One line of output with colour: red suits red, the seat to act and refusals marked."""
    style = next((st for start, st in line_styles() if line.lstrip(" ").startswith(start)), "")
    text = Text(line, style=style)
    text.highlight_regex(RED_CARD, "bold red")
    text.highlight_regex(BLACK_CARD, "bold")
    return text


def wants_colour(stream: TextIO, environ: Mapping[str, str] = os.environ) -> bool:
    """Colour only on a terminal, and never with NO_COLOR set (https://no-color.org) or TERM=dumb."""
    isatty = getattr(stream, "isatty", None)
    return bool(isatty and isatty()) and not environ.get("NO_COLOR") and environ.get("TERM") != "dumb"


def shows_symbols(stream: TextIO) -> bool:
    """Can ``stream`` encode the suit symbols (not so with LANG=C or PYTHONIOENCODING=ascii)?"""
    try:
        "\u2663\u2666\u2665\u2660".encode(getattr(stream, "encoding", None) or "utf-8")
    except (UnicodeEncodeError, LookupError):
        return False
    return True


class TerminalGame:
    """The interactive loop; ``input_fn(prompt)`` gives lines (EOFError at end), ``out`` gets the text.

    ``colour``: style the output (red suits, the seat to act); ``symbols``: False on a terminal that
    cannot show the suit symbols (they become letters)."""

    def __init__(
        self,
        game: Game,
        *,
        input_fn: Callable[[str], str] = input,
        out: TextIO = sys.stdout,
        ai: str = "normal",
        echo: bool = False,
        rng: random.Random | None = None,
        colour: bool = False,
        symbols: bool = True,
        language: str = SOURCE,
    ) -> None:
        self.game = game
        self.language = language  # its cards and fixed texts (engine.language.LANGUAGE while it runs)
        self.input_fn = input_fn
        self.out = out
        self.ai = ai
        self.echo = echo
        self.rng = rng or random.Random(game.seed)
        self.seen_game_events = 0
        self.symbols = symbols
        self.console = (
            Console(
                file=out,
                force_terminal=True,
                color_system="standard",
                highlight=False,
                markup=False,
                emoji=False,
                soft_wrap=True,
            )
            if colour
            else None
        )
        self.hand_before: list[str] = []  # the player's hand before the last action (to show passed cards)
        self.told_cards = False  # how to type a card: said before the first decision that takes cards
        self.told_michigan = False  # that the rules play Michigan here: said at the first lead
        # told in the second person ("vous ramassez 4"): the player, unless named otherwise (--name ann)
        self.you = HUMAN if game.players[HUMAN].lower() == "you" else None

    def say(self, text: str = "") -> None:
        if not self.symbols:
            text = text.translate(ASCII_FALLBACK)
        if self.console is None:
            self.out.write(text + "\n")
            return
        for line in text.split("\n"):
            self.console.print(styled(line))

    def names(self) -> dict[int, str]:
        """The seats the screen names otherwise than the game: the default player "you" in the game's
        language ("vous", "du"; the saved name, in replays, stays "you")."""
        return {HUMAN: SC.player_word()} if self.you is not None and self.language != SOURCE else {}

    def seat_view(self) -> GameView:
        """The player's view, its seats named as the screen shows them."""
        return SC.renamed(self.game.view(HUMAN), self.names())

    def tell(self, events: list[Event]) -> None:
        """Print events (and game-level events such as eliminations) as sentences, forced plays
        grouped, with why a seat is skipped and which cards a pass brought."""
        game = self.game
        view = self.seat_view()
        returned = {id(e) for e in events}
        extra = [e for e in game.game_events[self.seen_game_events :] if id(e) not in returned]
        self.seen_game_events = len(game.game_events)
        told = extra + list(events)
        if not self.told_michigan and any(isinstance(e, ev.Play) and e.how == "lead" for e in told):
            self.told_michigan = True
            if michigan_plays_itself(game):
                self.say(_(MICHIGAN_BY_RULE))
        for line in TV.describe_events(told, view, group_forced=True, you=self.you):
            self.say("  " + line)
        for e in told:
            if isinstance(e, ev.Auction) and e.kind != "suit":
                self.say_auction_skips(view)
            if isinstance(e, ev.PassCards):
                self.say_received(view, e.direction)
            if isinstance(e, ev.ToSpace) and e.reason == "corner bet":
                self.say_cover_skips(view, e.seat, e.amount)
            if isinstance(e, ev.Deal) and e.spare:
                self.say_spare_unused(view, told)
        self.hand_before = list(view["hand"] or [])
        if any(isinstance(e, ev.RoundEnd) for e in events) and game.log:
            self.say(SC.render_round_result(game.log[-1], view, game.round_number, self.you))

    def say_auction_skips(self, view: GameView) -> None:
        """Who may not bid for the spare hand, and by which rule."""
        skipped = self.game.spare_auction_exclusions()
        if skipped:
            seats = ", ".join(f"{TV.name_of(view, seat)} ({_(why)})" for seat, why in skipped.items())
            self.say("  " + _("not bidding for the spare hand: {seats}").format(seats=seats))

    def say_spare_unused(self, view: GameView, told: list[Event]) -> None:
        """Rulebook: when the dealer is not asked about the spare hand at all, say which rule
        leaves it out (the dealer's hand holds a money card, and every other hand holds one too)."""
        asked = view["phase"] == PhaseName.SPARE_HAND or any(
            isinstance(e, (ev.Keep, ev.Swap, ev.Auction)) for e in told
        )
        if self.game.options.spare_hand == "rulebook" and not asked:
            sentence = _(
                "the spare hand stays out: the dealer ({name}) holds a money card, so may not swap, and every"
                " other player holds one, so nobody may bid"
            )
            self.say("  " + sentence.format(name=TV.name_of(view, view["dealer"])))

    def say_cover_skips(self, view: GameView, bettor: int, amount: int) -> None:
        """Who is not asked to cover a corner bet: a cover must match it, and they have fewer chips."""
        short = [
            ngettext("{name} ({chips} chips)", "{name} ({chips} chips)", s["stack"]).format(
                name=s["name"], chips=s["stack"]
            )
            for s in view["seats"]
            if s["seat"] != bettor and s["status"] == "active" and s["stack"] < amount
        ]
        if short:
            sentence = _("too few chips to cover the {amount}-chip corner bet: {seats}")
            self.say("  " + sentence.format(amount=amount, seats=", ".join(short)))

    def say_received(self, view: GameView, direction: str) -> None:
        """The cards the player was passed, and by whom."""
        active = [s["seat"] for s in view["seats"] if s["status"] not in ("sitting-out", "eliminated")]
        if HUMAN not in active:
            return
        got = sorted(
            (Counter(view["hand"] or []) - Counter(self.hand_before)).elements(),
            key=lambda c: C.sort_key(C.parse(c)),
        )
        giver = active[(active.index(HUMAN) + (-1 if direction == "left" else 1)) % len(active)]
        self.say("  " + _("you receive {cards} from {name}").format(cards=TV.cards(got), name=TV.name_of(view, giver)))

    def run(self) -> int:
        token = LANGUAGE.set(self.language)
        try:
            return self._play()
        finally:
            LANGUAGE.reset(token)

    def _play(self) -> int:
        game = self.game
        preset = game.preset
        self.say(f"{_(preset.name)}: {_(preset.summary) if preset.summary else ''}".rstrip(": "))
        self.say(
            _("Players: {players}. You are {name} (seat {seat}). The game ends {end}.").format(
                players=", ".join(self.names().get(seat, name) for seat, name in enumerate(game.players)),
                name=self.names().get(HUMAN, game.players[HUMAN]),
                seat=HUMAN,
                end=TV.game_end_words(game.options.game_end),
            )
        )
        if game.options.strict_claims:
            self.say(_("Strict claims are on: when a pay card pays you, `claim` it or the chips stay."))
        self.say(
            _(
                "Type `help` for the legal moves, `help SPACE` for what a space pays, `rules` for the rules"
                " (in sections), `table` to see the table, `quit` to leave."
            )
        )
        try:
            while not game.finished:
                aw = game.awaiting()
                if aw is None:
                    if game.over:
                        self.say(_("Clearing the board (end-of-game showdown):"))
                    self.tell(game.next_deal())
                    continue
                if aw.seat == HUMAN:
                    events = self.human_turn()
                else:
                    events = game.apply(choose_action(game, aw.seat, self.ai, self.rng))
                self.tell(events)
        except EOFError:
            return self.leave(_("Input ended: leaving the game in round {round}.").format(round=game.round_number), 0)
        except QuitGame:
            return self.leave(_("You left the game in round {round}.").format(round=game.round_number), 0)
        except KeyboardInterrupt:
            return self.leave(_("Interrupted: leaving the game in round {round}.").format(round=game.round_number), 130)
        self.say("")
        self.say(_("The game is over."))
        self.say(SC.render_standings(self.game.standings(), self.names()))
        return 0

    def rules_answer(self, which: str) -> str:
        """``rules``: the sections of this game's rules; ``rules N`` or ``rules WORD`` (a word of its
        title): one section; ``rules all``: every section (the whole rule book is long for a screen); in
        the game's language."""
        game = self.game
        pages = rulebook.rule_pages(game.preset_key, game.options.to_dict(), self.language)
        titles = [rulebook.page_title(page) for page in pages]
        wanted = which.strip().lower()
        if wanted == "all":
            return rulebook.plain_pages(game.preset_key, game.options, self.language)
        if not wanted:
            lines = [
                ngettext(
                    "The rules of {game}, in {count} section:", "The rules of {game}, in {count} sections:", len(pages)
                ).format(game=_(game.preset.name), count=len(pages))
            ]
            lines += [f"  {number}. {title}" for number, title in enumerate(titles, 1)]
            lines.append(
                _(
                    "Type `rules 1` … `rules {count}` (or a word of the title: `rules poker`), `rules all` for all."
                ).format(count=len(pages))
            )
            return "\n".join(lines)
        found = [
            i
            for i, title in enumerate(titles)
            if wanted == str(i + 1) or wanted in title.lower().replace("(", " ").replace(")", " ").split()
        ]
        if len(found) != 1:
            return _("Cannot read that: no section {section}; the sections are 1 to {count}: {titles}.").format(
                section=repr(which.strip()), count=len(pages), titles=", ".join(titles)
            )
        return pages[found[0]].replace("**", "")

    def space_answer(self, space: str) -> str:
        """``help SPACE``: what pays that space."""
        game = self.game
        try:
            return rulebook.space_help(game.preset_key, game.options, space.strip(), self.language)
        except Worded as exc:
            return _("Cannot read that: {reason}.").format(reason=TV.printable(exc.in_language(self.language)))

    def leave(self, why: str, code: int) -> int:
        """End before the game does: say why and show the standings so far."""
        self.say("")
        self.say(why)
        self.say(SC.render_standings(self.game.standings(), self.names()))
        return code

    def human_view(self) -> GameView:
        """The player's view, with the suggested Wanagan reveal or pass (from the player's own cards)."""
        game = self.game
        view = self.seat_view()
        legal = view.get("legal", [])
        if "reveal" in legal or "pass_cards" in legal:
            hint = choose_action(game, HUMAN, "heuristic", random.Random(0))
            view["detail"]["suggested"] = (
                {"cards": hint.cards, "space": hint.space} if hint.do == "reveal" else hint.cards
            )
        return view

    def unoffered(self, view: GameView) -> list[str]:
        """Why a choice the player might look for is not offered (Rulebook spare hand)."""
        game = self.game
        legal = view.get("legal", [])
        if (
            view["phase"] != PhaseName.SPARE_HAND
            or game.options.spare_hand != "rulebook"
            or view.get("detail", {}).get("stage") != "decide"
        ):
            return []
        lines = []
        if "swap" not in legal:
            lines.append("  " + _("(no `swap`: your hand holds a money card of this mat)"))
        if "auction" not in legal:
            lines.append(
                "  " + _("(no `auction`: every other player holds a money card of this mat, so nobody may bid)")
            )
        return lines

    def check_declaration(self, action: Action, view: GameView) -> str | None:
        """A Wanagan reveal whose five cards lack the declared combination is refused (IllegalAction)
        while the hand can make an open space; when it can make none, the reveal goes ahead and
        the returned note says it cannot win."""
        game = self.game
        d = view["detail"]
        assert action.space is not None, "game.check has accepted the declared space"
        wild = C.parse_many(d.get("wild") or [])
        if game.wanagan_qualifies(C.parse_many(action.cards or []), action.space, wild):
            return None
        hand = C.parse_many(view["hand"] or [])
        possible = [sp for sp in d["spaces"] if game.wanagan_qualifies(hand, sp, wild)]
        if possible:
            raise IllegalAction.plain(TV.wanagan_refusal(view, action.cards or [], action.space, possible))
        return _("None of the open spaces can be made from your hand: this reveal cannot win.")

    def meta_command(self, name: str, args: list[str], view: GameView) -> None:
        """A command about the game rather than a move (``table``, ``help [SPACE]``, ``rules``, ``quit``): answered,
        and the same move is asked again."""
        if name == "quit":
            raise QuitGame
        if name == "table":
            self.say(SC.render_view(self.seat_view(), events=True, you=self.you))
        elif name == "rules":
            self.say(self.rules_answer(" ".join(args)))
        elif name == "help" and args:
            self.say(self.space_answer(" ".join(args)))
        elif name == "help":
            self.say("\n".join([SC.render_prompt(view), *self.unoffered(view)]))

    def human_turn(self) -> list[Event]:
        game = self.game
        view = self.human_view()
        self.say("")
        self.say(SC.render_view(view, you=self.you))
        if not self.told_cards and CARD_VERBS & set(view.get("legal", [])):
            self.told_cards = True
            self.say(_("How to type cards: {syntax}.").format(syntax=card_syntax()))
        self.say("\n".join([SC.render_prompt(view), *self.unoffered(view)]))
        while True:
            line = self.input_fn("> ")
            if self.echo:
                self.say(f"> {TV.printable(line)}")
            words = line.split()
            meta = META.get(words[0].lower()) if words else None
            if meta is not None:
                self.meta_command(meta, words[1:], view)
                continue
            note = None
            try:
                action = parse_command(line, HUMAN, view.get("legal", []), view.get("detail", {}))
                game.check(action)
                if action.do == "reveal":
                    note = self.check_declaration(action, view)
            except IllegalAction as exc:
                self.say(_(REFUSED).format(reason=TV.printable(SC.reason_text(exc, view))))
                continue
            except ValueError as exc:
                self.say(_(UNREADABLE).format(reason=TV.printable(SC.reason_text(exc, view))))
                continue
            if note:
                self.say(note)
            return game.apply(action)


def new_game(
    preset: str = "tripoley",
    players: int = 4,
    seed: int | None = None,
    rounds: int | None = None,
    name: str = "you",
    options: dict[str, Any] | None = None,
) -> Game:
    """A game with the player in seat 0; ``rounds`` None keeps the preset's game length."""
    names = [name] + [n for n in AI_NAMES if n != name][: players - 1]
    names += [f"AI {i}" for i in range(len(names), players)]
    opts = {**({"game_end": f"rounds:{rounds}"} if rounds is not None else {}), **(options or {})}
    return Game.new(preset, names, options=opts, seed=seed)


def run(
    preset: str = "tripoley",
    players: int = 4,
    seed: int | None = None,
    rounds: int | None = None,
    name: str = "you",
    *,
    input_fn: Callable[[str], str] = input,
    out: TextIO = sys.stdout,
    echo: bool = False,
    options: dict[str, Any] | None = None,
    colour: bool = False,
    symbols: bool = True,
    err: TextIO | None = None,
    save: str | None = None,
    ai_level: str = "normal",
    language: str = SOURCE,
) -> int:
    """Set up and play a game; a bad set-up is one line on ``err`` (default: ``out``), exit code 2."""
    err = err or out
    try:
        if rounds is not None and rounds < 1:
            raise ValueError("--rounds must be at least 1")
        get_preset(preset)
        game = new_game(preset, players, seed, rounds, name, options)
    except ValueError as exc:
        err.write(f"error: {exc}" + (f" (presets: {', '.join(PRESETS)})" if preset not in PRESETS else "") + "\n")
        return 2
    try:
        return TerminalGame(
            game, input_fn=input_fn, out=out, ai=ai_level, echo=echo, colour=colour, symbols=symbols, language=language
        ).run()
    finally:  # finished, quit, end of input or Ctrl-C: the game so far is a replay
        if save:
            save_replay(game, save, out)


def save_replay(game: Game, path: str, out: TextIO) -> None:
    """Write the game as a replay file (``python -m engine replay FILE`` plays it back)."""
    try:
        with open(path, "w", encoding="utf-8") as fh:
            json.dump(game.to_replay(), fh, indent=1)
            fh.write("\n")
    except OSError as exc:
        out.write(f"could not save the replay to {path}: {exc.strerror or exc}\n")
        return
    out.write(f"Replay saved to {path} (play it back with: python -m engine replay {path}).\n")


def line_editing() -> None:
    """Arrow keys, editing and the history of this game's lines at the prompt (``input`` uses readline
    once it is imported); where Python has no readline (Windows), lines are typed plainly."""
    try:
        import readline  # noqa: F401 - importing it is what turns line editing on
    except ImportError:
        return


def main(args: Any) -> int:
    """``args``: the parsed command line, with ``options`` the house rules as a dict."""
    interactive = sys.stdin.isatty()
    if interactive:
        line_editing()

    def read(prompt: str) -> str:
        if interactive:
            return input(prompt)
        line = sys.stdin.readline()
        if not line:
            raise EOFError
        return line.rstrip("\n")

    return run(
        args.preset,
        args.players,
        args.seed,
        args.rounds,
        args.name,
        input_fn=read,
        out=sys.stdout,
        echo=not interactive,
        options=args.options,
        colour=wants_colour(sys.stdout),
        symbols=shows_symbols(sys.stdout),
        err=sys.stderr,
        save=args.save,
        ai_level=args.ai_level,
        language=args.lang or language_from_environment(os.environ),
    )
