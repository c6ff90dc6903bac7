"""Our views never time out: discord.py gives an ephemeral message's view 15 minutes, and a view
that times out took every table's buttons out of its routing (see tests/cogs/test_cog_kept_objects.py
for the views and clicks a running bot keeps)."""

from __future__ import annotations

from bot.discordio.ui import build_view
from bot.messages.components import ButtonSpec


def test_a_view_ignores_the_timeout_discord_py_gives_an_ephemeral_one():
    view = build_view([ButtonSpec("tripoley:1:0:hand", "Show my hand")])
    view.timeout = 15 * 60.0  # what discord.py sets on the view of an ephemeral message
    assert view.timeout is None
