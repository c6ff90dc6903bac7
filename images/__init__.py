"""Images of the game drawn with Pillow from engine views (never hidden state).

``render_mat(view)``, ``render_hand(view)``, ``render_showdown(view)`` and
``render_summary(view_or_standings)`` each return a :class:`Rendered` with
``png`` bytes and ``alt`` text (and ``render_stats(stats)``, a player's stats chart, from plain
data: :mod:`images.stats`; ``render_tournament(standings)``, a tournament's standings: :mod:`images.tournament`).  See docs/images.md.
"""

from typing import Any

from .base import Rendered
from .mat import render_mat

__all__ = [
    "Rendered",
    "render_mat",
    "render_hand",
    "render_showdown",
    "render_summary",
    "render_stats",
    "render_tournament",
]


def __getattr__(name: str) -> Any:  # the other renderers are imported lazily
    if name in ("render_hand", "render_showdown", "render_summary"):
        from . import hands

        return getattr(hands, name)
    if name == "render_stats":
        from .stats import render_stats

        return render_stats
    if name == "render_tournament":
        from .tournament import render_tournament

        return render_tournament
    raise AttributeError(name)
