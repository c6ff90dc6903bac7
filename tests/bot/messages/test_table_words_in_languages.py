"""The table's words in French and German: buttons, the hand message, pings and notices, the log's
lines, Wanagan's reveals and the round's results. What a channel reads follows the table's language
whoever's interaction made it; what one reader reads follows theirs (bot.i18n.READING)."""

from __future__ import annotations

import random

import pytest

from bot.i18n import reading
from bot.messages import components, handtext, notices, reveals, story
from bot.messages.tablelines import TABLE_LINES
from bot.messages.text import escaped_view
from bot.tables.model import Seat, Table
from bot.tables.telling import Line, Note
from engine import Game
from engine import events as ev
from engine.ai import autoplay
from tests.bot.tables.test_manager import ANN, BOB, C, lobby


def table(locale: str, status: str = "lobby") -> Table:
    made = Table(
        id=7,
        guild_id=1,
        channel_id=2,
        host_id=10,
        preset="tripoley",
        options={},
        buy_in=50,
        turn_timeout=60,
        ai_pause=1,
        status=status,
        locale=locale,
    )
    made.seats = [Seat(name="Ann", user_id=10, stake=50), Seat(name="Bob", user_id=11, stake=50)]
    return made


def labels(comps: list[components.Component]) -> list[str]:
    return [c.label for c in comps if isinstance(c, components.ButtonSpec)]


@pytest.mark.parametrize(
    ("locale", "join", "start"),
    [("en", "Join", "Start"), ("fr", "Rejoindre", "Commencer"), ("de", "Beitreten", "Starten")],
)
def test_the_lobby_buttons_are_in_the_tables_language_whoever_clicked(locale, join, start):
    with reading("de" if locale != "de" else "fr"):  # a reader of another language made them
        made = labels(components.lobby_components(table(locale)))
    assert made[0] == join and made[3] == start


def test_log_paging_and_a_game_s_buttons_are_in_the_readers_language():
    with reading("fr"):
        older, newer = labels(components.log_components(7, 2, 1, 3))
        log, replay = labels(components.game_buttons(7, number=3))
    assert (older, newer, log, replay) == ("◀ Plus ancien", "Plus récent ▶", "Journal 3", "Rejouer 3")
    with reading("de"):
        assert components.pass_placeholder(1, "left") == "Wähle 1 Karte zum Weitergeben nach links"
        assert components.pass_placeholder(3, "right") == "Wähle 3 Karten zum Weitergeben nach rechts"
    assert components.pass_placeholder(3, None) == "Pick 3 cards to pass on"


def test_a_claim_names_its_cards_in_the_readers_ranks():
    view = {"mat": [{"id": "KH", "label": "K", "kind": "card"}], "pay_suit": "H"}
    detail = {"space": "KH", "chips": 4}
    assert handtext.claim_words(view, detail) == "K♥ (4 chips)"
    with reading("fr"):
        assert handtext.claim_words(view, detail) == "R♥ (4 jetons)"
        assert handtext.claim_words(view, {"space": "KH", "chips": 1}) == "R♥ (1 jeton)"
    with reading("de"):
        assert handtext.claim_words(view, detail) == "K♥ (4 Chips)"
        assert handtext.wanagan_makes_text(view, []).startswith("Deine Hand trifft keines der offenen Felder")


def test_the_hand_message_in_french_and_german():
    game = Game.new("tripoley", ["Ann", "Bob"], seed=3)
    awaiting = next(aw for aw in autoplay(game, rng=random.Random(1)) if aw is not None)
    view = game.view(awaiting.seat)
    count = len(view["hand"] or [])
    with reading("fr"):
        french = handtext.hand_text(view, awaiting.seat)
    with reading("de"):
        german = handtext.hand_text(view, awaiting.seat)
    assert french.startswith(f"**Votre main** (manche {view['round']}, {count} cartes) :")
    assert german.startswith(f"**Deine Hand** (Runde {view['round']}, {count} Karten):")
    assert handtext.hand_text(view, awaiting.seat).startswith(f"**Your hand** (round {view['round']}, {count} cards):")


def test_a_ping_is_in_the_tables_language_and_found_after_a_restart_in_any():
    with reading("de"):
        french = notices.ping_text(table("fr"), [1], "poker-choose", None, "https://x", hand_view_updated=False)
    with reading("fr"):
        german = notices.ping_text(table("de"), 1, None, 2_000_000_000.0, "https://x", hand_view_updated=True)
    assert french.startswith("<@1> à vous de jouer : ") and "**Voir ma main**" in french
    assert german.startswith("<@1> du bist dran: du bist dran") and "<t:2000000000:R>" in german
    assert all(notices.is_turn_ping(ping) for ping in (french, german))
    assert not notices.is_turn_ping("<@1> \u2713 done \u2014 you played.")
    with reading("fr"):
        closed = notices.hand_dms_closed(table("de"), 5)
    assert closed.startswith("<@5> ich konnte dir deine Hand nicht per DM schicken")


def test_the_audit_a_wait_and_a_lost_place_in_the_readers_language():
    audit = {"users": 90, "house": 5, "tables": 5, "frozen": 0, "granted": 100, "removed": 0, "ok": True}
    with reading("fr"):
        french = notices.audit_text({**audit, "quarantined": []})
        assert notices.duration_text(3 * 3600 + 300) == "3 h 5 min"
    with reading("de"):
        assert notices.duration_text(40) == "40 Sek."
        lost = notices.place_lost_notice("Tripoley", 3, "removed", lobby=True, locale="fr")
    assert french.endswith("✅ Chaque jeton est compté.")
    assert lost.startswith("Votre table de **Tripoley** dans <#3> a pris fin parce que le bot a été retiré")
    assert "`/tripoley ouvrir`" in lost


def test_the_tables_lines_in_french_and_german_with_their_plurals():
    with reading("fr"):
        assert TABLE_LINES.say(Line.JOINED, name="Ann_") == "Ann\\_ a rejoint la table."
        assert TABLE_LINES.say(Line.TABLE_OPEN, chips=1) == "Table ouverte : votre cave est de 1 jeton."
        assert TABLE_LINES.say(Line.TABLE_OPEN, chips=40) == "Table ouverte : votre cave est de 40 jetons."
        assert TABLE_LINES.say(Line.PLACE_LOST_GAME, why="thread-closed").startswith("La partie a pris fin")
    with reading("de"):
        assert TABLE_LINES.say(Line.TIMED_OUT_TO_AI, name="Bob", count=2).startswith(
            "Bob hat die Zeit 2-mal in Folge überschritten"
        )
        assert TABLE_LINES.say(Line.GAME_OVER) == "Spiel vorbei."
        assert TABLE_LINES.action(["Ann"], _any_action(), [], None, Note.TIMED_OUT).endswith("(Zeit abgelaufen)")
    assert TABLE_LINES.say(Line.TABLE_OPEN, chips=40) == "Table open: you bought in for 40 chips."


def _any_action():
    from engine import Action

    return Action(seat=0, do="fold")


def test_a_reveal_in_french_and_german():
    view = escaped_view(Game.new("wanagan", ["Ann", "Bob"], seed=1).view(None))
    hands = {
        "0": {"cards": ["KH", "KD", "KC", "4D", "4C"], "space": "full-house", "qualifies": True, "hand": "full house"},
        "1": {"cards": ["2C", "5D", "7H", "9S", "JC"], "space": "flush", "qualifies": False, "hand": "high card"},
    }
    events = [ev.Reveal(round=4, hands=hands), ev.Payout(space="full-house", seat=0, amount=8, reason="wanagan")]
    (told,) = reveals.told_reveals(events)
    with reading("fr"):
        assert reveals.verdict(told, 1, view) == "ne se qualifie pas (carte haute)"
        assert reveals.reveal_heading(told.reveal).startswith("Dévoilement 4 (")
    with reading("de"):
        assert reveals.verdict(told, 0, view) == "gewinnt"
        assert " sagt " in reveals.declaration(told, 0, view)


def test_the_round_results_follow_the_tables_language_whoever_reads():
    made = table("de", status="playing")
    made.game = game = Game.new("tripoley", ["Ann", "Bob"], options={"game_end": "rounds:1"}, seed=5)
    for _ in autoplay(game, rng=random.Random(2)):
        pass
    history = [dict(e) for record in game.log for e in record["events"]]
    with reading("fr"):
        embeds = story.stories(made, history, finished=True)
        page = story.log_embed(made, 1, 0)[0]
    assert embeds and embeds[0]["title"] == "Runde 1 — wer was kassiert hat"
    assert page["footer"]["text"] == "Page 1/1" and "la manche 1" in page["title"], "a log page: its reader's"
    with reading("de"):
        assert story.fit(["x" * 30] * 3, limit=100).endswith("… und 2 weitere: siehe den Knopf **Verlauf**.")


async def test_a_readers_click_logs_in_the_tables_language_and_answers_in_theirs(manager, clock, bank):
    table = await lobby(manager, ai=0, humans=(ANN,))
    table.locale = "fr"
    with reading("de"):  # a German reader's interaction
        update = await manager.lobby.join(C, BOB, "bob")
    assert table.log[-1] == "bob a rejoint la table.", "the log: the channel's"
    assert update.message == "Du bist dabei! Einsatz: 100 Chips.", "the answer: the reader's"
