"""Discord's rules for a message's components, checked on the payload as it goes out (the JSON
discord.py sends): what real Discord answers with 400 Invalid Form Body, a test here fails on.

Used by the unit tests (on ``build_view(...).to_components()``) and by the e2e tests (on every
message the local Discord received), so a violation shows wherever it is made."""

from __future__ import annotations

from collections.abc import Iterable

ACTION_ROW, BUTTON, STRING_SELECT = 1, 2, 3
SELECTS = (3, 5, 6, 7, 8)


def check_components(rows: Iterable[dict], where: str = "message") -> None:
    """Action rows of buttons or one select: at most 5 rows, 1–5 buttons or one select a row, custom
    ids 1–100 characters and unique in the message, labels ≤ 80, a string select's 1–25 options with
    unique values (value and label ≤ 100, description ≤ 100), placeholder ≤ 150, 0 ≤ min ≤ max ≤ 25
    (and ≤ the options), defaults no more than max."""
    rows = list(rows)
    assert len(rows) <= 5, f"{where}: {len(rows)} action rows"
    ids: list[str] = []
    for row in rows:
        assert row.get("type") == ACTION_ROW, f"{where}: a top-level component of type {row.get('type')}"
        items = row.get("components") or []
        kinds = {c.get("type") for c in items}
        if kinds & set(SELECTS):
            assert len(items) == 1, f"{where}: a select shares its row with {len(items) - 1} other components"
        else:
            assert kinds == {BUTTON} and 1 <= len(items) <= 5, f"{where}: a row of {len(items)} components {kinds}"
        for item in items:
            if "custom_id" in item:
                cid = item["custom_id"]
                assert 1 <= len(cid) <= 100, f"{where}: custom_id of {len(cid)} characters"
                ids.append(cid)
            if item["type"] == BUTTON:
                assert item.get("label") or item.get("emoji"), f"{where}: a button with neither label nor emoji"
                assert len(item.get("label") or "") <= 80, f"{where}: button label {item.get('label')!r}"
            if item["type"] == STRING_SELECT:
                check_select(item, where)
    assert len(ids) == len(set(ids)), f"{where}: repeated custom_id {sorted(i for i in ids if ids.count(i) > 1)}"


def check_select(select: dict, where: str = "message") -> None:
    options = select.get("options") or []
    name = f"{where}: select {select.get('custom_id')!r}"
    assert 1 <= len(options) <= 25, f"{name}: {len(options)} options"
    values = [o["value"] for o in options]
    assert len(values) == len(set(values)), (
        f"{name}: repeated values {sorted(v for v in values if values.count(v) > 1)}"
    )
    for option in options:
        assert 1 <= len(option["label"]) <= 100 and 1 <= len(option["value"]) <= 100, f"{name}: option {option!r}"
        assert len(option.get("description") or "") <= 100, f"{name}: option {option!r}"
    assert len(select.get("placeholder") or "") <= 150, f"{name}: placeholder"
    low, high = select.get("min_values", 1), select.get("max_values", 1)
    assert 0 <= low <= high <= min(25, len(options)), f"{name}: min {low}, max {high}, {len(options)} options"
    defaults = [o for o in options if o.get("default")]
    assert len(defaults) <= high, f"{name}: {len(defaults)} defaults for at most {high} choices"


LABEL, TEXT_INPUT = 18, 4
MODAL = 9  # an interaction callback's type that opens a form
MESSAGE_BODIES = (
    "POST /channels/{channel_id}/messages",
    "PATCH /channels/{channel_id}/messages/{message_id}",
    "POST /webhooks/{webhook_id}/{webhook_token}",
    "PATCH /webhooks/{webhook_id}/{webhook_token}/messages/{message_id}",
)
CALLBACK = "POST /interactions/{interaction_id}/{interaction_token}/callback"


def check_modal(modal: dict, where: str = "modal") -> None:
    """Discord's modal layout: a title ≤ 45, 1–5 Labels (type 18) each around one component, a
    Label's text ≤ 45; a text input's lengths 0 ≤ min ≤ max ≤ 4,000."""
    assert 1 <= len(modal.get("title") or "") <= 45, f"{where}: title {modal.get('title')!r}"
    assert 1 <= len(modal.get("custom_id") or "") <= 100, f"{where}: custom_id"
    labels = modal.get("components") or []
    assert 1 <= len(labels) <= 5, f"{where}: {len(labels)} components"
    for label in labels:
        assert label.get("type") == LABEL, f"{where}: a top-level component of type {label.get('type')} (not a Label)"
        assert 1 <= len(label.get("label") or "") <= 45, f"{where}: label {label.get('label')!r}"
        inner = label.get("component") or {}
        if inner.get("type") == TEXT_INPUT:
            low, high = inner.get("min_length", 0), inner.get("max_length", 4000)
            assert 0 <= low <= high <= 4000, f"{where}: lengths {low}–{high}"
            assert not inner.get("label"), f"{where}: a text input inside a Label carries no label of its own"


def check_embeds(embeds: list[dict], where: str) -> None:
    """Embeds Discord shows as meant: the colour under its wire key (``color``)."""
    for embed in embeds or []:
        assert "colour" not in embed, f"{where}: an embed with a 'colour' key Discord does not read"


def check_requests(calls) -> dict[str, int]:
    """Every message body and interaction answer the bot sent (the local Discord's request log,
    ``dh.rest_calls()``) within Discord's component and modal rules; how many of each were seen."""
    seen = {"messages": 0, "selects": 0, "modals": 0}
    for call in calls:
        body = call.json if isinstance(call.json, dict) else None
        if body is None:
            continue
        where = f"{call.method} {call.path}"
        if call.route == CALLBACK:
            if body.get("type") == MODAL:
                check_modal(body.get("data") or {}, where)
                seen["modals"] += 1
                continue
            body = body.get("data") or {}
        elif call.route not in MESSAGE_BODIES:
            continue
        if body.get("components"):
            check_components(body["components"], where)
            seen["selects"] += sum(
                1 for row in body["components"] for c in row.get("components") or [] if c.get("type") == STRING_SELECT
            )
        check_embeds(body.get("embeds") or [], where)
        seen["messages"] += 1
    return seen
