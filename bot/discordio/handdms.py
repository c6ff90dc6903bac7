"""Hands by DM: at each deal, the players who chose it get their hand in a direct message.

Play still happens in the channel (a DM carries no buttons). A player whose DMs are closed to
the bot is told once per table, in the channel, to use **Show my hand** instead.
"""

from __future__ import annotations

import logging

from bot.discordio.render import ImageService
from bot.economy.prefs import Prefs
from bot.i18n.choice import dm_locale
from bot.messages.notices import hand_dms_closed
from bot.messages.outgoing import DMForbidden, Sink, hand_message
from bot.tables.model import Table
from engine.viewtypes import GameView

log = logging.getLogger(__name__)


class HandDMs:
    def __init__(self, prefs: Prefs, sink: Sink, images: ImageService) -> None:
        self.prefs = prefs
        self.sink = sink
        self.images = images
        self._dm_warned: set[tuple[int, int]] = set()  # (table, user) told their DMs are closed

    async def send(self, table: Table, views: dict[int, GameView]) -> None:
        """DM each seat's hand (``views``: seat → its private view) to the players who want it."""
        for seat_index, view in views.items():
            seat = table.seats[seat_index]
            user_id = seat.user_id
            assert user_id is not None  # views are only for members' seats
            try:
                if not await self.prefs.dm_hands(user_id):
                    continue
                out = hand_message(table, seat_index, view, locale=dm_locale(await self.prefs.locale(user_id)).value)
                out.components = []  # DMs carry no buttons: play happens in the channel
                out.text = f"**{table.preset_info.name}** in <#{table.channel_id}>\n" + out.text
                out.image, out.alt = await self.images.render("hand", out.view)
                await self.sink.dm(user_id, out)
            except DMForbidden:
                key = (table.id, user_id)
                if key not in self._dm_warned:
                    self._dm_warned.add(key)
                    try:
                        await self.sink.notice(
                            table.mat_channel,
                            hand_dms_closed(table, user_id),
                            user_id,
                        )
                    except Exception:
                        log.exception("could not post the DM notice")
            except Exception:
                log.exception("could not DM the hand to a player")
