"""Ratings and seasons on both databases: a finished game rated once with its end, the leaderboards
(ranked by rating, provisional players apart), a season's end (archived, posted, softened, shown
again later with season:N; ended by its timer after a restart), reset_chips through the ledger, and
forget-me."""

from __future__ import annotations

import asyncio
import json

import pytest

from bot import errors
from bot.competition.rating import PROVISIONAL_GAMES, Skill
from bot.competition.seasons import Reset, Seasons, season_end
from bot.competition.store import FORGOTTEN, CompetitionStore, RatedSeat
from bot.discordio.seasontools import post_season_end, season_post
from bot.economy import privacy
from bot.i18n import Locale
from cogs import competition as boards
from tests.bot.economy.test_economy import play_out
from tests.bot.tables.test_manager import ANN, BOB, C, G, lobby
from tests.cogs.fakes import RecordingSink

CAT, DAN, EVE = 33, 44, 55


async def count(db, sql: str, params: tuple = ()) -> int:
    return int((await db.fetchone(sql, params))[0])


async def finished_game(manager, clock):
    table = await lobby(manager, ai=1, options={"game_end": "rounds:1"})
    await manager.lobby.start(C, ANN)
    await play_out(manager, clock, table)
    return table


async def rate(store: CompetitionStore, table_id: int, finals: dict[int | str, int], when: float = 1.0) -> bool:
    """A game of the given final stacks (an int key: a player; a str key: an AI level) rated."""
    seats = [
        RatedSeat(None, who, final) if isinstance(who, str) else RatedSeat(who, "normal", final)
        for who, final in finals.items()
    ]
    async with store.db.transaction() as conn:
        return await store.record_game(conn, G, table_id, seats, when)


async def test_a_finished_game_is_rated_with_its_end_exactly_once(manager, clock, db):
    table = await finished_game(manager, clock)
    store = manager.ratings
    [row] = await db.fetchall("SELECT result_json FROM tables WHERE id = ?", (table.id,))
    finals = {s["user_id"]: s["final"] for s in json.loads(row[0])["seats"] if s["user_id"] is not None}
    ann, bob = await store.rating(G, ANN), await store.rating(G, BOB)
    assert ann is not None and bob is not None and ann.games == bob.games == 1
    assert ann.provisional and bob.provisional
    if finals[ANN] != finals[BOB]:  # the one who ended with more chips is rated higher
        better, worse = (ann, bob) if finals[ANN] > finals[BOB] else (bob, ann)
        assert better.skill.mu > worse.skill.mu
    assert await count(db, "SELECT COUNT(*) FROM rated_games WHERE table_id = ?", (table.id,)) == 1
    assert await count(db, "SELECT COUNT(*) FROM rating_history WHERE table_id = ?", (table.id,)) == 2
    assert await count(db, "SELECT COUNT(*) FROM ratings WHERE user_id <= 0") == 0  # the AI seat is fixed

    # The same end recorded again (a restart, a retried finish): nothing changes.
    async with db.transaction() as conn:
        seats = [RatedSeat(s.user_id, s.ai_level, 500) for s in table.seats]
        assert await store.record_game(conn, G, table.id, seats, clock.wall()) is False
    assert await store.rating(G, ANN) == ann and await store.rating(G, BOB) == bob
    assert await count(db, "SELECT COUNT(*) FROM rating_history") == 2


async def test_the_rating_is_written_in_the_transaction_of_the_games_end(manager, clock, db, monkeypatch):
    """A rating that cannot be written takes the game's end with it: the table is not finished (its
    chips stay on it, nobody's stats move) and its end is tried again; once it can be, the game ends
    and is rated, once."""
    table = await lobby(manager, ai=1, options={"game_end": "rounds:1"})
    await manager.lobby.start(C, ANN)
    tried = []

    async def broken(*args, **kwargs):
        tried.append(args)
        raise RuntimeError("no rating")

    monkeypatch.setattr(manager.flow.ratings, "record_game", broken)
    for _ in range(5000):  # played until its end was tried twice
        if len(tried) >= 2:
            break
        clock.t = table.deadline
        await manager.timers.tick()
    assert len(tried) == 2 and table.status == "playing"
    assert await count(db, "SELECT COUNT(*) FROM tables WHERE status = 'finished'") == 0
    assert await count(db, "SELECT COUNT(*) FROM stats") == 0
    assert (await manager.results.audit(G))["ok"]
    monkeypatch.undo()
    await play_out(manager, clock, table)
    assert await count(db, "SELECT COUNT(*) FROM tables WHERE status = 'finished'") == 1
    assert (await manager.ratings.rating(G, ANN)).games == 1
    assert (await manager.results.audit(G))["ok"]


async def test_the_leaderboard_ranks_by_rating_and_lists_provisional_players_apart(manager, db):
    store = manager.ratings
    for game in range(PROVISIONAL_GAMES):  # Cat always first, then Ann, then Bob; an Easy AI last
        assert await rate(store, 100 + game, {BOB: 100, CAT: 300, ANN: 200, "easy": 0})
    assert await rate(store, 200, {DAN: 300, "hard": 0})  # one game: provisional
    ranked = await store.ranked(G, 0, 10)
    assert [r.user_id for r in ranked] == [CAT, ANN, BOB]
    assert ranked[0].shown > ranked[1].shown > ranked[2].shown
    provisional, many = await store.provisional(G, 10)
    assert [r.user_id for r in provisional] == [DAN] and many == 1

    embed, pages = await boards.rating_board(store, G, 0, 10)
    text = embed.description
    assert pages == 1
    assert text.index(f"**1.** <@{CAT}>") < text.index(f"**2.** <@{ANN}>") < text.index(f"**3.** <@{BOB}>")
    head = text.index("**Provisional**")
    assert text.index(f"<@{DAN}>") > head and f"**4.** <@{DAN}>" not in text  # apart, unranked
    embed, pages = await boards.rating_board(store, G, 0, 2)  # two a page: Bob on page 2, Dan on page 1
    assert pages == 2 and f"<@{BOB}>" not in embed.description and f"<@{DAN}>" in embed.description
    embed, _ = await boards.rating_board(store, G, 1, 2)
    assert f"**3.** <@{BOB}>" in embed.description and f"<@{DAN}>" not in embed.description


async def test_the_leaderboard_by_games_counts_finished_games(manager, clock):
    await finished_game(manager, clock)
    embed, _ = await boards.games_board(manager.ratings, G, 0, 10)
    assert f"<@{ANN}> — 1 game" in embed.description and f"<@{BOB}> — 1 game" in embed.description


async def test_a_season_ends_archived_posted_softened_and_shown_again(manager, db, clock):
    store, seasons = manager.ratings, manager.seasons
    for game in range(PROVISIONAL_GAMES):
        await rate(store, 100 + game, {CAT: 300, ANN: 200, "normal": 0}, when=clock.wall())
    await rate(store, 200, {DAN: 300, "normal": 0}, when=clock.wall())  # provisional: not placed
    set_to = await seasons.set_length(G, "weekly", C)
    assert set_to.number == 1 and set_to.ends_at == season_end("weekly", set_to.started_at)
    before = {who: await store.rating(G, who) for who in (CAT, ANN, DAN)}

    ended = await seasons.end(G)
    assert ended is not None and ended.number == 1 and ended.channel_id == C and ended.placed == 2
    assert [(s.place, s.user_id) for s in ended.top] == [(1, CAT), (2, ANN)]
    assert ended.top[0].rating == before[CAT].shown
    sink = RecordingSink()
    await post_season_end(sink, ended, Locale.EN)
    [(_, channel, _, out)] = [call for call in sink.calls if call[0] == "post"]
    assert channel == C and out.pings == ()  # names by mention, pings nobody
    assert "Season 1 is over" in out.text and f"**1.** <@{CAT}> — {before[CAT].shown}" in out.text
    for who in (CAT, ANN, DAN):  # softened toward the start, not erased
        after = await store.rating(G, who)
        assert after.skill == before[who].skill.softened() and after.games == before[who].games
    assert (await store.rating(G, CAT)).shown > Skill.newcomer().shown
    current = await store.season(G)
    assert current.number == 2 and current.length == "weekly" and current.channel_id == C
    assert current.ends_at == season_end("weekly", clock.wall())

    # Season 2 is played and ended; season 1 is still shown as it ended.
    for game in range(3):
        await rate(store, 300 + game, {ANN: 300, CAT: 0}, when=clock.wall())
    assert (await seasons.end(G)).number == 2
    embed, _ = await boards.season_board(store, G, 1, 0, 10)
    assert "season 1" in embed.title
    assert embed.description.index(f"<@{CAT}>") < embed.description.index(f"<@{ANN}>")
    embed, _ = await boards.season_board(store, G, 2, 0, 10)
    assert embed.description.index(f"<@{ANN}>") < embed.description.index(f"<@{CAT}>")
    with pytest.raises(errors.TripoleyError, match="Season 3 has not ended"):
        await boards.season_board(store, G, 3, 0, 10)


async def test_a_season_that_runs_out_ends_itself_also_after_a_restart(manager, db, bank, clock):
    store = manager.ratings
    await rate(store, 100, {ANN: 300, BOB: 0}, when=clock.wall())
    season = await manager.seasons.set_length(G, "weekly", C)
    assert season.ends_at is not None
    assert await manager.seasons.end_due(lambda guild_id: True) == ([], season.ends_at)  # not yet

    # "Restarted": a new Seasons over the same database, the clock past the saved end.
    clock.t = season.ends_at + 60
    restarted = Seasons(CompetitionStore(db), bank, clock.wall)
    assert await restarted.end_due(lambda guild_id: False) == ([], None)  # another shard's server
    posted = []

    async def announce(ended):
        posted.append(ended)

    timer = asyncio.create_task(restarted.run(lambda guild_id: True, announce))
    for _ in range(100):
        if posted:
            break
        await asyncio.sleep(0.01)
    timer.cancel()
    [ended] = posted
    assert ended.number == 1 and ended.channel_id == C
    assert (await store.season(G)).number == 2
    assert await restarted.end_if_current(season) is None  # ended once: its timer firing again ends nothing


async def test_reset_chips_puts_every_wallet_back_through_the_ledger(manager, clock, db, bank):
    await finished_game(manager, clock)
    starting = manager.settings.starting_balance
    assert {await bank.balance(G, who, starting) for who in (ANN, BOB)} != {starting}  # chips moved
    reset = Reset(ANN, starting, manager.settings.house_bankroll)
    ended = await manager.seasons.end(G, C, reset)
    assert ended is not None and ended.wallets_reset == 3  # Ann, Bob and the house
    assert await bank.balance(G, ANN, 0) == await bank.balance(G, BOB, 0) == starting
    assert (await bank.audit(G)).ok and (await manager.results.audit(G))["ok"]
    assert await count(db, "SELECT COUNT(*) FROM ledger WHERE kind = 'reset' AND actor_id = ?", (ANN,)) >= 2
    assert f"Every wallet is back to {starting} chips" in season_post(ended).text

    untouched = await manager.seasons.end(G, C)  # without reset_chips: wallets as they are
    assert untouched is not None and untouched.wallets_reset is None and untouched.reset is None
    await lobby(manager, ai=0)
    with pytest.raises(errors.NotAllowed):  # a table open: refused, and the season goes on
        await manager.seasons.end(G, C, reset)
    assert (await manager.ratings.season(G)).number == 3


async def test_forget_me_deletes_the_rating_and_anonymises_the_standings(manager, db, bank):
    store = manager.ratings
    for game in range(PROVISIONAL_GAMES):
        await rate(store, 100 + game, {EVE: 300, ANN: 100})
    await manager.seasons.end(G)
    await bank.balance(G, EVE, 100)  # a wallet, so forget-me finds the server
    await privacy.forget_everywhere(bank, EVE, lambda guild_id: False)
    assert await store.rating(G, EVE) is None
    assert await count(db, "SELECT COUNT(*) FROM rating_history WHERE user_id = ?", (EVE,)) == 0
    [first, second] = await store.standings(G, 1, 0, 10)
    assert (first.place, first.user_id, second.user_id) == (1, FORGOTTEN, ANN)  # the places still read right
    embed, _ = await boards.season_board(store, G, 1, 0, 10)
    assert "a former player" in embed.description and str(EVE) not in embed.description
