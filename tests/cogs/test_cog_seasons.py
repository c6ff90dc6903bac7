"""``/tripoley-admin season`` with mock interactions: who may use it, its refusals, the season shown,
its length and channel set, and its end acknowledged first and posted in the channel set, pinging
nobody."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from bot import errors
from bot.messages.refusals import say
from cogs.admin import Admin
from cogs.tripoley import Tripoley
from tests.cogs.fakes import FakeInteraction

G, C, ELSEWHERE = 5, 600, 777
ANN = 1


@pytest.fixture
def admin(stack):
    return Admin(stack)


def interaction(stack, **kw):
    return FakeInteraction(ANN, C, G, client=stack, **kw)


async def test_only_admins_and_one_thing_at_a_time(stack, admin):
    with pytest.raises(errors.NotAllowed) as refused:
        await admin.admin_season.callback(admin, interaction(stack), end=True)
    assert "Manage Server" in say(refused.value)
    owner = interaction(stack, manage_guild=True)
    with pytest.raises(errors.TripoleyError, match="Choose one"):
        await admin.admin_season.callback(admin, owner, end=True, length="weekly")
    with pytest.raises(errors.TripoleyError, match="goes with `end:True`"):
        await admin.admin_season.callback(admin, owner, reset_chips=True)
    assert owner.calls == []


async def test_the_season_shown_set_and_ended_where_the_admin_chose(stack, admin):
    owner = interaction(stack, manage_guild=True)
    await admin.admin_season.callback(admin, owner)
    name, content, kwargs = owner.calls[0]
    assert kwargs["ephemeral"] and "Season 1 is under way: it ends when an admin ends it" in content

    owner = interaction(stack, manage_guild=True)
    await admin.admin_season.callback(admin, owner, length="monthly", channel=SimpleNamespace(id=ELSEWHERE))
    content = owner.calls[0][1]
    assert "Seasons here now last a month: season 1 ends <t:" in content and f"<#{ELSEWHERE}>" in content

    owner = interaction(stack, manage_guild=True)
    await admin.admin_season.callback(admin, owner, end=True)
    assert owner.calls.names()[0] == "defer"  # acknowledged before the season is ended
    assert f"Season 1 is over. Its final standings are posted in <#{ELSEWHERE}>." in owner.calls[-1][1]
    [(_, channel, _, out)] = [call for call in stack.sink.calls if call[0] == "post"]
    assert channel == ELSEWHERE and out.pings == () and "Season 1 is over" in out.text
    assert (await stack.manager.ratings.season(G)).number == 2

    board = Tripoley(stack)
    it = interaction(stack)
    await board.leaderboard.callback(board, it, season=1)
    assert "season 1" in it.calls[0][2]["embed"].title
