"""Command line: ``python -m engine replay|simulate|play``."""

from __future__ import annotations

import argparse
import sys


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m engine", description="Tripoley family rules engine")
    sub = parser.add_subparsers(dest="command", required=True)

    rp = sub.add_parser("replay", help="replay a game file (docs/replay.md) and print the outcome")
    rp.add_argument("game", help="GAME.json, or - for standard input")
    rp.add_argument("--trace", action="store_true", help="print one line per event to stderr")

    sp = sub.add_parser("simulate", help="AI-only games with payout totals and a conservation check")
    sp.add_argument("--preset", default="tripoley")
    sp.add_argument("--players", type=int, default=4)
    sp.add_argument("--rounds", type=int, default=100)
    sp.add_argument("--seed", type=int, default=1)
    sp.add_argument("--ai", choices=("heuristic", "random"), default="heuristic")
    sp.add_argument("--option", "-o", action="append", default=[], metavar="NAME=VALUE",
                    help="override an option (repeatable), e.g. -o bet_limit=10")
    sp.add_argument("--quiet", action="store_true", help="no progress bar")

    pp = sub.add_parser("play", help="play in the terminal against AI seats")
    pp.add_argument("--preset", default="tripoley")
    pp.add_argument("--players", type=int, default=4)
    pp.add_argument("--seed", type=int, default=None)
    pp.add_argument("--rounds", type=int, default=3)
    pp.add_argument("--name", default="you")
    pp.add_argument("--save", metavar="FILE", help="write the game as a replay file when it ends or you leave")

    args = parser.parse_args(argv)
    if args.command == "replay":
        from .replay import main as replay_main

        return replay_main(args.game, trace=args.trace)
    if args.command == "simulate":
        from .simulate import main as simulate_main

        return simulate_main(args)
    from .play import main as play_main

    return play_main(args)


if __name__ == "__main__":
    sys.exit(main())
