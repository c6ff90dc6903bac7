"""discord.py components: persistent dynamic items, the amount modal, views from specs.

All buttons and selects are :class:`discord.ui.DynamicItem` s matching the ids of
:mod:`bot.messages.buttonids`; they are registered once at start-up (``bot.add_dynamic_items``) and
therefore keep working after a restart. Their callbacks hand the id over to
``interaction.client.controller`` (the client is our bot, which declares its services: the
:class:`TableClient` it is), which decodes it.
"""

from __future__ import annotations

import io
import re
from collections.abc import Mapping, Sequence
from typing import Any, Protocol, cast

import discord

from bot.messages.buttonids import (
    BUTTON_TEMPLATE,
    FORM_PREFIX,
    PREFIX,
    SELECT_TEMPLATE,
    AmountButton,
    decode_form,
    encode_form,
)
from bot.messages.components import ButtonSpec, Component, SelectSpec
from bot.messages.outgoing import Outgoing

STYLES = {
    "primary": discord.ButtonStyle.primary,
    "secondary": discord.ButtonStyle.secondary,
    "success": discord.ButtonStyle.success,
    "danger": discord.ButtonStyle.danger,
}


class Answerer(Protocol):
    """What answers the items' interactions (bot.discordio.controller.Controller): declared here,
    so that the items need not import the controller that builds them."""

    def take_component(self, interaction: discord.Interaction, custom_id: str, values: list[str]) -> None: ...

    async def on_amount(self, interaction: discord.Interaction, button: AmountButton, raw: str) -> None: ...

    async def refuse_unreadable(self, interaction: discord.Interaction, custom_id: str, kind: str) -> None: ...


class TableClient(Protocol):
    """The bot as the items see it (bot.discordio.client.TripoleyBot): its controller."""

    @property
    def controller(self) -> Answerer: ...


def controller_of(interaction: discord.Interaction) -> Answerer:
    """The controller of the bot that received the interaction. discord.py hands every item an
    ``Interaction[Client]``; the client is always our bot, whose declared services make the
    attribute a checked one."""
    return cast(TableClient, interaction.client).controller


class TableButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=BUTTON_TEMPLATE):
    def __init__(self, button: discord.ui.Button[Any]) -> None:
        super().__init__(button)
        self.button_id = button.custom_id or ""

    @classmethod
    def from_spec(cls, spec: ButtonSpec) -> TableButton:
        return cls(
            discord.ui.Button(
                custom_id=spec.custom_id,
                label=spec.label,
                style=STYLES.get(spec.style, discord.ButtonStyle.secondary),
                row=spec.row,
                emoji=spec.emoji,
            )
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> TableButton:
        assert isinstance(item, discord.ui.Button)  # the template is a button's
        return cls(discord.ui.Button(custom_id=item.custom_id, label=item.label, style=item.style, emoji=item.emoji))

    async def callback(self, interaction: discord.Interaction) -> None:
        controller_of(interaction).take_component(interaction, self.button_id, [])


class TableSelect(discord.ui.DynamicItem[discord.ui.Select[Any]], template=SELECT_TEMPLATE):
    def __init__(self, select: discord.ui.Select[Any]) -> None:
        super().__init__(select)
        self.select_id = select.custom_id or ""

    @classmethod
    def from_spec(cls, spec: SelectSpec) -> TableSelect:
        descriptions = spec.descriptions or (None,) * len(spec.options)
        options = [
            discord.SelectOption(label=label, value=value, default=value in spec.defaults, description=text)
            for (label, value), text in zip(spec.options, descriptions)
        ]
        return cls(
            discord.ui.Select(
                custom_id=spec.custom_id,
                placeholder=spec.placeholder,
                options=options,
                min_values=spec.min_values,
                max_values=spec.max_values,
                row=spec.row,
            )
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> TableSelect:
        assert isinstance(item, discord.ui.Select)  # the template is a select's
        return cls(
            discord.ui.Select(
                custom_id=item.custom_id,
                placeholder=item.placeholder,
                options=item.options,
                min_values=item.min_values,
                max_values=item.max_values,
            )
        )

    async def callback(self, interaction: discord.Interaction) -> None:
        values = list(self.item.values)
        controller_of(interaction).take_component(interaction, self.select_id, values)


class TableView(discord.ui.View):
    """A view of our dynamic items, which never times out. discord.py gives the view of an
    ephemeral message a 15-minute timeout; a view that times out is taken out of the view store
    with the patterns of its dynamic items, so every button of every table went unanswered
    until the bot next sent a message with buttons; and each such view was kept, with its timer,
    for those 15 minutes (thousands at a busy bot)."""

    @property
    def timeout(self) -> float | None:
        return None

    @timeout.setter
    def timeout(self, value: float | None) -> None:
        """Ignored: see the class."""


def build_view(components: Sequence[Component]) -> discord.ui.View:
    view = TableView(timeout=None)
    for spec in components:
        if isinstance(spec, SelectSpec):
            if not spec.options:
                continue
            view.add_item(TableSelect.from_spec(spec))
        elif spec.url is not None:  # a link: opens a page, nothing comes back to the bot
            view.add_item(discord.ui.Button(label=spec.label, url=spec.url, row=spec.row, emoji=spec.emoji))
        else:
            view.add_item(TableButton.from_spec(spec))
    return view


def pings_only(user_ids: Sequence[int]) -> discord.AllowedMentions:
    """Allowed mentions that notify exactly these users: never @everyone, @here or a role."""
    return discord.AllowedMentions(
        everyone=False, roles=False, replied_user=False, users=[discord.Object(id=uid) for uid in user_ids]
    )


def message_kwargs(out: Outgoing, *, edit: bool = False) -> dict[str, Any]:
    """Keyword arguments for send()/edit() from an Outgoing message."""
    kwargs: dict[str, Any] = {
        "content": out.clipped(),
        "view": build_view(out.components) if out.components else None,
        "allowed_mentions": pings_only(out.pings),
    }
    if out.embeds:
        kwargs["embeds"] = [discord.Embed.from_dict(e) for e in out.embeds]
    files = []
    if out.image:
        files.append(
            discord.File(io.BytesIO(out.image), filename=out.image_name, description=(out.alt or "")[:1000] or None)
        )
    if edit and not (out.keep_image and not files):
        kwargs["attachments"] = files  # without the key, an edit keeps the picture the message has
    elif files:
        kwargs["files"] = files
    if not edit and kwargs["view"] is None:
        del kwargs["view"]
    return kwargs


LABEL_TEXT = 45  # Discord's limit of a modal Label's text


class AmountModal(discord.ui.Modal):
    """Asks for a bet/raise/bid amount; validated against the current bounds."""

    def __init__(self, button: AmountButton, low: int, high: int, extra: str = "") -> None:
        title = {"bet": "Bet", "raise": "Raise", "bid": "Bid", "suit_bid": "Bid for the suit"}.get(
            button.verb, "Corner bet"
        )
        super().__init__(title=title, timeout=600, custom_id=encode_form(button))
        self.button = button
        self.low, self.high = low, high
        # Discord's modal layout: the text input inside a Label (type 18), which carries its words
        # (an input of its own in an Action Row is the deprecated layout).
        self.amount: discord.ui.TextInput[AmountModal] = discord.ui.TextInput(
            custom_id="amount",
            placeholder=str(low),
            min_length=1,
            max_length=6,
            required=True,
        )
        text = f"Amount ({low}–{high})" + (f" {extra}" if extra else "")
        self.amount_label: discord.ui.Label[AmountModal] = discord.ui.Label(
            text=text[:LABEL_TEXT], component=self.amount
        )
        self.add_item(self.amount_label)

    async def on_submit(self, interaction: discord.Interaction) -> None:
        # Submissions are handled by ``handle_modal_submit`` (from the bot's on_interaction), which
        # also works for a modal opened before a restart. Nothing to do here.
        return None


def modal_values(data: Mapping[str, Any]) -> dict[str, str]:
    """custom_id → value of every text input in a modal submission (action rows or labels)."""
    out: dict[str, str] = {}

    def walk(components: Sequence[Mapping[str, Any]] | None) -> None:
        for c in components or []:
            if "custom_id" in c and "value" in c:
                out[c["custom_id"]] = c["value"]
            walk(c.get("components"))
            if isinstance(c.get("component"), dict):
                walk([c["component"]])

    walk(data.get("components"))
    return out


async def handle_modal_submit(interaction: discord.Interaction) -> bool:
    """Route a Tripoley amount modal to the controller (one whose id can't be read is answered as a
    form no longer in use); False if it isn't ours."""
    if interaction.type != discord.InteractionType.modal_submit:
        return False
    data: Mapping[str, Any] = interaction.data or {}
    custom_id = str(data.get("custom_id", ""))
    button = decode_form(custom_id)
    if button is None:
        if not custom_id.startswith(FORM_PREFIX):
            return False
        await controller_of(interaction).refuse_unreadable(interaction, custom_id, "form")
        return True
    raw = modal_values(data).get("amount", "")
    await controller_of(interaction).on_amount(interaction, button, raw)
    return True


# The component types the dynamic items take, with their templates (a string select is type 3).
ROUTED = {discord.ComponentType.button.value: BUTTON_TEMPLATE, discord.ComponentType.select.value: SELECT_TEMPLATE}


async def handle_unrouted_component(interaction: discord.Interaction) -> bool:
    """A click on one of our components that no dynamic item takes (its id fits neither template,
    e.g. ``tripoley:-1:0:join``, from another version or forged): answered as no longer in use,
    never silently dropped; False if it is routed or isn't ours."""
    if interaction.type != discord.InteractionType.component:
        return False
    data: Mapping[str, Any] = interaction.data or {}
    custom_id = str(data.get("custom_id", ""))
    if not custom_id.startswith(f"{PREFIX}:"):
        return False
    template = ROUTED.get(int(data.get("component_type") or 0))
    if interaction.message is not None and template is not None and re.fullmatch(template, custom_id):
        return False  # a dynamic item answers it
    kind = "button" if data.get("component_type") == discord.ComponentType.button.value else "menu"
    await controller_of(interaction).refuse_unreadable(interaction, custom_id, kind)
    return True
