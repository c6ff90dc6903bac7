"""Write sample renders from real engine games: ``python -m images.samples [DIR]``.

Default DIR is ``docs/renders``.  For every preset: the mat in the middle of
Michigan (4 players, and the largest table the preset allows), then a
hand, a showdown and the end-of-game standings.
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

NAMES = [  # players as the bot seats them: Discord names, and AI seats named with their level
    "ann",
    "bob",
    "Ada (Normal AI)",
    "Maximilian the Magnificent",
    "dee",
    "eve",
    "fay",
    "Ramanujan (Hard AI)",
    "hal",
    "ivy",
    "jo",
    "kay",
    "Lovelace (Easy AI)",
    "max",
    "ned",
    "oz",
    "pia",
    "quinn",
    "rae",
    "sam",
]


def _play_until(game, pred, rng, limit=3000):
    from engine.ai import choose_action

    for _ in range(limit):
        aw = game.awaiting()
        if aw is not None and pred(game, aw):
            return game.view(aw.seat)
        if aw is None:
            if game.finished:
                return None
            game.next_deal()
            continue
        game.apply(choose_action(game, aw.seat, kind="heuristic", rng=rng))
    return None


def _michigan_under_way(game, awaiting) -> bool:
    """The moment the mats are drawn at: three cards into a Michigan run, the board in play."""
    return len((game.view(None).get("michigan") or {}).get("sequence") or []) >= 3


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python -m images.samples",
        description="Write sample renders (PNG) from real engine games: the mat "
        "of every preset, a hand, a showdown and the end-of-game standings.",
    )
    parser.add_argument(
        "dir",
        nargs="?",
        default="docs/renders",
        type=Path,
        help="folder for the PNG files, created if missing (default: %(default)s)",
    )
    return parser.parse_args(argv)


# A player's stats as /tripoley stats reads them from the database (made up: no database here).
SAMPLE_STATS = {
    "name": "Ada",
    "games": [
        {"game": game, "net": net, "winner": net > 25}
        for game, net in zip(
            ["Tripoley (Cadaco)", "Rummoli", "Tripoley (Cadaco)", "Great Lakes"] * 3,
            [35, -20, 10, -45, 60, 5, -15, 40, 0, -30, 25, 55],
        )
    ],
    "total_net": 150,
    "by_game": [
        {"game": "Tripoley (Cadaco)", "games": 9, "wins": 4, "net": 170},
        {"game": "Rummoli", "games": 5, "wins": 1, "net": -10},
        {"game": "Great Lakes", "games": 3, "wins": 0, "net": -10},
    ],
}


def main(argv: list[str] | None = None) -> int:
    from engine import PRESETS, Game

    from . import render_hand, render_mat, render_showdown, render_stats, render_summary

    out = parse_args(argv).dir
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        sys.stderr.write(f"python -m images.samples: cannot create {out}: {exc.strerror or exc}\n")
        return 2
    written = []

    def save(name, r):
        (out / f"{name}.png").write_bytes(r.png)
        written.append(name)

    for key, preset in PRESETS.items():
        top = min(20, getattr(preset, "max_players", 9))
        for n in sorted({4, top}):
            g = Game.new(key, NAMES[:n], seed=11 + n)
            g.next_deal()
            rng = random.Random(n)
            if _play_until(g, _michigan_under_way, rng) is None:
                g = Game.new(key, NAMES[:n], seed=11 + n)
                g.next_deal()
            save(f"mat-{key}-{n}", render_mat(g.view(None)))  # the channel's picture: nobody's "(you)"
    # the hand of a player asked to lead, a showdown, a final summary (Cadaco Tripoley)
    g = Game.new("tripoley", NAMES[:4], seed=5)
    g.next_deal()
    v = _play_until(g, lambda g, aw: aw.phase == "michigan-lead", random.Random(3))
    if v:
        save("hand-lead", render_hand(v))
    g = Game.new("tripoley", NAMES[:5], seed=7)
    g.next_deal()
    v = _play_until(g, lambda g, aw: bool((g.view(None).get("poker") or {}).get("showdown")), random.Random(3))
    if v:
        save("showdown", render_showdown(g.view(None)))
        save("mat-poker-showdown", render_mat(g.view(None)))
    g = Game.new("tripoley", NAMES[:6], seed=9, options={"game_end": "rounds:2"})
    g.next_deal()
    _play_until(g, lambda g, aw: False, random.Random(9), limit=20000)
    save("summary", render_summary(g.view(None)))
    save("stats", render_stats(SAMPLE_STATS))
    print("wrote", ", ".join(written), "to", out)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
