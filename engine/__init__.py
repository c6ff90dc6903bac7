"""The Tripoley family's rules: pure, synchronous and deterministic given a seed."""

from .events import Event
from .game import Game
from .model import Action, Awaiting, IllegalAction
from .options import Options
from .presets import PRESETS, Preset, Space, get_preset

__all__ = [
    "Action",
    "Awaiting",
    "Event",
    "Game",
    "IllegalAction",
    "Options",
    "PRESETS",
    "Preset",
    "Space",
    "get_preset",
]
