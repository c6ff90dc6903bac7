"""The refusals, the chip commands' answers, the table commands', the controls' and competition's
words in French and German (read with ``reading``), English unchanged; a season's end posted in the
server's language whoever reads meanwhile."""

from __future__ import annotations

import pytest

from bot import errors
from bot.competition.seasons import SeasonEnded
from bot.competition.store import Standing
from bot.discordio.seasontools import post_season_end
from bot.economy.prefs import GuildConfig
from bot.i18n import Locale, _, reading
from bot.messages import answers, competition, controls, tablecommands
from bot.messages.refusals import ADMIN_ONLY, words
from tests.cogs.fakes import RecordingSink


def test_refusals_in_french_and_german():
    facts = {"name": "Ann"}
    assert words(errors.Refusal.NOT_YOUR_TURN, facts) == "It's not your turn: waiting for **Ann**."
    with reading("fr"):
        assert words(errors.Refusal.NOT_YOUR_TURN, facts) == "Ce n'est pas votre tour : on attend **Ann**."
        assert words(errors.Refusal.TABLE_FULL, {"seats": 1}) == "La table est complète (1 place)."
        assert words(errors.Refusal.TABLE_FULL, {"seats": 8}) == "La table est complète (8 places)."
        assert "`/tripoley ouvrir`" in words(errors.Refusal.NO_TABLE, {})
        assert _(ADMIN_ONLY[errors.AdminTool.AUDIT]).startswith("L'audit demande la permission **Gérer le serveur**")
    with reading("de"):
        assert words(errors.Refusal.NOT_YOUR_TURN, facts) == "Du bist nicht am Zug: wir warten auf **Ann**."
        assert words(errors.Refusal.NOT_ENOUGH_CHIPS, {"amount": 1, "have": 0}) == (
            "Du brauchst 1 Chip, aber dein Konto hält 0."
        )
        assert words(errors.Refusal.STALE_CONTROL, {"kind": "menu"}) == "Dieses Menü ist nicht mehr in Gebrauch."


def test_a_refusal_escapes_what_a_player_typed_in_every_language():
    with reading("fr"):
        assert words(errors.Refusal.NOT_A_NUMBER, {"typed": "**9**"}) == (
            "« \\*\\*9\\*\\* » n'est pas un nombre entier de jetons."
        )


def test_chip_answers_in_french_and_german():
    assert answers.board_row(1, 7, "wins", 1) == "**1.** <@7> — 1 win"
    with reading("fr"):
        assert answers.board_row(1, 7, "wins", 2) == "**1.** <@7> — 2 victoires"
        assert answers.reset_done(3, 100, 1000) == (
            "C'est fait : 3 soldes sont revenus à 100 jetons (la banque à 1000)."
        )
        assert answers.hand_name("four of a kind") == "carré"
    with reading("de"):
        assert answers.hand_name("four of a kind") == "Vierling"
        assert answers.adjusted(7, -5, 10, house=True) == "5 Chips entnommen: die Bank hält jetzt **10**."
        assert answers.forgotten_everywhere(1, 20).startswith("Erledigt: du bist auf 1 Server vergessen")
        settings = answers.settings_text(
            GuildConfig(1, "rummoli", 1000, 60, 1.5, 100, 24, 50, 12, False), 10_000, 100, ""
        )
        assert settings.startswith("**Servereinstellungen**") and "Tische in Threads" in settings


def test_table_commands_and_controls_in_french_and_german():
    with reading("fr"):
        assert tablecommands.kick_ask("A*b").startswith("Confier la place de **A\\*b** à une IA")
        assert controls.cooling_down(2.4) == "Doucement : réessayez dans 2 s."
        assert _(controls.SEATED) == "Vous êtes à la table !"
    with reading("de"):
        assert (
            _(tablecommands.PINGS_OFF) == "Keine Zug-Pings mehr: achte an der Tischnachricht auf ⏳ und deinen Namen."
        )
        assert controls.user_lacks(["Server verwalten"]) == "Dafür brauchst du die Berechtigung **Server verwalten**."


def test_competition_in_french_and_german():
    assert competition.rating_text(1040, 2, 5) == "1040 (provisional: 2 of 5 games)"
    assert competition.games_line(1, 7, 1) == "**1.** <@7> — 1 game"
    with reading("fr"):
        assert competition.rating_text(1040, 2, 5) == "1040 (provisoire : 2 sur 5 parties)"
        assert competition.games_line(1, 7, 1) == "**1.** <@7> — 1 partie"
        assert competition.season_ended_answer(3, 9) == (
            "La saison 3 est terminée. Son classement final est publié dans <#9>."
        )
    with reading("de"):
        assert competition.standing_line(2, None, 1100, 4) == "**2.** ein ehemaliger Spieler — 1100 (4 Spiele)"
        assert competition.board_footer(1, 3) == "Seite 1/3"


def _ended() -> SeasonEnded:
    return SeasonEnded(
        guild_id=1, number=2, channel_id=5, top=[Standing(place=1, user_id=7, rating=1200, games=6)], placed=1
    )


@pytest.mark.parametrize(
    ("locale", "over"),
    [(Locale.FR, "La saison 2 est terminée"), (Locale.DE, "Saison 2 ist vorbei"), (Locale.EN, "Season 2 is over")],
)
async def test_a_seasons_end_is_posted_in_the_servers_language_whoever_reads(locale, over):
    sink = RecordingSink()
    with reading("de" if locale is not Locale.DE else "fr"):  # an admin reading another language
        await post_season_end(sink, _ended(), locale)
    [(_kind, channel, _id, out)] = [call for call in sink.calls if call[0] == "post"]
    assert channel == 5 and over in out.text and "<@7> — 1200" in out.text


def test_a_pagers_buttons_in_each_language():
    assert controls.page_labels() == ("◀ Prev", "Next ▶")
    with reading("fr"):
        assert controls.page_labels() == ("◀ Préc.", "Suiv. ▶")
    with reading("de"):
        assert controls.page_labels() == ("◀ Zurück", "Weiter ▶")
