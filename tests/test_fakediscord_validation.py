"""The local Discord refuses what Discord refuses: every request body is checked against Discord's
OpenAPI spec (tests/fakediscord/spec) and the limits Discord documents beyond it, through the real
HTTP server; a refusal is Discord's 400 / 50035 with its error tree, and is recorded as a violation.
Also Discord's error semantics (10062, 40060, 50027, 10003, 10008, 50001, 50013, 50007, 429)."""

from __future__ import annotations

import asyncio
import json

import aiohttp
import discord
import pytest

from tests.fakediscord import state as S
from tests.fakediscord import validation as V
from tests.fakediscord.server import FakeDiscordServer

MESSAGES = "/channels/{channel_id}/messages"


@pytest.fixture
async def dh(discord_harness):
    return discord_harness


def channel_path(dh, name: str = "general") -> str:
    return f"/channels/{dh.channel(name).id}/messages"


def at(tree: dict, path: str) -> list[str]:
    """The error codes at a dotted path of Discord's error tree."""
    node = tree
    for part in path.split("."):
        assert part in node, f"no {part!r} in {sorted(node)} (path {path}); tree: {tree}"
        node = node[part]
    return [e["code"] for e in node["_errors"]]


async def refused(dh, body: dict, path: str, code: str, *, route: str | None = None) -> dict:
    """POST ``body`` as a message (or to ``route``), assert Discord's 400 with ``code`` at ``path``."""
    before = len(dh.violations)
    status, answer = await dh.raw_request("POST", route or channel_path(dh), json=body)
    assert status == 400, (status, answer)
    assert answer["code"] == 50035 and answer["message"] == "Invalid Form Body", answer
    assert code in at(answer["errors"], path), answer
    v = dh.violations[before]
    assert v.expected and v.errors == answer["errors"] and v.body == body
    return answer


async def accepted(dh, body: dict, route: str | None = None, method: str = "POST") -> dict:
    status, answer = await dh.raw_request(method, route or channel_path(dh), json=body, bad=False)
    assert status in (200, 201), (status, answer)
    assert not dh.violations, [v.describe() for v in dh.violations]
    return answer


def row(*components: dict) -> dict:
    return {"type": 1, "components": list(components)}


def button(cid: str = "b", **kw) -> dict:
    return {"type": 2, "style": 1, "custom_id": cid, "label": "Go", **kw}


def select(options: list[dict], cid: str = "s", **kw) -> dict:
    return {"type": 3, "custom_id": cid, "options": options, **kw}


def opts(n: int, **kw) -> list[dict]:
    return [{"label": f"o{i}", "value": f"v{i}", **kw} for i in range(n)]


# -- the vendored spec and the route map -------------------------------------------------------


def test_every_route_with_a_body_maps_to_an_operation_of_the_spec():
    spec = V.spec()
    assert spec["info"]["version"] == "10"
    for route, (path, method) in V.ROUTE_OPERATIONS.items():
        assert "requestBody" in spec["paths"][path][method], route
        assert V.request_validator(route) is not None
    server = FakeDiscordServer(S.FakeState())
    with_body = {r for r in server._route_names.values() if r.split()[0] in ("POST", "PUT", "PATCH")}
    no_body = {
        "POST /channels/{channel_id}/typing",
        "PUT /channels/{channel_id}/messages/{message_id}/reactions/{emoji}/@me",
    }
    assert with_body - no_body == set(V.ROUTE_OPERATIONS)
    readme = (V.SPEC_PATH.parent / "README.md").read_text()
    assert "MIT License" in readme and "Permission is hereby granted" in readme


def test_validators_are_compiled_once_and_results_remembered():
    route = "POST " + MESSAGES
    body = {"content": "x", "components": [row(button())]}
    assert V.request_validator(route) is V.request_validator(route)
    V.schema_problems(route, body)
    hits = V._cached_problems.cache_info().hits
    V.schema_problems(route, dict(body))
    assert V._cached_problems.cache_info().hits == hits + 1


def test_spec_unions_are_rewritten_to_equivalent_dispatch():
    """A component union became a dispatch on ``type``; a wrong ``type`` and a bad field of the right
    branch are both still refused, each at its own path."""
    route = "POST " + MESSAGES
    assert V.schema_problems(route, {"components": [{"type": 42, "components": []}]}) == [
        (["components", 0, "type"], "BASE_TYPE_CHOICES", "Value must be one of [1, 17, 13, 12, 9, 14, 10].")
    ]
    (problem,) = V.schema_problems(route, {"components": [row({"type": 2, "style": 9, "custom_id": "a"})]})
    assert problem[0] == ["components", 0, "components", 0, "style"] and problem[1] == "BASE_TYPE_CHOICES"


# -- schema: types, required fields, good bodies ---------------------------------------------


async def test_a_wrong_type_is_refused_by_the_schema(dh):
    await refused(dh, {"embeds": [{"title": "t", "color": "red"}]}, "embeds.0.color", "NUMBER_TYPE_COERCE")
    await refused(dh, {"content": 5}, "content", "BASE_TYPE_INVALID")
    await refused(dh, {"content": "x", "embeds": {"title": "t"}}, "embeds", "LIST_TYPE_CONVERT")
    await refused(
        dh,
        {"components": [row({"type": 2, "custom_id": "a"})]},
        "components.0.components.0.style",
        "BASE_TYPE_REQUIRED",
    )
    await refused(
        dh, {"allowed_mentions": {"parse": ["user"]}, "content": "x"}, "allowed_mentions.parse.0", "BASE_TYPE_CHOICES"
    )


async def test_good_bodies_pass(dh):
    body = {
        "content": "x" * 2000,
        "embeds": [
            {
                "title": "t" * 256,
                "description": "d" * 3000,
                "color": 0x2ECC71,
                "fields": [{"name": "n", "value": "v" * 100, "inline": True}] * 25,
                "footer": {"text": "f"},
                "author": {"name": "a"},
            }
        ],
        "components": [
            row(*(button(f"b{i}") for i in range(5))),
            row(select(opts(25), min_values=0, max_values=25, placeholder="p" * 150)),
            row({"type": 2, "style": 5, "label": "Rules", "url": "https://example.org/rules"}),
        ],
        "allowed_mentions": {"parse": [], "users": [str(dh.users["alice"].user.id)]},
    }
    msg = await accepted(dh, body)
    assert msg["content"] == "x" * 2000
    assert not dh.server.deprecations


# -- documented limits the schema lacks ------------------------------------------------------

LONG = "x" * 5000


@pytest.mark.parametrize(
    ("body", "path", "code"),
    [
        ({"content": "x" * 2001}, "content", "BASE_TYPE_MAX_LENGTH"),
        ({"embeds": [{"title": "t" * 257}]}, "embeds.0.title", "BASE_TYPE_MAX_LENGTH"),
        ({"embeds": [{"description": "d" * 4097}]}, "embeds.0.description", "BASE_TYPE_MAX_LENGTH"),
        ({"embeds": [{"fields": [{"name": "n", "value": "v"}] * 26}]}, "embeds.0.fields", "BASE_TYPE_MAX_LENGTH"),
        (
            {"embeds": [{"fields": [{"name": "n" * 257, "value": "v"}]}]},
            "embeds.0.fields.0.name",
            "BASE_TYPE_MAX_LENGTH",
        ),
        (
            {"embeds": [{"fields": [{"name": "n", "value": "v" * 1025}]}]},
            "embeds.0.fields.0.value",
            "BASE_TYPE_MAX_LENGTH",
        ),
        ({"embeds": [{"fields": [{"name": "n"}]}]}, "embeds.0.fields.0.value", "BASE_TYPE_REQUIRED"),
        ({"embeds": [{"footer": {"text": "f" * 2049}}]}, "embeds.0.footer.text", "BASE_TYPE_MAX_LENGTH"),
        ({"embeds": [{"author": {"name": "a" * 257}}]}, "embeds.0.author.name", "BASE_TYPE_MAX_LENGTH"),
        ({"embeds": [{"title": "t"}] * 11}, "embeds", "BASE_TYPE_MAX_LENGTH"),
        ({"embeds": [{"description": "d" * 4000}, {"description": "d" * 2001}]}, "embeds", "BASE_TYPE_MAX_LENGTH"),
    ],
    ids=[
        "content",
        "title",
        "description",
        "26-fields",
        "field-name",
        "field-value",
        "field-value-missing",
        "footer",
        "author",
        "11-embeds",
        "6001-in-all",
    ],
)
async def test_content_and_embed_limits(dh, body, path, code):
    await refused(dh, body, path, code)


@pytest.mark.parametrize(
    ("components", "path", "code"),
    [
        ([row(button(f"b{i}")) for i in range(6)], "components", "BASE_TYPE_MAX_LENGTH"),
        ([row(*(button(f"b{i}") for i in range(6)))], "components.0.components", "BASE_TYPE_MAX_LENGTH"),
        ([row()], "components.0.components", "BASE_TYPE_MIN_LENGTH"),
        ([row(select(opts(2)), button())], "components.0.components.1", "COMPONENT_LAYOUT_WIDTH_EXCEEDED"),
        ([row(button("c" * 101))], "components.0.components.0.custom_id", "BASE_TYPE_MAX_LENGTH"),
        ([row(button(""))], "components.0.components.0.custom_id", "BASE_TYPE_MIN_LENGTH"),
        ([row(button("a")), row(button("a"))], "components.1.components.0.custom_id", "COMPONENT_CUSTOM_ID_DUPLICATED"),
        ([row(button(label="l" * 81))], "components.0.components.0.label", "BASE_TYPE_MAX_LENGTH"),
        ([row(select([]))], "components.0.components.0.options", "BASE_TYPE_MIN_LENGTH"),
        ([row(select(opts(26)))], "components.0.components.0.options", "BASE_TYPE_MAX_LENGTH"),
        (
            [row(select([{"label": "Q♥", "value": "QH"}, {"label": "Q♥", "value": "QH"}]))],
            "components.0.components.0.options.1",
            "SELECT_COMPONENT_OPTION_VALUE_DUPLICATED",
        ),
        (
            [row(select([{"label": "l", "value": "v" * 101}]))],
            "components.0.components.0.options.0.value",
            "BASE_TYPE_MAX_LENGTH",
        ),
        (
            [row(select([{"label": "l" * 101, "value": "v"}]))],
            "components.0.components.0.options.0.label",
            "BASE_TYPE_MAX_LENGTH",
        ),
        (
            [row(select([{"label": "l", "value": "v", "description": "d" * 101}]))],
            "components.0.components.0.options.0.description",
            "BASE_TYPE_MAX_LENGTH",
        ),
        (
            [row(select(opts(2), placeholder="p" * 151))],
            "components.0.components.0.placeholder",
            "BASE_TYPE_MAX_LENGTH",
        ),
        (
            [row(select(opts(5), min_values=3, max_values=2))],
            "components.0.components.0.min_values",
            "BASE_TYPE_INVALID",
        ),
        ([row(select(opts(2), max_values=3))], "components.0.components.0.max_values", "BASE_TYPE_MAX"),
        ([row(select(opts(25), max_values=26))], "components.0.components.0.max_values", "NUMBER_TYPE_MAX"),
        ([row(select(opts(3, default=True), max_values=2))], "components.0.components.0.options", "BASE_TYPE_INVALID"),
        (
            [row({"type": 2, "style": 5, "label": "x", "url": "https://example.org", "custom_id": "x"})],
            "components.0.components.0.custom_id",
            "BASE_TYPE_INVALID",
        ),
        ([row({"type": 2, "style": 5, "label": "x"})], "components.0.components.0.url", "BASE_TYPE_REQUIRED"),
        ([row(button(url="https://example.org"))], "components.0.components.0.url", "BASE_TYPE_INVALID"),
        ([row({"type": 2, "style": 1, "label": "x"})], "components.0.components.0.custom_id", "BASE_TYPE_REQUIRED"),
    ],
    ids=[
        "6-rows",
        "6-buttons",
        "empty-row",
        "select-not-alone",
        "custom-id-101",
        "custom-id-empty",
        "custom-id-twice",
        "label-81",
        "no-options",
        "26-options",
        "duplicate-values",
        "value-101",
        "option-label-101",
        "option-description-101",
        "placeholder-151",
        "min-over-max",
        "max-over-options",
        "max-values-26",
        "defaults-over-max",
        "link-with-custom-id",
        "link-without-url",
        "url-on-a-non-link",
        "no-custom-id",
    ],
)
async def test_component_limits(dh, components, path, code):
    await refused(dh, {"content": "x", "components": components}, path, code)


@pytest.mark.parametrize(
    ("allowed", "path", "code"),
    [
        ({"parse": ["users"], "users": ["1"]}, "allowed_mentions.parse", "BASE_TYPE_INVALID"),
        ({"parse": ["roles"], "roles": ["1"]}, "allowed_mentions.parse", "BASE_TYPE_INVALID"),
        ({"users": [str(i) for i in range(1, 102)]}, "allowed_mentions.users", "BASE_TYPE_MAX_LENGTH"),
        ({"parse": ["here"]}, "allowed_mentions.parse.0", "BASE_TYPE_CHOICES"),
    ],
    ids=["users-twice", "roles-twice", "101-users", "unknown-parse"],
)
async def test_allowed_mentions(dh, allowed, path, code):
    await refused(dh, {"content": "x", "allowed_mentions": allowed}, path, code)


async def test_ephemeral_only_answers_interactions(dh):
    await refused(dh, {"content": "x", "flags": S.FLAG_EPHEMERAL}, "flags", "MESSAGE_FLAGS_INVALID")
    rec = dh._new_record(dh.users["alice"].user, dh.channel("general"), 2, {"name": "x"})
    status, answer = await dh.raw_request(
        "POST",
        f"/interactions/{rec.id}/{rec.token}/callback",
        json={"type": 4, "data": {"content": "secret", "flags": S.FLAG_EPHEMERAL}},
        bad=False,
    )
    assert status == 200 and answer["interaction"]["response_message_ephemeral"]
    assert len(dh.violations) == 1  # the channel post's


# -- files ---------------------------------------------------------------------------------------


def form(payload: dict, files: dict[int, tuple[str, bytes]]) -> aiohttp.FormData:
    data = aiohttp.FormData()
    data.add_field("payload_json", json.dumps(payload), content_type="application/json")
    for idx, (name, blob) in files.items():
        data.add_field(f"files[{idx}]", blob, filename=name, content_type="image/png")
    return data


async def test_files_and_attachment_references(dh):
    path = channel_path(dh)
    embed = {"title": "mat", "image": {"url": "attachment://mat.png"}}
    ok = {"embeds": [embed], "attachments": [{"id": "0", "filename": "mat.png"}]}
    status, msg = await dh.raw_request("POST", path, data=form(ok, {0: ("mat.png", b"png")}), bad=False)
    assert status == 200 and msg["attachments"][0]["filename"] == "mat.png"
    assert not dh.violations

    status, answer = await dh.raw_request(
        "POST", path, data=form({"embeds": [{"image": {"url": "attachment://other.png"}}]}, {0: ("mat.png", b"png")})
    )
    assert status == 400 and "ATTACHMENT_NOT_FOUND" in at(answer["errors"], "embeds.0.image.url")
    status, answer = await dh.raw_request(
        "POST", path, data=form({"content": "x", "attachments": [{"id": "1"}]}, {0: ("a.png", b"a")})
    )
    assert status == 400 and "ATTACHMENT_NOT_FOUND" in at(answer["errors"], "attachments.0.id")
    eleven = {i: (f"f{i}.png", b"x") for i in range(11)}
    status, answer = await dh.raw_request("POST", path, data=form({"content": "x"}, eleven))
    assert status == 400 and answer["code"] == 50035 and "BASE_TYPE_MAX_LENGTH" in at(answer["errors"], "files")
    big = {0: ("big.png", b"x" * (V.MAX_FILE_SIZE + 1))}
    status, answer = await dh.raw_request("POST", path, data=form({"content": "x"}, big))
    assert status == 413 and answer["code"] == 40005
    assert [v.code for v in dh.violations] == [50035, 50035, 50035, 40005] and all(v.expected for v in dh.violations)


# -- modals ------------------------------------------------------------------------------------


def text_input(cid: str = "amount", **kw) -> dict:
    return {"type": 4, "custom_id": cid, "style": 1, **kw}


def label(component: dict, text: str = "Amount", **kw) -> dict:
    return {"type": 18, "label": text, "component": component, **kw}


async def answer(dh, rec, body: dict, *, bad: bool = True) -> tuple[int, dict]:
    return await dh.raw_request("POST", f"/interactions/{rec.id}/{rec.token}/callback", json=body, bad=bad)


def command_rec(dh, type_: int = 2, source=None):
    return dh._new_record(dh.users["alice"].user, dh.channel("general"), type_, {"name": "x"}, source=source)


def modal(*components: dict, title: str = "Raise") -> dict:
    return {"type": 9, "data": {"custom_id": "raise", "title": title, "components": list(components)}}


async def test_modal_label_layout_passes_and_the_action_row_layout_is_deprecated_not_refused(dh):
    status, _ = await answer(
        dh, command_rec(dh), modal(label(text_input(max_length=6), description="Chips")), bad=False
    )
    assert status == 200 and not dh.server.deprecations
    # Discord's spec still takes a text input in an Action Row (ActionRowComponentForModalRequest);
    # the docs call it deprecated: accepted, and noted.
    status, _ = await answer(dh, command_rec(dh), modal(row(text_input(label="Amount"))), bad=False)
    assert status == 200 and dh.server.deprecations == ["modal 'raise': a text input in an Action Row (use a Label)"]
    assert not dh.violations


@pytest.mark.parametrize(
    ("body", "path", "code"),
    [
        (modal(label(text_input()), title="t" * 46), "data.title", "BASE_TYPE_MAX_LENGTH"),
        (modal(*(label(text_input(f"a{i}")) for i in range(6))), "data.components", "BASE_TYPE_MAX_LENGTH"),
        (modal(), "data.components", "BASE_TYPE_MIN_LENGTH"),
        (modal(label(text_input(), "l" * 46)), "data.components.0.label", "BASE_TYPE_MAX_LENGTH"),
        (modal(label(text_input(), description="d" * 101)), "data.components.0.description", "BASE_TYPE_MAX_LENGTH"),
        (modal(label(button())), "data.components.0.component.type", "BASE_TYPE_CHOICES"),
        (
            modal(row(text_input("a", label="A"), text_input("b", label="B"))),
            "data.components.0.components.1",
            "COMPONENT_LAYOUT_WIDTH_EXCEEDED",
        ),
        (modal(label(text_input(min_length=4001))), "data.components.0.component.min_length", "NUMBER_TYPE_MAX"),
        (modal(label(text_input(max_length=4001))), "data.components.0.component.max_length", "NUMBER_TYPE_MAX"),
        (
            modal(label(text_input(min_length=5, max_length=4))),
            "data.components.0.component.min_length",
            "BASE_TYPE_INVALID",
        ),
        (
            modal(label(text_input(max_length=3, value="12345"))),
            "data.components.0.component.value",
            "BASE_TYPE_MAX_LENGTH",
        ),
        (
            modal(label(text_input("a")), label(text_input("a"))),
            "data.components.1.component.custom_id",
            "COMPONENT_CUSTOM_ID_DUPLICATED",
        ),
        (
            modal(label(select([{"label": "a", "value": "x"}, {"label": "b", "value": "x"}]))),
            "data.components.0.component.options.1",
            "SELECT_COMPONENT_OPTION_VALUE_DUPLICATED",
        ),
    ],
    ids=[
        "title-46",
        "6-components",
        "no-components",
        "label-46",
        "description-101",
        "button-in-label",
        "two-inputs-in-a-row",
        "min-length-4001",
        "max-length-4001",
        "min-over-max",
        "value-over-max",
        "custom-id-twice",
        "select-duplicate-values",
    ],
)
async def test_modal_limits(dh, body, path, code):
    status, answer_ = await answer(dh, command_rec(dh), body)
    assert status == 400 and answer_["code"] == 50035, answer_
    assert code in at(answer_["errors"], path), answer_


# -- interaction callbacks -----------------------------------------------------------------------


async def test_callback_types_allowed_for_each_interaction(dh):
    post = await accepted(dh, {"content": "table", "components": [row(button())]})
    source = dh.message(int(post["id"]))
    cases = [  # (interaction type, from a component, callback type, allowed)
        (2, False, 7, False),  # UPDATE_MESSAGE answers a component, not a command
        (2, False, 6, False),
        (2, False, 8, False),  # autocomplete results only for autocomplete
        (4, False, 4, False),  # autocomplete takes only 8
        (5, False, 9, False),  # a modal cannot answer a modal submit
        (5, False, 6, False),  # a modal opened by a command has no message to update
        (5, True, 6, True),  # ...one opened by a component does
        (3, True, 7, True),
        (2, False, 5, True),
        (4, False, 8, True),
    ]
    for itype, from_component, ctype, allowed in cases:
        rec = command_rec(dh, itype, source=source if from_component else None)
        body = {"type": ctype, "data": {"choices": []}} if ctype == 8 else {"type": ctype}
        if ctype in (4, 7):
            body["data"] = {"content": "x"}
        elif ctype == 9:
            body = modal(label(text_input()))
        status, reply = await answer(dh, rec, body, bad=not allowed)
        if allowed:
            assert status == 200, (itype, ctype, reply)
        else:
            assert status == 400 and "INTERACTION_CALLBACK_TYPE_INVALID" in at(reply["errors"], "type"), (itype, ctype)
    assert all(v.expected for v in dh.violations) and len(dh.violations) == 6


async def test_one_answer_per_interaction(dh):
    rec = command_rec(dh)
    assert (await answer(dh, rec, {"type": 5}, bad=False))[0] == 200
    status, reply = await answer(dh, rec, {"type": 4, "data": {"content": "again"}})
    assert (status, reply["code"]) == (400, 40060)
    assert [v.code for v in dh.violations] == [40060]


# -- application commands --------------------------------------------------------------------


def command(name: str = "tripoley", **kw) -> dict:
    return {"name": name, "description": "Play Tripoley", "type": 1, **kw}


def option(name: str = "preset", **kw) -> dict:
    return {"type": 3, "name": name, "description": "Which game", **kw}


@pytest.mark.parametrize(
    ("commands", "path", "code"),
    [
        ([command("Tripoley")], "0.name", "APPLICATION_COMMAND_INVALID_NAME"),
        ([command("two words")], "0.name", "APPLICATION_COMMAND_INVALID_NAME"),
        ([command("x" * 33)], "0.name", "BASE_TYPE_MAX_LENGTH"),
        ([command(description="")], "0.description", "BASE_TYPE_BAD_LENGTH"),
        ([command(description="d" * 101)], "0.description", "BASE_TYPE_MAX_LENGTH"),
        ([command(options=[option(f"o{i}") for i in range(26)])], "0.options", "BASE_TYPE_MAX_LENGTH"),
        ([command(options=[option(description="…" * 101)])], "0.options.0.description", "BASE_TYPE_MAX_LENGTH"),
        (
            [command(options=[option(choices=[{"name": f"c{i}", "value": f"c{i}"} for i in range(26)])])],
            "0.options.0.choices",
            "BASE_TYPE_MAX_LENGTH",
        ),
        (
            [command(options=[option("a"), option("b", required=True)])],
            "0.options.1.required",
            "APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID",
        ),
        ([command(f"c{i}") for i in range(101)], "", "BASE_TYPE_MAX_LENGTH"),
        ([command(), command()], "1.name", "APPLICATION_COMMANDS_DUPLICATE_NAME"),
        ([command(name_localizations={"fr-CA": "tripoley"})], "0.name_localizations.fr-CA", "LOCALE_INVALID"),
        (
            [command(name_localizations={"fr": "Tripolé"})],
            "0.name_localizations.fr",
            "APPLICATION_COMMAND_INVALID_NAME",
        ),
        (
            [command(options=[option(description_localizations={"de": "d" * 101})])],
            "0.options.0.description_localizations.de",
            "BASE_TYPE_MAX_LENGTH",
        ),
        (
            [command(options=[option("user"), option("player", name_localizations={"fr": "user"})])],
            "0.options.1.name_localizations.fr",
            "APPLICATION_COMMAND_OPTION_NAME_ALREADY_EXISTS",
        ),
        (
            [
                command(
                    options=[option("a", name_localizations={"de": "x"}), option("b", name_localizations={"de": "x"})]
                )
            ],
            "0.options.1.name_localizations.de",
            "APPLICATION_COMMAND_OPTION_NAME_ALREADY_EXISTS",
        ),
        (
            [command(options=[option(choices=[{"name": "c", "value": "c", "name_localizations": {"fr": "é" * 101}}])])],
            "0.options.0.choices.0.name_localizations.fr",
            "BASE_TYPE_MAX_LENGTH",
        ),
    ],
    ids=[
        "uppercase",
        "space",
        "name-33",
        "no-description",
        "description-101",
        "26-options",
        "option-description-101",
        "26-choices",
        "required-after-optional",
        "101-commands",
        "same-name-twice",
        "unknown-locale",
        "localised-name-uppercase",
        "localised-description-101",
        "localised-option-name-as-a-siblings-name",
        "two-options-localised-alike",
        "localised-choice-name-101",
    ],
)
async def test_command_limits(dh, commands, path, code):
    route = f"/applications/{dh.state.application_id}/guilds/{dh.guild.id}/commands"
    status, reply = await dh.raw_request("PUT", route, json=commands)
    assert status == 400 and reply["code"] == 50035, reply
    node = reply["errors"]
    if path:
        assert code in at(node, path), reply
    else:
        assert code in [e["code"] for e in node["_errors"]], reply
    assert not dh.commands()


async def test_a_command_past_the_scope_limit(dh):
    route = f"/applications/{dh.state.application_id}/guilds/{dh.guild.id}/commands"
    await accepted(dh, [command(f"c{i}") for i in range(100)], route=route, method="PUT")
    assert (await dh.raw_request("POST", route, json=command("c5"), bad=False))[0] == 201  # a replacement
    status, reply = await dh.raw_request("POST", route, json=command("one-more"))
    assert (status, reply["code"]) == (400, 30032) and len(dh.commands()) == 100


async def test_good_commands_pass(dh):
    route = f"/applications/{dh.state.application_id}/guilds/{dh.guild.id}/commands"
    cmd = command(
        name_localizations={"fr": "tripolé", "de": "tripoley"},
        description_localizations={"fr": "Jouer au Tripoley"},
        default_member_permissions="8",
        options=[option(required=True, choices=[{"name": "Rulebook", "value": "tripoley-rulebook"}]), option("seats")],
    )
    await accepted(dh, [cmd], route=route, method="PUT")
    assert dh.commands()[0]["name"] == "tripoley"


# -- violations: recorded, expected or not ---------------------------------------------------


async def test_violations_are_recorded_and_only_declared_ones_are_expected(dh):
    await dh.raw_request("POST", channel_path(dh), json={"content": "x" * 2001}, bad=False)
    (v,) = dh.unexpected_violations()
    assert v.route == "POST " + MESSAGES and v.status == 400 and v.code == 50035
    assert "BASE_TYPE_MAX_LENGTH" in at(v.errors, "content")
    dh.violations.clear()  # (the fixture would fail this test for it)
    x = dh.expect_violation("POST /channels/*", "BASE_TYPE_MAX_LENGTH")
    await dh.raw_request("POST", channel_path(dh), json={"content": "x" * 2001}, bad=False)
    await dh.raw_request("POST", channel_path(dh), json={"content": "x", "flags": 64}, bad=False)
    assert x.hits == 1 and [v.expected for v in dh.violations] == [True, False]
    dh.violations.clear()


async def test_injected_faults_and_missing_things_are_not_violations(dh):
    dh.faults.fail("POST /channels/*", 400, code=50035)
    assert (await dh.raw_request("POST", channel_path(dh), json={"content": "x"}, bad=False))[0] == 400
    assert (await dh.raw_request("GET", "/channels/1/messages", bad=False))[0] == 404
    assert not dh.violations


# -- Discord's error semantics, through discord.py -------------------------------------------


class Plain(discord.Client):
    async def before_identify_hook(self, shard_id, *, initial=False):
        return None


@pytest.fixture
async def client(dh):
    bot = Plain(intents=discord.Intents.default(), guild_ready_timeout=0.01)
    await dh.connect(bot)
    return bot


async def test_deleted_channel_and_message(dh, client):
    ch = client.get_channel(dh.channel("general").id)
    sent = await ch.send("hello")
    dh.faults.delete_message(sent.id)
    with pytest.raises(discord.NotFound) as e:
        await sent.edit(content="edited")
    assert e.value.code == 10008
    dh.faults.remove_channel("general")
    with pytest.raises(discord.NotFound) as e:
        await ch.send("anyone?")
    assert e.value.code == 10003
    assert not dh.violations


async def test_missing_access_and_permissions(dh, client):
    ch = client.get_channel(dh.channel("general").id)
    other = client.get_channel(dh.channel("tripoley").id)
    dh.faults.revoke_permission(S.P_SEND_MESSAGES, channel="general")
    with pytest.raises(discord.Forbidden) as e:
        await ch.send("x")
    assert e.value.code == 50013
    await other.send("still fine elsewhere")
    dh.faults.revoke_permission(S.P_VIEW_CHANNEL, channel="general")
    with pytest.raises(discord.Forbidden) as e:
        await ch.fetch_message(1)
    assert e.value.code == 50001
    dh.faults.revoke_permission(S.P_ATTACH_FILES)  # everywhere
    with pytest.raises(discord.Forbidden) as e:
        await other.send(file=discord.File(__file__))
    assert e.value.code == 50013
    dh.faults.restore_permission(S.P_ATTACH_FILES)
    dh.faults.restore_permission(S.P_VIEW_CHANNEL | S.P_SEND_MESSAGES, channel="general")
    await ch.send("back")


async def test_cannot_dm(dh, client):
    dh.faults.close_dms("bob")
    user = await client.fetch_user(dh.users["bob"].user.id)
    with pytest.raises(discord.Forbidden) as e:
        await user.send("your hand")
    assert e.value.code == 50007


async def test_interaction_errors(dh):
    unknown = command_rec(dh)
    status, reply = await dh.raw_request(
        "POST", f"/interactions/{unknown.id}/not-the-token/callback", json={"type": 5}, bad=False
    )
    assert (status, reply["code"]) == (404, 10062)
    dh.server.ack_window = 0.05
    late = command_rec(dh)
    late.dispatched_at = late.created_monotonic
    await asyncio.sleep(0.1)
    status, reply = await answer(dh, late, {"type": 5}, bad=False)
    assert (status, reply["code"]) == (404, 10062) and late.late
    rec = command_rec(dh)
    assert (await answer(dh, rec, {"type": 5}, bad=False))[0] == 200
    dh.expire_token(rec)
    status, reply = await dh.raw_request(
        "POST", f"/webhooks/{dh.state.application_id}/{rec.token}", json={"content": "late"}, bad=False
    )
    assert (status, reply["code"]) == (401, 50027)
    assert not dh.violations


async def test_rate_limit_answers(dh):
    dh.faults.rate_limit(MESSAGES, retry_after=0.25)
    dh.faults.rate_limit("*", retry_after=0.5, is_global=True)
    async with aiohttp.ClientSession() as s:
        auth = {"Authorization": f"Bot {dh.state.token}"}
        async with s.post(f"{dh.api_base}{channel_path(dh)}", json={"content": "x"}, headers=auth) as r:
            body = await r.json()
            assert r.status == 429 and body["retry_after"] == 0.25 and body["global"] is False
            assert r.headers["Retry-After"] == "1" and r.headers["X-RateLimit-Scope"] == "user"
            assert "X-RateLimit-Global" not in r.headers and r.headers["X-RateLimit-Remaining"] == "0"
        async with s.get(f"{dh.api_base}/users/@me", headers=auth) as r:
            body = await r.json()
            assert r.status == 429 and body["global"] is True
            assert r.headers["X-RateLimit-Global"] == "true" and r.headers["X-RateLimit-Scope"] == "global"
    assert not dh.violations
