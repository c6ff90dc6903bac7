"""Discord's request contract, for the local Discord.

Two layers, each answering a bad body the way Discord does (400, code 50035 "Invalid Form Body",
an ``errors`` tree naming each field with ``{"_errors": [{"code", "message"}]}``):

1. the request schema of the route's operation in Discord's own OpenAPI spec (``spec/openapi.json``,
   vendored: see ``spec/README.md``), checked with jsonschema; validators are compiled once per
   operation and cached, since the suite sends thousands of requests;
2. the limits Discord documents that the schema lacks (unique select values, a select alone in its
   row, the 6,000 characters of a message's embeds, ...): ``validate_message``, ``validate_modal``,
   ``validate_commands``, ``validate_callback_type``.

Error codes are Discord's where known (BASE_TYPE_*, NUMBER_TYPE_*, COMPONENT_CUSTOM_ID_DUPLICATED,
SELECT_COMPONENT_OPTION_VALUE_DUPLICATED, ...); ``FAKE_CODES`` lists the few this module names itself.
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any

from jsonschema import Draft202012Validator, validators
from jsonschema.exceptions import ValidationError
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

from . import state as S

SPEC_PATH = Path(__file__).parent / "spec" / "openapi.json"
SPEC_URI = "urn:discord-api-spec"

# The server's route templates (as discord.py writes them) -> the spec's (path, method). Routes
# without a request body (GET, DELETE, typing, reactions) are not listed.
ROUTE_OPERATIONS: dict[str, tuple[str, str]] = {
    "POST /users/@me/channels": ("/users/@me/channels", "post"),
    "PUT /applications/{application_id}/commands": ("/applications/{application_id}/commands", "put"),
    "POST /applications/{application_id}/commands": ("/applications/{application_id}/commands", "post"),
    "PUT /applications/{application_id}/guilds/{guild_id}/commands": (
        "/applications/{application_id}/guilds/{guild_id}/commands",
        "put",
    ),
    "POST /applications/{application_id}/guilds/{guild_id}/commands": (
        "/applications/{application_id}/guilds/{guild_id}/commands",
        "post",
    ),
    "POST /interactions/{interaction_id}/{interaction_token}/callback": (
        "/interactions/{interaction_id}/{interaction_token}/callback",
        "post",
    ),
    "POST /webhooks/{webhook_id}/{webhook_token}": ("/webhooks/{webhook_id}/{webhook_token}", "post"),
    "PATCH /webhooks/{webhook_id}/{webhook_token}/messages/{message_id}": (
        "/webhooks/{webhook_id}/{webhook_token}/messages/{message_id}",
        "patch",
    ),
    "PATCH /channels/{channel_id}": ("/channels/{channel_id}", "patch"),
    "POST /channels/{channel_id}/messages/{message_id}/threads": (
        "/channels/{channel_id}/messages/{message_id}/threads",
        "post",
    ),
    "POST /channels/{channel_id}/messages": ("/channels/{channel_id}/messages", "post"),
    "PATCH /channels/{channel_id}/messages/{message_id}": ("/channels/{channel_id}/messages/{message_id}", "patch"),
}

# Where the spec is stricter than Discord itself, as (schema name, property or None for the schema
# itself) -> the JSON types Discord also takes there. Discord parses snowflakes and 64-bit integer
# fields from JSON numbers as well as from strings (its docs: "snowflakes ... serialized as strings"
# is what it sends, not what it demands), and discord.py sends ints (recipient_id, allowed_mentions'
# users, default_member_permissions as a string).
SPEC_LAXNESS: dict[tuple[str, str | None], list[str]] = {
    ("SnowflakeType", None): ["integer"],
    ("ApplicationCommandCreateRequest", "default_member_permissions"): ["string"],
    ("ApplicationCommandUpdateRequest", "default_member_permissions"): ["string"],
}

# The codes this module names itself, where Discord's own spelling was not confirmed from a real
# answer; the others are Discord's (BASE_TYPE_*, NUMBER_TYPE_*, COMPONENT_*, SELECT_COMPONENT_*, ...).
FAKE_CODES = frozenset(
    {
        "MESSAGE_FLAGS_INVALID",
        "ATTACHMENT_NOT_FOUND",
        "INTERACTION_CALLBACK_TYPE_INVALID",
        "LOCALE_INVALID",
        "BOOLEAN_TYPE_CONVERT",
        "APPLICATION_COMMAND_OPTION_NAME_ALREADY_EXISTS",
    }
)

MAX_FILES = 10
MAX_FILE_SIZE = 10 * 1024 * 1024  # 10 MiB: the upload limit of a server without boosts
MAX_MODAL_COMPONENTS = 5
MAX_COMMANDS_A_SCOPE = 100  # chat input commands
MAX_CONTEXT_COMMANDS_A_SCOPE = 5  # user commands, and message commands, each
NAME_RE = re.compile(r"^[-_\w]{1,32}$")  # Discord: ^[-_\p{L}\p{N}\p{sc=Deva}\p{sc=Thai}]{1,32}$
COMMAND_TYPES_CHAT_INPUT = 1

Problem = tuple[Sequence[str | int] | str, str, str]  # (path, code, message)


class ApiError(Exception):
    """Raised by handlers: becomes a Discord-style JSON error."""

    def __init__(self, status: int, code: int, message: str, errors: dict | None = None) -> None:
        super().__init__(f"{status} {code} {message}")
        self.status, self.code, self.message, self.errors = status, code, message, errors

    def body(self) -> dict:
        d: dict[str, Any] = {"message": self.message, "code": self.code}
        if self.errors:
            d["errors"] = self.errors
        return d


class FormError(ApiError):
    """A body Discord would refuse (400 / 50035): ``problems`` are (path, code, message) triples."""

    def __init__(self, problems: Sequence[Problem]) -> None:
        self.problems = list(problems)
        super().__init__(400, 50035, "Invalid Form Body", self.tree())
        self.args = ("; ".join(f"{_dotted(p)}: {code} {msg}" for p, code, msg in self.problems),)

    def tree(self) -> dict:
        """Discord's nested ``errors`` object: keys are the field path, leaves ``_errors`` lists."""
        errors: dict = {}
        for path, code, message in self.problems:
            node = errors
            for part in _parts(path):
                node = node.setdefault(str(part), {})
            node.setdefault("_errors", []).append({"code": code, "message": message})
        return errors


def _parts(path: Sequence[str | int] | str) -> list[str | int]:
    if isinstance(path, str):
        return [p for p in path.split(".") if p]
    return list(path)


def _dotted(path: Sequence[str | int] | str) -> str:
    return ".".join(str(p) for p in _parts(path))


def problems_of(problems: Iterable[Sequence[Any]]) -> list[Problem]:
    """Problems as (path, code, message); old-style (path, message) pairs get BASE_TYPE_INVALID."""
    return [(p[0], "BASE_TYPE_INVALID", p[1]) if len(p) == 2 else (p[0], p[1], p[2]) for p in problems]


# ---------------------------------------------------------------------------
# 1. The spec's request schemas
# ---------------------------------------------------------------------------


@functools.cache
def spec() -> dict:
    """The vendored spec, with ``SPEC_LAXNESS`` applied and its unions made cheap (loaded once)."""
    data = json.loads(SPEC_PATH.read_text(encoding="utf-8"))
    schemas = data["components"]["schemas"]
    for (name, prop), extra in SPEC_LAXNESS.items():
        node = schemas[name] if prop is None else schemas[name]["properties"][prop]
        types = node["type"] if isinstance(node["type"], list) else [node["type"]]
        node["type"] = types + [t for t in extra if t not in types]
    _optimise(data, schemas)
    return data


# The spec writes enums as ``oneOf`` lists of ``const`` and message components as ``oneOf`` unions
# of a dozen object schemas told apart by their ``type`` field; jsonschema then evaluates every
# branch of every union for every component (~10 ms a message). ``_optimise`` rewrites them into
# equivalent cheaper forms, each only where the equivalence is checked: a ``oneOf`` of distinct
# consts is an ``enum``; an ``allOf`` restating an enum that the node's own ``enum`` already narrows
# is dropped; a union of objects that each require ``type`` with disjoint values becomes one
# ``if``/``then`` per branch (only the branch the body names is evaluated, and its own errors are
# the ones reported, as Discord reports them).


def _walk_schema(node: Any) -> Iterator[dict]:
    if isinstance(node, dict):
        yield node
        for v in node.values():
            yield from _walk_schema(v)
    elif isinstance(node, list):
        for v in node:
            yield from _walk_schema(v)


def _ref_target(schemas: dict, node: Any) -> dict | None:
    ref = node.get("$ref") if isinstance(node, dict) else None
    prefix = "#/components/schemas/"
    if isinstance(ref, str) and ref.startswith(prefix) and len(node) == 1:
        return schemas.get(ref[len(prefix) :])
    return None


def _consts(node: dict) -> list | None:
    branches = node.get("oneOf")
    if not isinstance(branches, list) or not branches:
        return None
    if not all(isinstance(b, dict) and "const" in b and set(b) <= {"const", "title", "description"} for b in branches):
        return None
    values = [b["const"] for b in branches]
    return values if len({json.dumps(v) for v in values}) == len(values) else None


def _discriminator(schemas: dict, branch: Any) -> list | None:
    target = _ref_target(schemas, branch)
    if target is None or target.get("type") != "object" or "type" not in (target.get("required") or []):
        return None
    prop = (target.get("properties") or {}).get("type")
    if not isinstance(prop, dict):
        return None
    if "enum" in prop:
        return list(prop["enum"])
    return [prop["const"]] if "const" in prop else None


def _optimise(data: dict, schemas: dict) -> None:
    nodes = list(_walk_schema(data))
    for node in nodes:  # oneOf of consts -> enum
        values = _consts(node)
        if values is not None:
            del node["oneOf"]
            node["enum"] = values
    for node in nodes:  # allOf restating a wider enum
        allof = node.get("allOf")
        if "enum" in node and isinstance(allof, list) and len(allof) == 1:
            target = _ref_target(schemas, allof[0])
            if target is not None and "enum" in target and all(v in target["enum"] for v in node["enum"]):
                del node["allOf"]
    for node in nodes:  # discriminated unions -> if/then
        key = "oneOf" if "oneOf" in node else "anyOf" if "anyOf" in node else None
        if key is None or set(node) - {key, "x-discord-union", "description"}:
            continue
        branches = node[key]
        tags = [_discriminator(schemas, b) for b in branches]
        if any(t is None for t in tags):
            continue
        flat = [v for t in tags if t is not None for v in t]
        if len(set(flat)) != len(flat):
            continue
        del node[key]
        node.update(
            type="object",
            required=["type"],
            properties={"type": {"enum": flat}},
            **{DISPATCH: {json.dumps(v): b for t, b in zip(tags, branches, strict=True) for v in t}},
        )
    _inline_refs(data, schemas)


def _inline_refs(data: dict, schemas: dict) -> None:
    """Put each referenced schema object in place of its ``$ref`` (shared, not copied: recursive
    schemas become cyclic, which validation, walking the body, never minds), so validation
    does not resolve a reference at every step."""
    seen: set[int] = set()
    stack: list[Any] = [data]
    while stack:
        node = stack.pop()
        if id(node) in seen:
            continue
        seen.add(id(node))
        items = node.items() if isinstance(node, dict) else enumerate(node) if isinstance(node, list) else ()
        for k, v in list(items):
            target = _ref_target(schemas, v)
            if target is not None:
                node[k] = v = target
            if isinstance(v, dict | list):
                stack.append(v)


DISPATCH = "x-fakediscord-dispatch"  # {json of a `type` value: the branch schema}


def _dispatch(validator: Any, mapping: dict, instance: Any, schema: dict) -> Iterator[ValidationError]:
    """The keyword ``_optimise`` writes: validate an object against the branch its ``type`` names
    (a missing or unknown ``type`` is reported by the node's ``required`` and ``enum``)."""
    if isinstance(instance, dict) and "type" in instance:
        branch = mapping.get(json.dumps(instance["type"]))
        if branch is not None:
            yield from validator.descend(instance, branch)


_Validator = validators.extend(Draft202012Validator, {DISPATCH: _dispatch})


@functools.cache
def _registry() -> Registry:
    return Registry().with_resource(SPEC_URI, Resource.from_contents(spec(), default_specification=DRAFT202012))


def _pointer(*parts: str) -> str:
    return "/".join(p.replace("~", "~0").replace("/", "~1") for p in parts)


@functools.cache
def request_validator(route: str) -> Any:
    """The compiled validator of a route's JSON request body (None: a route without one)."""
    op = ROUTE_OPERATIONS.get(route)
    if op is None:
        return None
    path, method = op
    operation = spec()["paths"][path][method]
    if "requestBody" not in operation:
        return None
    ref = f"{SPEC_URI}#/" + _pointer("paths", path, method, "requestBody", "content", "application/json", "schema")
    return _Validator({"$ref": ref}, registry=_registry())


def schema_problems(route: str, body: Any) -> list[Problem]:
    """What the spec's schema refuses in this body (empty: it passes, or the route has no schema).
    Bots send the same bodies again and again (a view re-sent, an edit repeated): results are
    remembered by the body's JSON text."""
    if request_validator(route) is None:
        return []
    try:
        key = json.dumps(body, sort_keys=True, separators=(",", ":"))
    except (TypeError, ValueError):
        return _schema_problems(route, body)
    return list(_cached_problems(route, key))


@functools.lru_cache(maxsize=4096)
def _cached_problems(route: str, body_json: str) -> tuple[Problem, ...]:
    return tuple(_schema_problems(route, json.loads(body_json)))


def _schema_problems(route: str, body: Any) -> list[Problem]:
    out: list[Problem] = []
    for e in request_validator(route).iter_errors(body):
        for leaf in _leaves(e):
            out.append(_problem(leaf))
    return out


def _rules_out(e: ValidationError) -> bool:
    """Whether a sub-error of a oneOf/anyOf says its branch is another kind of object altogether
    (a different type, or a different ``type`` discriminator), not a bad field of the right one."""
    rel = list(e.relative_path)
    if not rel and e.validator in ("type", "const", "enum"):
        return True
    return rel == ["type"] and e.validator in ("const", "enum", "type")


def _null_branch(e: ValidationError) -> bool:
    return not e.relative_path and e.validator == "type" and e.validator_value == "null"


def _leaves(e: ValidationError) -> Iterator[ValidationError]:
    """The errors to report for one schema error: a union's failure is reported as the failures
    of the branch the body meant (the one its type and ``type`` field match), like Discord."""
    if e.validator in ("oneOf", "anyOf") and e.context:
        branches: dict[Any, list[ValidationError]] = {}
        for sub in e.context:
            branches.setdefault(sub.relative_schema_path[0], []).append(sub)
        viable = [errs for errs in branches.values() if not any(_rules_out(s) for s in errs)]
        if not viable:  # report the branch other than "null", if there is just one
            viable = [errs for errs in branches.values() if not any(_null_branch(s) for s in errs)]
            viable = viable if len(viable) == 1 else []
        if viable:
            for sub in min(viable, key=len):
                yield from _leaves(sub)
            return
    yield e


def _problem(e: ValidationError) -> Problem:
    path: list[str | int] = list(e.absolute_path)
    v, limit, inst = e.validator, e.validator_value, e.instance
    if v == "required":
        missing = next((k for k in limit if isinstance(inst, dict) and k not in inst), "?")
        return ([*path, missing], "BASE_TYPE_REQUIRED", "This field is required")
    if v in ("maxLength", "maxItems", "maxProperties"):
        return (path, "BASE_TYPE_MAX_LENGTH", f"Must be {limit} or fewer in length.")
    if v in ("minLength", "minItems"):
        return (path, "BASE_TYPE_MIN_LENGTH", f"Must be {limit} or more in length.")
    if v == "maximum":
        return (path, "NUMBER_TYPE_MAX", f"int value should be less than or equal to {limit}.")
    if v == "minimum":
        return (path, "NUMBER_TYPE_MIN", f"int value should be greater than or equal to {limit}.")
    if v in ("enum", "const"):
        return (path, "BASE_TYPE_CHOICES", f"Value must be one of {limit!r}.")
    if v == "pattern":
        return (path, "STRING_TYPE_REGEX", f"String value did not match validation regex {limit!r}.")
    if v == "type":
        types = limit if isinstance(limit, list) else [limit]
        if "object" in types:
            return (path, "MODEL_TYPE_CONVERT", "Only dictionaries may be used in a ModelType")
        if "array" in types:
            return (path, "LIST_TYPE_CONVERT", "Only iterables may be used in a ListType")
        if "integer" in types or "number" in types:
            return (path, "NUMBER_TYPE_COERCE", f'Value "{inst}" is not int.')
        if "boolean" in types:
            return (path, "BOOLEAN_TYPE_CONVERT", f'Value "{inst}" is not boolean.')
        return (path, "BASE_TYPE_INVALID", f"Value must be of type {'/'.join(types)}.")
    if v in ("oneOf", "anyOf"):
        return (path, "UNION_TYPE_CHOICES", "Value does not match any of the allowed types.")
    return (path, "BASE_TYPE_INVALID", e.message)


# ---------------------------------------------------------------------------
# 2. The documented limits the schema lacks
# ---------------------------------------------------------------------------


def _len(v: Any) -> int:
    return len(v) if isinstance(v, str | list | dict) else 0


def embed_problems(embeds: list, base: list[str | int]) -> list[Problem]:
    """An embed's characters (title, description, field names and values, footer, author name)
    count against 6,000 for all the message's embeds together."""
    total = 0
    out: list[Problem] = []
    for e in embeds:
        if not isinstance(e, dict):
            continue
        total += _len(e.get("title")) + _len(e.get("description"))
        for f in e.get("fields") or []:
            if isinstance(f, dict):
                total += _len(f.get("name")) + _len(f.get("value"))
        for key, sub in (("footer", "text"), ("author", "name")):
            node = e.get(key)
            if isinstance(node, dict):
                total += _len(node.get(sub))
    if total > 6000:
        out.append((base, "BASE_TYPE_MAX_LENGTH", "Embed size exceeds maximum size of 6000"))
    return out


def _select_problems(c: dict, path: list[str | int]) -> list[Problem]:
    out: list[Problem] = []
    opts = c.get("options")
    if c.get("type") == S.C_STRING_SELECT and isinstance(opts, list):
        seen: set[Any] = set()
        for j, o in enumerate(opts):
            if not isinstance(o, dict):
                continue
            value = o.get("value")
            if value in seen:
                out.append(
                    (
                        [*path, "options", j],
                        "SELECT_COMPONENT_OPTION_VALUE_DUPLICATED",
                        "The specified option value is already used",
                    )
                )
            seen.add(value)
    lo, hi = c.get("min_values"), c.get("max_values")
    lo = 1 if lo is None else lo
    hi = 1 if hi is None else hi
    if isinstance(lo, int) and isinstance(hi, int):
        if lo > hi:
            out.append(
                ([*path, "min_values"], "BASE_TYPE_INVALID", "min_values must be less than or equal to max_values.")
            )
        if c.get("type") == S.C_STRING_SELECT and isinstance(opts, list) and hi > len(opts):
            out.append(
                (
                    [*path, "max_values"],
                    "BASE_TYPE_MAX",
                    f"Must be less than or equal to the number of options ({len(opts)}).",
                )
            )
        if isinstance(opts, list):
            defaults = sum(1 for o in opts if isinstance(o, dict) and o.get("default"))
            if defaults and not lo <= defaults <= hi:
                out.append(
                    (
                        [*path, "options"],
                        "BASE_TYPE_INVALID",
                        f"The number of default options must be between {lo} and {hi}.",
                    )
                )
    return out


def _button_problems(c: dict, path: list[str | int]) -> list[Problem]:
    style = c.get("style")
    if style == 5:  # link
        out: list[Problem] = []
        if not c.get("url"):
            out.append(([*path, "url"], "BASE_TYPE_REQUIRED", "This field is required"))
        if c.get("custom_id") is not None:
            out.append(([*path, "custom_id"], "BASE_TYPE_INVALID", "A link button cannot have a custom_id."))
        return out
    if style == 6:  # premium: sku_id, neither custom_id nor url
        return [] if c.get("sku_id") else [([*path, "sku_id"], "BASE_TYPE_REQUIRED", "This field is required")]
    out = []
    if not c.get("custom_id"):
        out.append(([*path, "custom_id"], "BASE_TYPE_REQUIRED", "This field is required"))
    if c.get("url") is not None:
        out.append(([*path, "url"], "BASE_TYPE_INVALID", "Only link buttons can have a url."))
    return out


def _walk(components: list, path: list[str | int]) -> Iterator[tuple[dict, list[str | int]]]:
    for i, c in enumerate(components):
        if not isinstance(c, dict):
            continue
        p = [*path, i]
        yield c, p
        if isinstance(c.get("components"), list):
            yield from _walk(c["components"], [*p, "components"])
        for key in ("component", "accessory"):
            if isinstance(c.get(key), dict):
                yield c[key], [*p, key]
                if isinstance(c[key].get("components"), list):
                    yield from _walk(c[key]["components"], [*p, key, "components"])


def component_problems(components: list, base: list[str | int], *, v2: bool) -> list[Problem]:
    """Rows, widths, buttons, selects and custom_ids of a message's components."""
    out: list[Problem] = []
    if not v2:
        if len(components) > 5:
            out.append((base, "BASE_TYPE_MAX_LENGTH", "Must be 5 or fewer in length."))
        for i, row in enumerate(components):
            if isinstance(row, dict) and row.get("type") != S.C_ACTION_ROW:
                out.append(
                    (
                        [*base, i, "type"],
                        "BASE_TYPE_INVALID",
                        "Only action rows are allowed at the top level without IS_COMPONENTS_V2.",
                    )
                )
    seen: set[str] = set()
    for c, p in _walk(components, base):
        t = c.get("type")
        if t == S.C_ACTION_ROW:
            children = [x for x in c.get("components") or [] if isinstance(x, dict)]
            if any(x.get("type") in S.SELECT_TYPES for x in children) and len(children) > 1:
                out.append(
                    (
                        [*p, "components", 1],
                        "COMPONENT_LAYOUT_WIDTH_EXCEEDED",
                        "The specified component exceeds the maximum width",
                    )
                )
        elif t == S.C_BUTTON:
            out += _button_problems(c, p)
        elif t in S.SELECT_TYPES:
            out += _select_problems(c, p)
        out += _custom_id_repeated(c, p, seen)
    return out


def allowed_mentions_problems(am: Any, base: list[str | int]) -> list[Problem]:
    """``parse: ["users"]`` and a ``users`` list (or roles and ``roles``) exclude each other."""
    if not isinstance(am, dict):
        return []
    out: list[Problem] = []
    parse = am.get("parse") or []
    for kind in ("users", "roles"):
        if kind in parse and am.get(kind):
            out.append(
                ([*base, "parse"], "BASE_TYPE_INVALID", f'parse:["{kind}"] and {kind}: [ids] are mutually exclusive.')
            )
    return out


def validate_message(
    payload: dict, files: list, *, creating: bool, interaction: bool = False, base: Sequence[str | int] = ()
) -> None:
    """Discord's documented limits of a message body (content, embeds, components, mentions,
    flags, files) beyond its schema. ``interaction``: an interaction answer or follow-up (the only
    messages that can be ephemeral); ``base``: where the message sits in the body (``["data"]`` in a
    callback). Raises ``FormError`` (or ``ApiError`` 50006 for an empty message)."""
    b = list(base)
    out: list[Problem] = []
    content = payload.get("content")
    if isinstance(content, str) and len(content) > 2000:
        out.append(([*b, "content"], "BASE_TYPE_MAX_LENGTH", "Must be 2000 or fewer in length."))
    embeds = payload.get("embeds")
    if embeds is None and payload.get("embed"):
        embeds = [payload["embed"]]
    embeds = embeds if isinstance(embeds, list) else []
    out += embed_problems(embeds, [*b, "embeds"])
    flags = payload.get("flags")
    flags = flags if isinstance(flags, int) else 0
    comps = payload.get("components")
    comps = comps if isinstance(comps, list) else []
    out += component_problems(comps, [*b, "components"], v2=bool(flags & S.FLAG_IS_COMPONENTS_V2))
    out += allowed_mentions_problems(payload.get("allowed_mentions"), [*b, "allowed_mentions"])
    if flags & S.FLAG_EPHEMERAL and not interaction:
        out.append(([*b, "flags"], "MESSAGE_FLAGS_INVALID", "EPHEMERAL can only be set on interaction responses."))
    if len(files) > MAX_FILES:
        out.append(([*b, "attachments"], "BASE_TYPE_MAX_LENGTH", f"Must be {MAX_FILES} or fewer in length."))
    atts = payload.get("attachments")
    if isinstance(atts, list):
        uploaded = {idx for idx, *_ in files}
        for i, a in enumerate(atts):
            aid = a.get("id") if isinstance(a, dict) else None
            if isinstance(aid, int | str) and str(aid).isdigit() and int(aid) < MAX_FILES and files:
                if int(aid) not in uploaded:
                    out.append(
                        ([*b, "attachments", i, "id"], "ATTACHMENT_NOT_FOUND", f"No file was uploaded as files[{aid}].")
                    )
    if out:
        raise FormError(out)
    if creating and not (
        content or embeds or comps or files or atts or payload.get("sticker_ids") or payload.get("poll")
    ):
        raise ApiError(400, 50006, "Cannot send an empty message")


def file_size_error(files: list) -> bool:
    """Whether an upload is over Discord's per-file limit (answered 413 / 40005, not 400)."""
    return any(len(data) > MAX_FILE_SIZE for _, _, data, _ in files)


def attachment_ref_problems(payload: dict, filenames: Iterable[str], base: Sequence[str | int] = ()) -> list[Problem]:
    """``attachment://name`` in an embed must name an attachment of the message itself."""
    names = set(filenames)
    out: list[Problem] = []
    for i, e in enumerate(payload.get("embeds") or []):
        if not isinstance(e, dict):
            continue
        for key in ("image", "thumbnail", "author", "footer"):
            node = e.get(key)
            urlkey = "url" if key in ("image", "thumbnail") else "icon_url"
            url = node.get(urlkey) if isinstance(node, dict) else None
            if isinstance(url, str) and url.startswith("attachment://") and url[len("attachment://") :] not in names:
                out.append(
                    (
                        [*base, "embeds", i, key, urlkey],
                        "ATTACHMENT_NOT_FOUND",
                        f"No attachment named {url[13:]!r} in this message.",
                    )
                )
    return out


def validate_modal(data: dict, *, deprecations: list[str] | None = None) -> None:
    """A modal (callback type 9): 1–5 top-level components; a Label (type 18) wraps one text input
    or select; a text input alone in an Action Row is Discord's deprecated layout, still in its
    spec, so it is accepted and noted in ``deprecations``."""
    out: list[Problem] = []
    comps = data.get("components")
    comps = comps if isinstance(comps, list) else []
    base: list[str | int] = ["data", "components"]
    if len(comps) > MAX_MODAL_COMPONENTS:
        out.append((base, "BASE_TYPE_MAX_LENGTH", f"Must be {MAX_MODAL_COMPONENTS} or fewer in length."))
    seen: set[str] = set()
    for i, top in enumerate(comps):
        if not isinstance(top, dict):
            continue
        if top.get("type") == S.C_ACTION_ROW:
            inner = [c for c in top.get("components") or [] if isinstance(c, dict)]
            if len(inner) > 1:
                out.append(
                    (
                        [*base, i, "components", 1],
                        "COMPONENT_LAYOUT_WIDTH_EXCEEDED",
                        "The specified component exceeds the maximum width",
                    )
                )
            if deprecations is not None and any(c.get("type") == S.C_TEXT_INPUT for c in inner):
                deprecations.append(f"modal {data.get('custom_id')!r}: a text input in an Action Row (use a Label)")
    for c, p in _walk(comps, base):
        t = c.get("type")
        if t == S.C_TEXT_INPUT:
            lo, hi, value = c.get("min_length"), c.get("max_length"), c.get("value")
            lo = 0 if lo is None else lo
            hi = 4000 if hi is None else hi
            if isinstance(lo, int) and isinstance(hi, int):
                if lo > hi:
                    out.append(
                        (
                            [*p, "min_length"],
                            "BASE_TYPE_INVALID",
                            "min_length must be less than or equal to max_length.",
                        )
                    )
                if isinstance(value, str) and len(value) > hi:
                    out.append(([*p, "value"], "BASE_TYPE_MAX_LENGTH", f"Must be {hi} or fewer in length."))
        elif t in S.SELECT_TYPES:
            out += _select_problems(c, p)
        out += _custom_id_repeated(c, p, seen)
    if out:
        raise FormError(out)


# Interaction types: 1 ping, 2 application command, 3 message component, 4 autocomplete, 5 modal submit.
# Callback types: 1 pong, 4 message, 5 deferred message, 6 deferred update, 7 update, 8 autocomplete
# result, 9 modal, 12 launch activity.
_CALLBACKS_FOR: dict[int, frozenset[int]] = {
    1: frozenset({1}),
    2: frozenset({4, 5, 9, 12}),
    3: frozenset({4, 5, 6, 7, 9, 12}),
    4: frozenset({8}),
    5: frozenset({4, 5, 6, 7}),  # 6 and 7 only for a modal opened from a component
}


def validate_callback_type(interaction_type: int, response_type: int, *, from_component: bool) -> None:
    """The callback type Discord allows for the interaction's type."""
    allowed = _CALLBACKS_FOR.get(interaction_type, frozenset())
    if interaction_type == 5 and not from_component:
        allowed = allowed - {6, 7}
    if response_type not in allowed:
        raise FormError(
            [
                (
                    ["type"],
                    "INTERACTION_CALLBACK_TYPE_INVALID",
                    f"Callback type {response_type} is not valid for an interaction of type {interaction_type}.",
                )
            ]
        )


@functools.cache
def locales() -> frozenset[str]:
    """Discord's locale codes, from the spec (AvailableLocalesEnum)."""
    enum = spec()["components"]["schemas"]["AvailableLocalesEnum"]  # a oneOf of consts, made an enum
    return frozenset(enum["enum"])


def _localisation_problems(d: Any, path: list[str | int], *, name: bool, lowercase: bool) -> list[Problem]:
    out: list[Problem] = []
    if not isinstance(d, dict):
        return out
    for loc, text in d.items():
        p = [*path, loc]
        if loc not in locales():
            out.append((p, "LOCALE_INVALID", f"Invalid locale {loc!r}."))
        if not isinstance(text, str):
            continue
        if name and (not NAME_RE.match(text) or (lowercase and text != text.lower())):
            out.append((p, "APPLICATION_COMMAND_INVALID_NAME", f"Command name is invalid: {text!r}"))
        if not name and not 1 <= len(text) <= 100:
            out.append((p, "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 100 in length."))
    return out


def _localised_name_repeats(o: dict, path: list[str | int], seen: dict[str, dict[str, bool]]) -> list[Problem]:
    """An option's name in each locale (its localisation, else its name) must differ from its siblings' there
    (two plain names alike are the caller's APPLICATION_COMMAND_OPTION_NAME_ALREADY_EXISTS already)."""
    localisations = o.get("name_localizations")
    if not isinstance(localisations, dict):
        localisations = {}
    out: list[Problem] = []
    for loc in locales():
        text, localised = localisations.get(loc, o.get("name")), loc in localisations
        earlier = seen.setdefault(loc, {})
        if text in earlier and (localised or earlier[text]):
            out.append(
                (
                    [*path, loc],
                    "APPLICATION_COMMAND_OPTION_NAME_ALREADY_EXISTS",
                    f"Option name {text!r} is already used",
                )
            )
        earlier[str(text)] = localised or earlier.get(str(text), False)
    return out


def _option_problems(options: list, path: list[str | int], depth: int) -> list[Problem]:
    out: list[Problem] = []
    if len(options) > 25:
        out.append((path, "BASE_TYPE_MAX_LENGTH", "Must be 25 or fewer in length."))
    names: set[str] = set()
    localised_names: dict[str, dict[str, bool]] = {}
    optional_seen = False
    for i, o in enumerate(options):
        if not isinstance(o, dict):
            continue
        p = [*path, i]
        n = o.get("name", "")
        if not isinstance(n, str) or not NAME_RE.match(n) or n != n.lower():
            out.append(([*p, "name"], "APPLICATION_COMMAND_INVALID_NAME", f"Command name is invalid: {n!r}"))
        if n in names:
            out.append(
                ([*p, "name"], "APPLICATION_COMMAND_OPTION_NAME_ALREADY_EXISTS", f"Option name {n!r} is already used")
            )
        names.add(n)
        out += _localised_name_repeats(o, [*p, "name_localizations"], localised_names)
        if not 1 <= _len(o.get("description")) <= 100:
            out.append(([*p, "description"], "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 100 in length."))
        out += _localisation_problems(
            o.get("name_localizations"), [*p, "name_localizations"], name=True, lowercase=True
        )
        out += _localisation_problems(
            o.get("description_localizations"), [*p, "description_localizations"], name=False, lowercase=False
        )
        t = o.get("type")
        if t in (1, 2):
            if t == 2 and depth > 0 or t == 1 and depth > 1:
                out.append(
                    (
                        [*p, "type"],
                        "APPLICATION_COMMAND_OPTIONS_TYPE_INVALID",
                        "Subcommands cannot be nested this deep.",
                    )
                )
            out += _option_problems(o.get("options") or [], [*p, "options"], depth + 1)
            continue
        if o.get("required"):
            if optional_seen:
                out.append(
                    (
                        [*p, "required"],
                        "APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID",
                        "Required options must be placed before non-required options",
                    )
                )
        else:
            optional_seen = True
        choices = o.get("choices") or []
        if len(choices) > 25:
            out.append(([*p, "choices"], "BASE_TYPE_MAX_LENGTH", "Must be 25 or fewer in length."))
        for j, ch in enumerate(choices):
            if isinstance(ch, dict):
                if not 1 <= _len(ch.get("name")) <= 100:
                    out.append(
                        ([*p, "choices", j, "name"], "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 100 in length.")
                    )
                out += _localisation_problems(
                    ch.get("name_localizations"), [*p, "choices", j, "name_localizations"], name=False, lowercase=False
                )
    return out


def validate_commands(cmds: list[dict]) -> None:
    """Application commands of one scope (a bulk PUT, or one POST): names, descriptions, options,
    choices, localisations and the 100 chat input commands a scope."""
    out: list[Problem] = []
    chat = [c for c in cmds if isinstance(c, dict) and int(c.get("type") or 1) == COMMAND_TYPES_CHAT_INPUT]
    if len(chat) > MAX_COMMANDS_A_SCOPE:
        out.append(([], "BASE_TYPE_MAX_LENGTH", f"Must be {MAX_COMMANDS_A_SCOPE} or fewer in length."))
    seen: set[tuple[int, str]] = set()
    for i, c in enumerate(cmds):
        if not isinstance(c, dict):
            continue
        ctype = int(c.get("type") or 1)
        chat_input = ctype == COMMAND_TYPES_CHAT_INPUT
        n = c.get("name", "")
        if not isinstance(n, str) or (chat_input and (not NAME_RE.match(n) or n != n.lower())):
            out.append(([i, "name"], "APPLICATION_COMMAND_INVALID_NAME", f"Command name is invalid: {n!r}"))
        if (ctype, str(n)) in seen:
            out.append(
                ([i, "name"], "APPLICATION_COMMANDS_DUPLICATE_NAME", f"Application command names must be unique: {n!r}")
            )
        seen.add((ctype, str(n)))
        if chat_input and not 1 <= _len(c.get("description")) <= 100:
            out.append(([i, "description"], "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 100 in length."))
        out += _localisation_problems(
            c.get("name_localizations"), [i, "name_localizations"], name=True, lowercase=chat_input
        )
        out += _localisation_problems(
            c.get("description_localizations"), [i, "description_localizations"], name=False, lowercase=False
        )
        out += _option_problems(c.get("options") or [], [i, "options"], 0)
    if out:
        raise FormError(out)


def _custom_id_repeated(c: dict, p: list, seen: set[str]) -> list:
    """COMPONENT_CUSTOM_ID_DUPLICATED when ``c``'s custom_id was used before in the message (``seen``)."""
    cid = c.get("custom_id")
    if not isinstance(cid, str):
        return []
    if cid not in seen:
        seen.add(cid)
        return []
    return [([*p, "custom_id"], "COMPONENT_CUSTOM_ID_DUPLICATED", "Component custom id was already specified")]
