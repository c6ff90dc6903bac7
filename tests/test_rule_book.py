"""One rule book, three readers: every space and every option of every preset is explained in
docs/rules.md, in the /tripoley rules pages and in the terminal game's ``rules`` / ``help SPACE``;
docs/rules.md is exactly what the engine's rule data generates."""

from __future__ import annotations

import io
from dataclasses import fields
from pathlib import Path

import pytest

from bot.messages.rules import pages_for
from engine import rulebook as R
from engine.options import CHOICES, Options
from engine.play import TerminalGame, new_game
from engine.presets import HOUSE_RULES, PRESETS, spaces_for

ROOT = Path(__file__).resolve().parents[1]
DOC = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")


def doc_section(key: str) -> str:
    """The part of docs/rules.md about one preset."""
    start = DOC.index(f"(`{key}`)\n")
    end = DOC.find("\n## ", start)
    return DOC[start:end]


def terminal(key: str, lines: list[str]) -> tuple[str, Options]:
    """What the terminal game prints when the player types ``lines`` at their first decision, and
    the options of that game (one round)."""
    game = new_game(key, 3, seed=5, rounds=1)
    feed = iter(lines + ["quit"])
    out = io.StringIO()
    TerminalGame(game, input_fn=lambda prompt: next(feed), out=out).run()
    return out.getvalue(), game.options


def markdown_free(text: str) -> str:
    return text.replace("**", "")


def test_docs_rules_md_is_generated_from_the_rule_data():
    assert DOC == R.markdown(), "docs/rules.md is stale: run `python -m engine.rulebook > docs/rules.md`"


def test_every_engine_option_and_value_has_words():
    for f in fields(Options):
        assert f.name in R.OPTION_TEXT, f"option {f.name} has no entry in engine.rulebook.OPTION_TEXT"
    for name, values in CHOICES.items():
        for value in values:
            assert value in R.OPTION_TEXT[name].values, (name, value)
    for f in fields(Options):
        if f.type in ("bool", bool):
            assert set(R.OPTION_TEXT[f.name].values) == {True, False}, f.name
    # The options the engine is gaining (Cadaco variation 2, the second reading of the bet limit)
    # are explained already, so the lobby offers them as soon as the engine accepts them.
    assert "exchange-or-sell" in R.OPTION_TEXT["spare_hand"].values
    assert set(R.OPTION_TEXT["bet_limit_scope"].values) == {"per-bet", "total"}


@pytest.mark.parametrize("key", list(PRESETS))
def test_every_space_and_option_is_explained_in_all_three(key):
    preset = PRESETS[key]
    section = doc_section(key)
    pages = "\n".join(pages_for(key))
    rules_text, played = terminal(key, ["rules all"])
    for space in spaces_for(preset, preset.options):
        explained = R.space_text(space, preset.options)
        assert f"**{space.label}** — {explained}" in section, (key, space.id)
        assert f"**{space.label}** — {explained}" in pages, (key, space.id)
        assert f"{markdown_free(space.label)} — {explained}" in rules_text, (key, space.id)
    for name in R.option_names():
        line = R.option_line(name, getattr(preset.options, name))
        assert line in section and line in pages, (key, name)
        assert markdown_free(R.option_line(name, getattr(played, name))) in rules_text, (key, name)


@pytest.mark.parametrize(
    "key, typed, label",
    [
        ("tripoley", "8-9-10", "8-9-10"),
        ("great-lakes", "6 lead", "6 Lead"),
        ("great-lakes", "A-2", "A-2"),
        ("rummoli", "A♥ (2nd)", "A♥ (2nd)"),
        ("rummoli", "ah2", "A♥ (2nd)"),
        ("wanagan", "evens-odds", "Evens or Odds"),
        ("great-lakes", "losers kitty", "Losers Kitty"),
        ("rummy-royal", "corner a♠", "Corner A♠"),
    ],
)
def test_help_space_in_the_terminal(key, typed, label):
    preset = PRESETS[key]
    space = R.find_space(preset, preset.options, typed)
    out, _ = terminal(key, [f"help {typed}"])
    assert f"{label}: {R.space_text(space, preset.options)}" in out


def test_help_for_an_unknown_space_names_the_spaces():
    out, _ = terminal("great-lakes", ["help nowhere"])
    assert "no space called 'nowhere'" in out and "6 Lead" in out and "Traceback" not in out


def test_every_space_of_every_house_rule_mat_is_explained():
    """A house rule may change the mat (Rummoli's 6-7-8): its spaces are explained too."""
    for key, rules in HOUSE_RULES.items():
        for run in rules.get("run", ()):
            options = PRESETS[key].options.with_overrides({"run": run})
            pages = "\n".join(pages_for(key, {"run": run}))
            for space in spaces_for(PRESETS[key], options):
                assert R.space_text(space, options) in pages, (key, run, space.id)
    assert "6-7-8 of one suit" in "\n".join(R.rule_pages("rummoli", {"run": "6-7-8"}))


def test_the_rules_follow_the_table_options():
    played = "\n".join(R.rule_pages("tripoley", {"paycards": "play"}))
    assert "Whoever plays the 10♥ in Michigan takes it." in played
    assert "Whoever holds the 10♥ once the spare hand is settled takes it." not in played
    assert "Now: when played (Cadaco variation 1)." in played
    at_table = pages_for("tripoley", {"paycards": "play"})[0]
    assert at_table.startswith("**House rules at this table**: Pay cards: when played (Cadaco variation 1).")
    assert pages_for("tripoley", {})[0].startswith("**House rules at this table**: none")


def test_house_rules_offer_only_what_the_engine_accepts():
    for key in PRESETS:
        for name, values in R.house_rules(key).items():
            assert len(values) > 1 and name in R.OPTION_TEXT
            for value in values:
                PRESETS[key].options.with_overrides({name: value})  # raises if the engine refused it
    offered = R.house_rules("tripoley")
    assert offered["paycards"] == ("deal", "play")
    engine_knows_variation_2 = "exchange-or-sell" in CHOICES["spare_hand"]
    assert ("exchange-or-sell" in offered["spare_hand"]) == engine_knows_variation_2
    engine_knows_scope = "bet_limit_scope" in {f.name for f in fields(Options)}
    assert ("bet_limit_scope" in offered) == engine_knows_scope
    assert R.house_rules("rummoli")["run"] == ("8-9-10", "6-7-8")


def test_every_choice_where_presets_differ_has_a_reason():
    for name in R.option_names():
        values = {getattr(p.options, name) for p in PRESETS.values()}
        if len(values) > 1:
            for value in values:
                assert R.REASONS.get((name, value)), f"no reason given for {name}={value!r}"


def test_house_rule_changes_name_what_differs():
    assert R.house_rule_changes("rummoli", {"run": "6-7-8", "strict_claims": False}) == [
        "Strict claims: paid automatically",
        "Run space: 6-7-8",
    ]
    assert R.house_rule_changes("rummoli", {}) == []


def test_every_page_fits_a_discord_embed():
    for key in PRESETS:
        for name, values in R.house_rules(key).items():
            for page in pages_for(key, {name: values[-1]}):
                assert len(page) <= 4000, (key, name, page[:60])
