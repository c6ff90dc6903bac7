"""Command line: ``python -m engine replay|simulate|play``.

Every bad input ends in one line on stderr naming the problem and exit code 2, never a
traceback; output to a closed pipe (``| head``) or to a terminal that cannot show the card
symbols ends or degrades quietly.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable
from dataclasses import fields
from typing import Any, NoReturn

from .ai import LEVELS
from .language import LANGUAGES
from .options import CHOICES, Options
from .presets import PRESETS, options_for
from .textview import printable

#: How the values of the options without a fixed list of choices are written.
OPTION_FORMS = {
    "ante": "flat:N or rulebook",
    "game_end": "rounds:N, minutes:N or elimination",
    "decks": "0 (by player count) to 4",
}

#: The name the command was run by: the console script (``tripoley``, from the install) or ``python -m engine``.
PROG = "tripoley" if os.path.basename(sys.argv[0]) == "tripoley" else "python -m engine"


class Parser(argparse.ArgumentParser):
    """An argument parser whose errors are one line (the usage is one ``--help`` away)."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, printable(f"{self.prog}: {message} (see {self.prog} --help)") + "\n")


def whole_number(minimum: int) -> Callable[[str], int]:
    """An argparse type: a whole number of at least ``minimum`` (``-5`` is refused, not read as 5)."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
        if value < minimum:
            raise argparse.ArgumentTypeError(f"must be at least {minimum}, got {value}")
        return value

    parse.__name__ = "whole number"
    return parse


def option_values(name: str, kind: Any) -> str:
    """The values one option accepts, in words for ``--help``."""
    if name in CHOICES:
        return " | ".join(CHOICES[name])
    if name in OPTION_FORMS:
        return OPTION_FORMS[name]
    kind = kind if isinstance(kind, str) else getattr(kind, "__name__", str(kind))
    return {"bool": "true | false", "int": "a whole number"}.get(kind, "text")


def options_help() -> str:
    """The house rules ``-o NAME=VALUE`` accepts, with their values (an unset option keeps the preset's)."""
    lines = ["house rules for -o NAME=VALUE (an option not given keeps the preset's value):"]
    lines += [f"  {f.name:<20} {option_values(f.name, f.type)}" for f in fields(Options)]
    return "\n".join(lines)


def parse_overrides(items: list[str], preset: str) -> dict[str, str]:
    """``["bet_limit=10", ...]`` → ``{"bet_limit": "10"}``, checked against ``preset`` (ValueError)."""
    overrides: dict[str, str] = {}
    for item in items:
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise ValueError(f"-o {item!r}: write a house rule as NAME=VALUE, e.g. -o bet_limit=10")
        overrides[key.strip()] = value.strip()
    if preset not in PRESETS:
        raise ValueError(f"unknown preset {preset!r} (presets: {', '.join(PRESETS)})")
    options_for(PRESETS[preset], overrides)
    return overrides


def preset_game_length() -> str:
    """The presets' game length in words, for the ``--rounds`` default."""
    from .textview import game_end_words

    lengths = {preset.options.game_end for preset in PRESETS.values()}
    return f"the preset's, {game_end_words(lengths.pop())}" if len(lengths) == 1 else "the preset's"


def add_table(parser: argparse.ArgumentParser, seats: str) -> None:
    """``--preset``, ``--players`` and the house rules ``-o NAME=VALUE``, shared by ``simulate`` and ``play``."""
    parser.add_argument("--preset", default="tripoley", help=f"the game: {', '.join(PRESETS)} (default: %(default)s)")
    parser.add_argument(
        "--players", type=whole_number(2), default=4, metavar="N", help=f"{seats} (default: %(default)s)"
    )
    parser.add_argument(
        "--option",
        "-o",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="a house rule (repeatable), e.g. -o bet_limit=10; listed below (default: none)",
    )


def build_parser() -> Parser:
    parser = Parser(
        prog=PROG,
        description="Tripoley family rules engine: replay a game file, simulate AI games, or play in the terminal.",
    )
    sub = parser.add_subparsers(dest="command", required=True, parser_class=Parser)
    fmt = argparse.RawDescriptionHelpFormatter

    rp = sub.add_parser(
        "replay",
        help="replay a game file (format: docs/replay.md) and print the outcome",
        description="Replay a game file (decks and decisions; format in docs/replay.md) and "
        "print the outcome: as JSON, or in a few lines when the output is a terminal. "
        "Exit 0 when it ran, 2 when the file is refused.",
    )
    rp.add_argument("game", help="GAME.json, or - for standard input")
    rp.add_argument("--trace", action="store_true", help="also print one JSON line per event to stderr (default: off)")
    shown = rp.add_mutually_exclusive_group()
    shown.add_argument(
        "--json",
        dest="as_json",
        action="store_const",
        const=True,
        help="print the outcome as JSON (the default unless the output is a terminal)",
    )
    shown.add_argument(
        "--summary",
        dest="as_json",
        action="store_const",
        const=False,
        help="print the outcome in a few lines (the default on a terminal)",
    )

    sp = sub.add_parser(
        "simulate",
        help="AI-only games with payout totals and a conservation check",
        description="AI-only games: payout totals per space, pots and speed, with a "
        "check after every action that no chip or card is created or lost.",
        epilog=options_help(),
        formatter_class=fmt,
    )
    add_table(sp, "seats at the table")
    sp.add_argument(
        "--rounds",
        type=whole_number(1),
        default=100,
        metavar="N",
        help="rounds to play in all, over as many games as it takes (default: %(default)s)",
    )
    sp.add_argument(
        "--seed", type=whole_number(0), default=1, metavar="N", help="random seed, 0 or more (default: %(default)s)"
    )
    sp.add_argument(
        "--ai", choices=("heuristic", "random"), default="heuristic", help="how the seats decide (default: %(default)s)"
    )
    sp.add_argument("--quiet", action="store_true", help="no progress bar on stderr (default: off)")

    pp = sub.add_parser(
        "play",
        help="play in the terminal against AI seats",
        description="Play in the terminal, you in seat 0 against AI seats.\nColour is on "
        "when the output is a terminal and NO_COLOR is not set.",
        epilog=options_help(),
        formatter_class=fmt,
    )
    add_table(pp, "seats at the table, you included")
    pp.add_argument(
        "--seed",
        type=whole_number(0),
        default=None,
        metavar="N",
        help="random seed, 0 or more, to replay the same deals (default: a new game each time)",
    )
    pp.add_argument(
        "--rounds",
        type=whole_number(1),
        default=None,
        metavar="N",
        help=f"rounds before the game ends (default: {preset_game_length()})",
    )
    pp.add_argument("--name", default="you", help="your name at the table (default: %(default)s)")
    pp.add_argument(
        "--ai-level", choices=LEVELS, default="normal", help="how strong the AI seats play (default: %(default)s)"
    )
    pp.add_argument(
        "--save", metavar="FILE", help="write the game as a replay file when it ends or you leave (default: no file)"
    )
    pp.add_argument(
        "--lang",
        choices=LANGUAGES,
        default=None,
        help="the game's language: its cards (R, D, V in French; K, D, B in German) and texts"
        " (default: from LANGUAGE, LC_ALL, LC_MESSAGES or LANG, else en)",
    )
    return parser


def _run(argv: list[str] | None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command == "replay":
        from .replay import main as replay_main

        return replay_main(args.game, trace=args.trace, as_json=args.as_json)
    try:
        args.options = parse_overrides(args.option, args.preset)
        if args.command == "play":
            if args.rounds is not None and "game_end" in args.options:
                raise ValueError("give --rounds or -o game_end=..., not both")
            if not args.name.strip() or not args.name.isprintable():
                raise ValueError("--name must be printable text, e.g. --name ann")
    except ValueError as exc:
        parser.exit(2, printable(f"python -m engine {args.command}: {exc}") + "\n")
    if args.command == "simulate":
        from .simulate import main as simulate_main

        return simulate_main(args)
    from .play import main as play_main

    return play_main(args)


def _tolerant_streams() -> None:
    """A terminal that cannot encode a character gets a replacement instead of a traceback."""
    for stream in (sys.stdout, sys.stderr):
        if hasattr(stream, "reconfigure"):
            stream.reconfigure(errors="replace")
    if hasattr(sys.stdin, "reconfigure"):
        sys.stdin.reconfigure(errors="replace")


def main(argv: list[str] | None = None) -> int:
    _tolerant_streams()
    try:
        return _run(argv)
    except BrokenPipeError:
        # The reader went away (``| head``): stop writing, and keep the interpreter's final flush quiet.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except KeyboardInterrupt:
        sys.stderr.write("interrupted\n")
        return 130


if __name__ == "__main__":
    sys.exit(main())
