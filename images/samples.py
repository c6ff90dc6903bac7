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


# Nicknames as players pick them, in the scripts and styles DejaVu alone cannot draw (the font fallback's
# test set and the docs' mat-world renders): emoji, CJK, right-to-left and joined scripts, Indic and Thai
# marks, styled maths letters, zalgo, ZWJ sequences, flags and a name longer than any seat box.
WORLD_NAMES = [
    "\U0001f525Mike\U0001f525",
    "\u674e\u5c0f\u9f8d",
    "\u0645\u062d\u0645\u062f \u0639\u0644\u064a",
    "\u05d3\u05d5\u05d3 \u05db\u05d4\u05df",
    "\u0926\u0947\u0935\u0947\u0902\u0926\u094d\u0930",
    "\u0e2a\u0e21\u0e0a\u0e32\u0e22",
    "\u0414\u043c\u0438\u0442\u0440\u0438\u0439",
    "\U0001d4dc\U0001d4f2\U0001d4f4\U0001d4ee",
    "Z\u0334\u0321\u0322a\u0338l\u0337g\u0336o\u0335",
    "\U0001f468\u200d\U0001f469\u200d\U0001f467\u200d\U0001f466 family",
    "\u2764\ufe0f Anna \u2764\ufe0f",
    "Bartholomew-Maximilian von Habsburg-Lothringen",
    "\uae40\ubbfc\uc900",
    "\u3072\u306a\u305f\U0001f338",
    "\u0395\u03bb\u03ad\u03bd\u03b7",
    "\U0001f1ef\U0001f1f5 Taro",
    "\u0e2a\u0e21\u0e28\u0e31\u0e01\u0e14\u0e34\u0e4c",
    "\u0627\u0644\u0623\u0645\u064a\u0631\u0629 \U0001f451",
    "Nguy\u1ec5n V\u0103n An",
    "\u0baa\u0bbf\u0bb0\u0bbf\u0baf\u0bbe (Hard AI)",
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
    from engine.phases.names import PhaseName

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
    v = _play_until(g, lambda g, aw: aw.phase == PhaseName.MICHIGAN_LEAD, random.Random(3))
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
    for n in (6, 20):  # every name drawn: the nicknames DejaVu alone cannot draw
        g = Game.new("tripoley-rulebook", WORLD_NAMES[:n], seed=3)
        g.next_deal()
        save(f"mat-world-names-{n}", render_mat(g.view(None)))
    print("wrote", ", ".join(written), "to", out)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
