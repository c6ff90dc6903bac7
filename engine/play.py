"""``python -m engine play``: a game in the terminal, you in seat 0 against heuristic AI seats.

Reads one line per decision (``bet 5``, ``call``, ``lead 4C``, ``choose best``,
``bid 3``, ``name_suit S``...), re-asks with the engine's message when a move is
refused, and works with piped input: at end of input it leaves cleanly. The
loop takes an ``input_fn`` and an output stream so tests can drive it directly.
"""

from __future__ import annotations

import json
import random
import sys
from collections.abc import Callable
from typing import Any, TextIO

from . import rulebook
from . import textview as TV
from .ai import choose_action
from .game import Game
from .model import Action, Event, IllegalAction
from .presets import PRESETS, get_preset

HUMAN = 0
AI_NAMES = ["ann", "bob", "cat", "dan", "eve", "fay", "gus", "hal", "ivy", "jon",
            "kim", "lou", "max", "ned", "oli", "pam", "quin", "rex", "sue", "tom"]

SYMBOLS = {"\u2663": "C", "\u2666": "D", "\u2665": "H", "\u2660": "S"}
ALIASES = {"name": "name_suit", "suit": "name_suit", "namesuit": "name_suit", "suitbid": "suit_bid",
           "fullhouse": "full_house", "passcards": "pass_cards", "cornerbet": "corner_bet"}
META = {"table": "table", "t": "table", "view": "table", "help": "help", "?": "help", "h": "help",
        "quit": "quit", "exit": "quit", "q": "quit", "rules": "rules"}


class QuitGame(Exception):
    """The player typed ``quit``."""


def _card_token(text: str) -> str:
    t = text.strip().upper()
    for sym, letter in SYMBOLS.items():
        t = t.replace(sym, letter)
    return t


def _looks_like_card(text: str) -> bool:
    from . import cards as C

    try:
        C.parse(_card_token(text))
        return True
    except ValueError:
        return False


def parse_command(text: str, seat: int, legal: list[str], detail: dict[str, Any]) -> Action:
    """Turn a typed line into an Action for ``seat``.

    ``ValueError`` for a line that cannot be read (the message says how to write it); whether
    the action is *allowed* is left to the engine (``Game.check``), whose message is shown.
    """
    words = text.replace(",", " ").split()
    if not words:
        raise ValueError("type an action, e.g. " + " or ".join(f"`{x}`" for x in legal))
    verb = words[0].lower().replace("-", "_")
    args = words[1:]
    verb = ALIASES.get(verb, verb)
    if verb == "best":
        verb, args = "choose", ["best"]
    elif verb not in legal and "lead" in legal and not args and _looks_like_card(verb):
        verb, args = "lead", [words[0]]  # a bare card leads it
    if verb == "bid" and "bid" not in legal and "suit_bid" in legal:
        verb = "suit_bid"
    if verb not in legal:
        starts = [x for x in legal if x.startswith(verb)]
        if len(starts) == 1:
            verb = starts[0]
    if verb in ("bid", "suit_bid", "bet", "raise"):
        amount = None
        if args:
            try:
                amount = int(args[0])
            except ValueError:
                raise ValueError(f"{verb} needs a whole number of chips, e.g. `{verb} {detail.get('min', 1)}`") from None
        return Action(seat=seat, do=verb, amount=amount)
    if verb == "lead":
        return Action(seat=seat, do=verb, card=_card_token(args[0]) if args else None)
    if verb == "choose":
        if not args or (len(args) == 1 and args[0].lower() == "best"):
            if not detail.get("best"):
                raise ValueError("no best five is offered now; name five cards")
            return Action(seat=seat, do=verb, cards=list(detail["best"]))
        return Action(seat=seat, do=verb, cards=[_card_token(a) for a in args])
    if verb == "name_suit":
        if not args:
            raise ValueError("name_suit needs a suit: C, D, H or S")
        return Action(seat=seat, do=verb, suit=_card_token(args[0]))
    if verb in ("full_house", "straight", "pass_cards"):
        return Action(seat=seat, do=verb, cards=[_card_token(a) for a in args] or None)
    if verb == "reveal":
        space = None
        picked = []
        for a in args:
            if _looks_like_card(a) and len(picked) < 5:
                picked.append(_card_token(a))
            else:
                space = a
        return Action(seat=seat, do=verb, cards=picked or None, space=space)
    if verb == "corner_bet":
        ace = next((_card_token(a) for a in args if _looks_like_card(a)), None)
        amount = next((int(a) for a in args if a.isdigit()), None)
        return Action(seat=seat, do=verb, ace=ace, amount=amount)
    if args:
        raise ValueError(f"`{verb}` takes nothing after it")
    return Action(seat=seat, do=verb)


class TerminalGame:
    """The interactive loop; ``input_fn(prompt)`` gives lines (EOFError at end), ``out`` gets the text."""

    def __init__(self, game: Game, *, input_fn: Callable[[str], str] = input, out: TextIO = sys.stdout,
                 ai: str = "heuristic", echo: bool = False, rng: random.Random | None = None) -> None:
        self.game = game
        self.input_fn = input_fn
        self.out = out
        self.ai = ai
        self.echo = echo
        self.rng = rng or random.Random(game.seed)
        self.seen_game_events = 0

    def say(self, text: str = "") -> None:
        self.out.write(text + "\n")

    def tell(self, events: list[Event]) -> None:
        """Print events (and game-level events such as eliminations) as sentences."""
        game = self.game
        view = game.view(HUMAN)
        returned = {id(e) for e in events}
        extra = [e for e in game.game_events[self.seen_game_events:] if id(e) not in returned]
        self.seen_game_events = len(game.game_events)
        for line in TV.describe_events([dict(e) for e in extra] + [dict(e) for e in events], view):
            self.say("  " + line)
        if any(e.get("type") == "round-end" for e in events) and game.log:
            self.say(TV.render_round_result(game.log[-1], view, game.round_number))

    def run(self) -> int:
        game = self.game
        preset = game.preset
        self.say(f"{preset.name}: {preset.summary}".rstrip(": "))
        self.say(f"Players: {', '.join(game.players)}. You are {game.players[HUMAN]} (seat {HUMAN}). "
                 f"Game ends after {game.options.game_end.replace(':', ' ')}.")
        if game.options.strict_claims:
            self.say("Strict claims are on: when a pay card pays you, `claim` it or the chips stay.")
        self.say("Type `help` for the legal moves, `help SPACE` for what a space pays, `rules` for the rules, "
                 "`table` to see the table, `quit` to leave.")
        try:
            while not game.finished:
                aw = game.awaiting()
                if aw is None:
                    if game.over:
                        self.say("Clearing the board (end-of-game showdown):")
                    self.tell(game.next_deal())
                    continue
                if aw.seat == HUMAN:
                    events = self.human_turn()
                else:
                    events = game.apply(choose_action(game, aw.seat, self.ai, self.rng))
                self.tell(events)
        except EOFError:
            self.say("")
            self.say(f"Input ended: leaving the game in round {game.round_number}.")
            self.say(TV.render_standings(game.standings()))
            return 0
        except QuitGame:
            self.say(f"You left the game in round {game.round_number}.")
            self.say(TV.render_standings(game.standings()))
            return 0
        self.say("")
        self.say("The game is over.")
        self.say(TV.render_standings(game.standings()))
        return 0

    def rules_answer(self, space: str) -> str:
        """``rules``: the rule pages of this game; ``help SPACE``: what pays that space."""
        game = self.game
        if not space.strip():
            return rulebook.plain_pages(game.preset_key, game.options)
        try:
            return rulebook.space_help(game.preset_key, game.options, space.strip())
        except ValueError as exc:
            return f"Cannot read that: {exc}."

    def human_turn(self) -> list[Event]:
        game = self.game
        view = game.view(HUMAN)
        self.say("")
        self.say(TV.render_view(view))
        self.say(TV.render_prompt(view))
        while True:
            line = self.input_fn("> ")
            if self.echo:
                self.say(f"> {line}")
            word = line.strip().lower()
            meta = META.get(word)
            if meta == "quit":
                raise QuitGame
            if meta == "table":
                self.say(TV.render_view(game.view(HUMAN), events=True))
                continue
            if meta == "help":
                self.say(TV.render_prompt(game.view(HUMAN)))
                continue
            if meta == "rules" or word.startswith("help "):
                self.say(self.rules_answer(line.strip()[len("help"):] if meta is None else ""))
                continue
            try:
                action = parse_command(line, HUMAN, view.get("legal") or [], view.get("detail") or {})
                game.check(action)
            except IllegalAction as exc:
                self.say(f"Not allowed: {exc}. Try again.")
                continue
            except ValueError as exc:
                self.say(f"Cannot read that: {exc}. Try again.")
                continue
            return game.apply(action)


def new_game(preset: str = "tripoley", players: int = 4, seed: int | None = None, rounds: int = 3,
             name: str = "you", options: dict[str, Any] | None = None) -> Game:
    names = [name] + [n for n in AI_NAMES if n != name][: players - 1]
    names += [f"AI {i}" for i in range(len(names), players)]
    opts = {"game_end": f"rounds:{rounds}", **(options or {})}
    return Game.new(preset, names, options=opts, seed=seed)


def run(preset: str = "tripoley", players: int = 4, seed: int | None = None, rounds: int = 3,
        name: str = "you", *, input_fn: Callable[[str], str] = input, out: TextIO = sys.stdout,
        echo: bool = False, options: dict[str, Any] | None = None, save: str | None = None) -> int:
    try:
        if rounds < 1:
            raise ValueError("--rounds must be at least 1")
        get_preset(preset)
        game = new_game(preset, players, seed, rounds, name, options)
    except ValueError as exc:
        out.write(f"error: {exc}\n")
        if preset not in PRESETS:
            out.write(f"presets: {', '.join(PRESETS)}\n")
        return 2
    try:
        return TerminalGame(game, input_fn=input_fn, out=out, echo=echo).run()
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


def main(args: Any) -> int:
    interactive = sys.stdin.isatty()

    def read(prompt: str) -> str:
        if interactive:
            return input(prompt)
        line = sys.stdin.readline()
        if not line:
            raise EOFError
        return line.rstrip("\n")

    try:
        return run(args.preset, args.players, args.seed, args.rounds, args.name,
                   input_fn=read, out=sys.stdout, echo=not interactive, save=getattr(args, "save", None))
    except KeyboardInterrupt:
        sys.stdout.write("\ninterrupted: leaving the game.\n")
        return 130
