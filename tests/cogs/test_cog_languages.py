"""Who reads what, through the cog: a table opened in a French server draws its mat in French, an
admin's language setting wins over the server's Discord language, and each player's hand picture is in
their own language (``interaction.locale``), whatever the table's; a reader's ``/tripoley rules``, every
page of it, in their language."""

from __future__ import annotations

import discord

from bot.messages.outgoing import hand_message, table_message
from bot.messages.rules import pages_for
from cogs.admin import Admin
from cogs.tripoley import Tripoley
from tests.cogs.fakes import FakeInteraction, ephemeral_message

G, C = 5, 600
ANN, BOB = 1, 2


async def test_a_french_server_gets_a_french_table_and_each_player_their_own_hand(stack, monkeypatch):
    cog = Tripoley(stack)
    host = FakeInteraction(ANN, C, G, client=stack, guild_locale=discord.Locale.french)
    await cog.start.callback(cog, host, preset="tripoley", rounds=1)
    table = stack.manager.registry.get(C)
    assert table.locale == "fr"
    await stack.manager.lobby.join(C, BOB, "Bob")
    await stack.manager.lobby.start(C, ANN)
    mat = table_message(table)
    assert mat.render == "mat" and mat.view["locale"] == "fr"
    drawn: list[tuple[str, dict]] = []

    async def image(kind, view):
        drawn.append((kind, view))
        return None, None

    monkeypatch.setattr(stack.publisher.images, "renderer", lambda kind, view: None)  # pictures on
    monkeypatch.setattr(stack.publisher, "image", image)
    german = FakeInteraction(BOB, C, G, client=stack, locale=discord.Locale.german)
    await stack.controller.show_hand(german, table)
    assert [(kind, view["locale"]) for kind, view in drawn] == [("hand", "de")]
    view = table.running_game.view(1)
    assert hand_message(table, 1, view, locale="de").view["locale"] == "de"
    assert hand_message(table, 1, view).view["locale"] == "fr"  # no reader known: the table's


async def test_the_admins_language_wins_over_the_servers_discord_language(stack):
    admin = Admin(stack)
    it = FakeInteraction(ANN, C, G, client=stack, manage_guild=True, guild_locale=discord.Locale.french)
    await admin.settings.callback(admin, it, language="de")
    assert (await stack.prefs.guild(G)).language == "de"
    cog = Tripoley(stack)
    await cog.start.callback(cog, FakeInteraction(ANN, C, G, client=stack, guild_locale=discord.Locale.french))
    assert stack.manager.registry.get(C).locale == "de"
    await admin.settings.callback(admin, it, language="discord")  # back to the server's Discord language
    assert (await stack.prefs.guild(G)).language is None


async def test_an_english_server_is_unchanged(stack):
    cog = Tripoley(stack)
    await cog.start.callback(cog, FakeInteraction(ANN, C, G, client=stack, guild_locale=None))
    assert stack.manager.registry.get(C).locale == "en"


async def test_the_stats_chart_is_drawn_in_the_readers_language_or_the_servers_when_posted(stack, monkeypatch):
    cog = Tripoley(stack)
    drawn: list[str] = []

    async def image(kind, view):
        drawn.append(view["locale"])
        return None, None

    async def stats(guild_id, user_id):
        return {"games": 1, "wins": 1, "rounds": 3, "pots_won": 2, "net": 12, "best_hand": "flush", "favourite": None}

    async def nothing(*args):
        return []

    monkeypatch.setattr(stack.publisher, "image", image)
    monkeypatch.setattr(stack.manager.store, "stats", stats)
    monkeypatch.setattr(stack.manager.store, "player_games", nothing)
    monkeypatch.setattr(stack.manager.store, "player_presets", nothing)
    titles = []
    for public in (False, True):
        german = FakeInteraction(
            BOB, C, G, client=stack, locale=discord.Locale.german, guild_locale=discord.Locale.french
        )
        await cog.stats.callback(cog, german, public=public)
        [embed] = [call[-1]["embed"] for call in german.calls if call[0] == "followup"]
        titles.append((embed.title, embed.fields[-1].value))
    assert drawn == ["de", "fr"]
    # the embed too: private in its reader's German, posted in the server's French (the best hand's name too)
    assert titles == [("Statistik", "Flush"), ("Statistiques", "couleur")]


async def test_a_french_readers_rules_are_french_on_every_page(stack):
    cog = Tripoley(stack)
    it = FakeInteraction(BOB, C, G, client=stack, locale=discord.Locale.french, guild_locale=None)
    await cog.rules.callback(cog, it, "three-in-one")
    embed = it.calls[0][2]["embed"]
    english = pages_for("three-in-one")
    count = len(english) + 1  # the family in brief first
    assert embed.title.startswith("Comment jouer") and embed.footer.text.endswith(f"/{count}")
    shown = [embed.description]
    view = it.calls[0][2]["view"]
    for _page in range(1, count):
        page = FakeInteraction(
            BOB, C, G, client=stack, locale=discord.Locale.french, guild_locale=None, message=ephemeral_message()
        )
        await stack.controller.on_component(page, view.children[-1].custom_id, [])
        assert page.calls[0][0] == "edit_message"
        shown.append(page.calls[0][2]["embed"].description)
        view = page.calls[0][2]["view"]
    assert shown == pages_for("three-in-one", locale="fr")
    assert "Nain Jaune" in shown[0] and "**Le poker**" in shown[3] and "**Jouer sur Discord**" in shown[-1]
    assert not set(shown) & set(english)
