"""The vocabulary, the table message and the messages built from a table in French and German: a
table's public messages in its language whoever reads, a hand in its reader's, English unchanged."""

from __future__ import annotations

import random

from bot.i18n import READING, Locale, reading
from bot.messages import tabletext, text
from bot.messages.outgoing import hand_message, lobby_closed_message, table_message, thread_name
from bot.tables.model import Seat, Table
from engine import Game
from engine.ai import autoplay


def table(locale: str = "en", status: str = "playing") -> Table:
    names = ["Ann", "Bob", "Cy"]
    made = Table(
        id=7,
        guild_id=1,
        channel_id=2,
        host_id=11,
        preset="tripoley",
        options={"game_end": "rounds:1"},
        buy_in=200,
        turn_timeout=60,
        ai_pause=1,
        status=status,
        locale=locale,
    )
    made.seats = [Seat(name=name, user_id=11 + i, stake=200) for i, name in enumerate(names)]
    if status == "playing":
        made.game = Game.new("tripoley", names, options={"game_end": "rounds:1"}, stacks=[200] * 3, seed=3)
        awaited = next(aw for aw in autoplay(made.game, rng=random.Random(2)) if aw is not None)  # dealt: a turn
        made.deadline, made.deadline_kind, made.deadline_seat = 1000.0, "turn", awaited.seat
    return made


def test_cards_are_written_in_the_readers_ranks():
    assert [text.card(c) for c in ("KH", "QS", "JD", "TC")] == ["K♥", "Q♠", "J♦", "10♣"]
    with reading("fr"):
        assert [text.card(c) for c in ("KH", "QS", "JD", "TC")] == ["R♥", "D♠", "V♦", "10♣"]
        assert text.hand_by_suit(["KH", "JH", "AS"]) == "♥ R V\n♠ A"
    with reading("de"):
        assert [text.card(c) for c in ("KH", "QS", "JD")] == ["K♥", "D♠", "B♦"]
        assert text.card_copy("QH", 2, 2) == "D♥ (Exemplar 2 von 2)"


def test_the_vocabulary_in_french_and_german():
    with reading("fr"):
        assert text.counted(1, "chip") == "1 jeton"
        assert text.counted(0, "card") == "0 carte"  # French: 0 takes the singular
        assert text.counted(12, "chip") == "12 jetons"
        assert text.suit_name("H") == "Cœur"
        assert (
            text.not_now("bet", ["check", "fold"]) == "Vous ne pouvez pas miser maintenant. Vous pouvez : check, fold."
        )
        assert text.not_now("keep", ["swap", "auction"]) == (
            "Vous ne pouvez pas garder votre main maintenant. Vous pouvez : échanger à l'aveugle, "
            "mettre la main morte aux enchères."
        )
        assert text.phase_text("poker-betting") == "tour de mises du poker"
    with reading("de"):
        assert text.counted(-1, "chip") == "-1 Chip"
        assert text.counted(3, "card") == "3 Karten"
        assert text.ping_closed_text(5, by_them=True) == "<@5> ✓ erledigt — du hast gespielt."
        assert text.prompt("poker-betting") == "schiebe, setze, geh mit, erhöhe oder steig aus"
    assert text.counted(0, "card") == "0 cards" and text.phase_text("poker-betting") == "poker betting"


def test_the_table_message_is_in_the_tables_language_whoever_reads_it():
    french = table("fr")
    token = READING.set(Locale.DE)  # a German player's click made it
    try:
        mat = table_message(french)
    finally:
        READING.reset(token)
    assert "— manche 1\nMise 1 · couleur payante ♥ · " in mat.text and "jetons" in mat.text
    assert "⏳ On attend <@11>, <@12>, <@13> pour le choix des cinq cartes — temps écoulé <t:1000:R>" in mat.text
    assert "Runde" not in mat.text and "round" not in mat.text
    assert mat.view is not None and mat.view["locale"] == "fr"
    with reading("fr"):
        english = table_message(table("en"))
    assert "— round 1" in english.text and "chips" in english.text


def test_a_round_closed_in_german_drops_its_live_lines():
    with reading("de"):
        body = "## 🃏 Tripoley — Runde 1\n**Ann** — 190 Chips\n\nNächste Runde <t:5:R>.\n**Showdown:** Ann: A♥"
        closed = text.closed_round_text(body, told=True)
    assert closed == "## 🃏 Tripoley — Runde 1\n**Ann** — 190 Chips\n\n✅ Diese Runde ist vorbei."


def test_the_lobby_the_thread_and_the_standings_in_the_tables_language():
    lobby = table("de", status="lobby")
    lobby.deadline = 1000.0
    assert "## 🃏 Tripoley (Cadaco) — Tisch offen\nDer Klassiker aus der Schachtel" in table_message(lobby).text
    assert "Drück **Beitreten**" in table_message(lobby).text
    assert thread_name(lobby) == "Tripoley (Cadaco) — Tisch 7"
    lobby.thread_id = 99
    assert lobby_closed_message(lobby).text.endswith("Spieler: Ann, Bob, Cy\nGespielt wird in <#99>")
    with reading("fr"):
        assert tabletext.game_over_head("Tripoley", 1) == "## 🏁 Tripoley — partie terminée après 1 manche"
        seat = {"pots_won": 2, "best_hand": "full house"}
        assert tabletext.player_result(seat) == "2 gains remportés, meilleure main full"
        lines = tabletext.highlight_lines(
            {"highlights": {"biggest_pot": {"amount": 40, "name": "Ann", "space": "K-Q♥", "round": 2}}}
        )
        assert lines == ["💰 Plus gros gain : **40** jetons pour Ann sur R-D♥ à la manche 2."]
    assert tabletext.player_result({"pots_won": 1}) == "1 pot won"


def test_a_hand_is_in_its_readers_language_not_the_tables():
    french = table("fr")
    view = french.running_game.view(0)
    with reading("en"):
        shown = hand_message(french, 0, view, locale="de")
    assert shown.view is not None and shown.view["locale"] == "de"
    assert hand_message(french, 0, view).view["locale"] == "fr"  # no reader known: the table's
