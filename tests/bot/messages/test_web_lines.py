"""The Discord lines about the web pages (bot.messages.web): the settings' line and a history line's
replay link, in the language being read; English as it was."""

from __future__ import annotations

import pytest

from bot.i18n import reading
from bot.messages.web import history_replay_link, web_pages_setting

URL = "https://tripoley.example.org/server/1-abc"
REPLAY = "https://tripoley.example.org/replay/7-xyz"


def lines(code: str) -> list[str]:
    with reading(code):
        return [
            web_pages_setting(False, None),
            web_pages_setting(True, None),
            web_pages_setting(True, URL),
            history_replay_link(REPLAY),
        ]


def test_english_is_as_it_was():
    assert lines("en") == [
        "Leaderboard on the web: off",
        "Leaderboard on the web: on (the bot serves no web pages now)",
        f"Leaderboard on the web: on, at <{URL}>",
        f" · [Replay on the web]({REPLAY})",
    ]


@pytest.mark.parametrize(
    ("code", "expected"),
    [
        (
            "fr",
            [
                "Classement sur le web : désactivé",
                "Classement sur le web : activé (le bot ne sert aucune page web pour l’instant)",
                f"Classement sur le web : activé, à l’adresse <{URL}>",
                f" · [Revoir sur le web]({REPLAY})",
            ],
        ),
        (
            "de",
            [
                "Bestenliste im Web: aus",
                "Bestenliste im Web: an (der Bot stellt gerade keine Webseiten bereit)",
                f"Bestenliste im Web: an, unter <{URL}>",
                f" · [Im Web ansehen]({REPLAY})",
            ],
        ),
    ],
)
def test_the_web_lines_in_french_and_german(code, expected):
    assert lines(code) == expected
