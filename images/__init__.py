"""Images of the game drawn with Pillow from engine views (never hidden state).

``render_mat(view)``, ``render_hand(view)``, ``render_showdown(view)`` and
``render_summary(view_or_standings)`` each return a :class:`Rendered` with
``png`` bytes and ``alt`` text.  See docs/images.md.
"""

from .base import Rendered
from .mat import render_mat

__all__ = ["Rendered", "render_mat", "render_hand", "render_showdown", "render_summary"]


def __getattr__(name):  # the other renderers are imported lazily
    if name in ("render_hand", "render_showdown", "render_summary"):
        from . import hands

        return getattr(hands, name)
    raise AttributeError(name)
