"""What players read of a tournament: the sign-up shows the split, names stay text; the standings picture."""

from __future__ import annotations

from bot.i18n import reading
from bot.messages import tournaments as words
from bot.tournaments.model import Entrant, StageTable, Tournament, TournamentStatus
from bot.tournaments.service import Problem
from images.tournament import render_tournament


def finished_tournament() -> Tournament:
    t = Tournament(
        id=3, guild_id=1, channel_id=2, host_id=11, preset="tripoley", buy_in=10, table_size=3, advance=1,
        ending="rounds", rounds=1,
    )  # fmt: skip
    t.entrants = [Entrant(i, 10 + i, name, 10) for i, name in enumerate(["**x**", "@everyone", "Cy", "Di", "Ed"], 1)]
    t.ai_names = {"a1": "Ada (Normal AI)"}
    t.stages = [
        [StageTable(1, ["e1", "e3", "e5"], 7, 70, ["e1", "e3", "e5"]), StageTable(2, ["e2", "e4", "a1"], 8, 80, ["a1", "e2", "e4"])],
        [StageTable(1, ["e1", "a1"], 9, 90, ["a1", "e1"])],
    ]  # fmt: skip
    t.order = ["a1", "e1", "e2", "e3", "e4", "e5"]
    t.status = TournamentStatus.FINISHED
    for place, key in enumerate(t.order, 1):
        entrant = t.by_key(key)
        if entrant is not None:
            entrant.place = place
    t.entrants[0].prize, t.entrants[1].prize = 33, 17
    return t


def test_the_sign_up_shows_the_split_and_keeps_names_as_text():
    t = finished_tournament()
    t.status = TournamentStatus.SIGNUP
    text = words.signup_text(t, "Tripoley")
    assert "1st 65% (33 chips), 2nd 35% (17 chips)" in text
    assert "**\\*\\*x\\*\\***, **\\@everyone**" in text  # escaped: no formatting, no mention
    assert [b.label for b in words.signup_buttons(t)] == ["Join", "Leave"]


def test_the_standings_in_words_and_the_champion():
    t = finished_tournament()
    text = words.standings_text(t, "Tripoley")
    assert text.splitlines()[1] == "1. Ada (Normal AI): final table"
    assert "2. \\*\\*x\\*\\*: final table, **33 chips**" in text
    assert "out in stage 1" in text
    assert words.champion_text(t).startswith("🏆 **Ada (Normal AI)** wins tournament #3!")


def test_the_standings_picture_and_its_words():
    t = finished_tournament()
    data = words.standings_picture(t, "Tripoley")
    picture = render_tournament(data)
    assert picture.png.startswith(b"\x89PNG") and picture.height > 200
    assert picture.alt.startswith("Standings of tournament #3: 1 Ada (Normal AI), final table")
    assert "33 chips" in picture.alt


def test_a_tournament_posts_in_its_language_whoever_reads():
    """The channel's posts follow the tournament's language (the server's, fixed at creation), even while an
    interaction of a reader of another language is answered; the private answers follow the reader."""
    t = finished_tournament()
    t.locale = "fr"
    with reading("de"):
        assert words.champion_text(t).startswith("🏆 **Ada (Normal AI)** remporte le tournoi n° 3 ! Prix : 2e **")
        assert words.standings_text(t, "Tripoley").splitlines()[1] == "1. Ada (Normal AI) : table finale"
        assert words.standings_picture(t, "Tripoley")["headings"]["name"] == "JOUEUR"
        assert words.joined_answer(t) == "Du bist in Turnier Nr. 3: 10 Chips Einsatz gezahlt."
    t.status = TournamentStatus.SIGNUP
    signup = words.signup_text(t, "Tripoley")
    assert "1er 65 % (33 jetons), 2e 35 % (17 jetons)" in signup
    assert "Cave de 10 jetons · 3 places par table · le 1er de chaque table passe" in signup
    assert [b.label for b in words.signup_buttons(t)] == ["Rejoindre", "Quitter"]
    t.locale = "de"
    assert "Einsatz 10 Chips · 3 Plätze pro Tisch · der 1. jedes Tisches kommt weiter" in words.signup_text(t, "X")
    assert words.thread_name(t, t.stage()[0]) == "Turnier 3 · Etappe 2 · Tisch 1"


def test_the_refusals_and_answers_in_the_readers_language():
    t = finished_tournament()
    with reading("fr"):
        assert words.refusal(Problem.TOO_FEW, {"least": 4, "entrants": 2}) == (
            "Le tournoi a besoin d'au moins 4 joueurs pour commencer ; 2 inscrits."
        )
        assert "`/tripoley tournoi créer`" in words.refusal(Problem.NONE_HERE, {})
        assert words.left_answer(t, True).endswith("vos 10 jetons sont revenus dans votre portefeuille.")
    with reading("de"):
        assert words.started_answer(t) == "Turnier Nr. 3 hat begonnen: 1 Tisch ist gesetzt."
        assert words.refusal(Problem.UNAFFORDABLE, {"buy_in": 50}).endswith("`/tripoley täglich`.")
    assert words.started_answer(t) == "Tournament #3 has begun: 1 table is seated."  # English, as before
