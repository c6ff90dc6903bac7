"""Every kind of button the ids can name has one handler in the controller's tables."""

from __future__ import annotations

import typing

from bot.discordio.controller import Controller
from bot.messages import buttonids


def test_every_kind_of_button_has_exactly_one_handler() -> None:
    controller = Controller(manager=typing.cast(typing.Any, None))
    kinds = set(typing.get_args(buttonids.ButtonId))
    assert len(kinds) > 10
    assert not set(controller.untabled) & set(controller.routes)
    assert set(controller.untabled) | set(controller.routes) == kinds
