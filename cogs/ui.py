"""Buttons and selects of the game: custom ids, persistent ``DynamicItem``s and view builders.

Custom id scheme (at most 100 characters, so it fits Discord's limit)::

    kap:{table_id}:{version}:{verb}[:{arg}]

* ``table_id`` is the game id (12 hex characters), so a click finds its table after a restart;
* ``version`` is the table's state version the component was drawn for, or ``-`` for components
  that stay valid whatever happens (lobby buttons, "My hand", "Rules", "Rematch"; "Resign"
  carries its own expiry in ``arg``, see :meth:`cogs.desk.Desk.resign`). A versioned
  click is passed to the service, which refuses it as out of date if the table moved on: a stale
  or doubled click never acts twice;
* ``verb`` is the action (``join`` … ``declare``), ``arg`` its tile when it has one (``6-5``);
  Tsung Shap's action buttons use the verb ``play`` with the action's notation, words joined
  by ``-``, as ``arg`` (``kap:…:play:capture-pair-left``).

A game's moves are drawn by the game (its render facet's
:meth:`~bot.render.family.Surface.buttons`, plain ``ButtonSpec``/``SelectSpec`` values) and
turned into components here (:func:`moves_view`); a click on one is read back as notation by
one rule whatever the game (:func:`notation_of`), which the table service reads in the game's
notation.

Items are :class:`discord.ui.DynamicItem`s matched by regular expression, registered once with
``bot.add_dynamic_items``; they hold no state, so clicks keep working after a restart. Their
callbacks hand the parsed id to the :class:`ComponentHandler` registered for the bot.
"""

from __future__ import annotations

import re
import weakref
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

import discord

from bot.ai.base import LEVEL_WORDS
from bot.locale import N_, normalize
from bot.locale import t as tr
from bot.locale.levels import level_name
from bot.render.family import ButtonSpec, SelectSpec, render_of

__all__ = [
    "BUTTON_VERBS",
    "SELECT_VERBS",
    "ComponentHandler",
    "CustomId",
    "KapButton",
    "KapSelect",
    "ai_level_view",
    "hand_view",
    "handler_for",
    "lobby_view",
    "move_items",
    "moves_view",
    "notation_of",
    "parse_custom_id",
    "play_arg",
    "register_handler",
    "resign_view",
    "table_view",
]

PREFIX = "kap"
VERSIONLESS = "-"
BUTTON_VERBS = (
    "join",
    "leave",
    "addai",
    "start",
    "cancel",
    "hand",
    "rules",
    "hint",
    "rematch",
    "resign",
    "keep",
    "draw",
    "take",
    "discard",
    "declare",
    "play",
)
SELECT_VERBS = ("choose-take", "choose-ai")

_ID = (
    r"kap:(?P<table>[0-9a-f]{1,32}):(?P<version>\d{1,12}|-)"
    r":(?P<verb>{verbs})(?::(?P<arg>[^:]{1,40}))?"
)
BUTTON_TEMPLATE = _ID.replace("{verbs}", "|".join(BUTTON_VERBS))
SELECT_TEMPLATE = _ID.replace("{verbs}", "|".join(SELECT_VERBS))


@dataclass(frozen=True, slots=True)
class CustomId:
    """A parsed component id."""

    table_id: str
    version: int | None
    verb: str
    arg: str | None = None

    def __str__(self) -> str:
        version = VERSIONLESS if self.version is None else str(self.version)
        tail = "" if self.arg is None else f":{self.arg}"
        return f"{PREFIX}:{self.table_id}:{version}:{self.verb}{tail}"


def parse_custom_id(custom_id: str) -> CustomId | None:
    """The parts of one of our custom ids, or None for anything else."""
    match = re.fullmatch(BUTTON_TEMPLATE, custom_id) or re.fullmatch(SELECT_TEMPLATE, custom_id)
    return None if match is None else _from_match(match)


def _from_match(match: re.Match[str]) -> CustomId:
    version = match["version"]
    return CustomId(
        table_id=match["table"],
        version=None if version == VERSIONLESS else int(version),
        verb=match["verb"],
        arg=match["arg"],
    )


class ComponentHandler(Protocol):
    """What a click is handed to (the table desk of the bot)."""

    async def on_component(
        self, interaction: discord.Interaction[Any], cid: CustomId, values: Sequence[str]
    ) -> None:
        """Handle a click (``values`` holds a select's choices)."""
        ...


_handlers: weakref.WeakKeyDictionary[discord.Client, ComponentHandler] = weakref.WeakKeyDictionary()


def register_handler(client: discord.Client, handler: ComponentHandler) -> None:
    """Route the clicks arriving at ``client`` to ``handler``."""
    _handlers[client] = handler


def handler_for(client: discord.Client) -> ComponentHandler | None:
    """The handler registered for ``client``, if any."""
    return _handlers.get(client)


async def _dispatch(
    interaction: discord.Interaction[Any], cid: CustomId, values: Sequence[str]
) -> None:
    handler = handler_for(interaction.client)
    if handler is None:
        # The cogs are not loaded (yet): say so rather than letting the click fail silently.
        await interaction.response.send_message(
            tr(
                normalize(interaction.locale),
                "The game is not available right now; try again in a moment.",
            ),
            ephemeral=True,
        )
        return
    await handler.on_component(interaction, cid, values)


class KapButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=BUTTON_TEMPLATE):
    """Any button of the game; what it does is in its custom id."""

    def __init__(
        self,
        cid: CustomId,
        *,
        label: str,
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
        row: int | None = None,
        emoji: str | None = None,
        disabled: bool = False,
    ) -> None:
        super().__init__(
            discord.ui.Button(
                label=label,
                style=style,
                custom_id=str(cid),
                row=row,
                emoji=emoji,
                disabled=disabled,
            )
        )
        self.cid = cid

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> KapButton:
        """Rebuild the button from a click (also after a restart)."""
        if not isinstance(item, discord.ui.Button):
            raise TypeError(f"{match.string} is not a button")
        return cls(_from_match(match), label=item.label or "", style=item.style, row=item.row)

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        """Hand the click to the desk."""
        await _dispatch(interaction, self.cid, ())


class KapSelect(discord.ui.DynamicItem[discord.ui.Select[Any]], template=SELECT_TEMPLATE):
    """A select of the game (a discard to take, an AI level)."""

    def __init__(
        self,
        cid: CustomId,
        *,
        options: Sequence[discord.SelectOption],
        placeholder: str,
        row: int | None = None,
    ) -> None:
        super().__init__(
            discord.ui.Select(
                custom_id=str(cid),
                options=list(options),
                placeholder=placeholder,
                min_values=1,
                max_values=1,
                row=row,
            )
        )
        self.cid = cid

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> KapSelect:
        """Rebuild the select from a choice (also after a restart)."""
        if not isinstance(item, discord.ui.Select):
            raise TypeError(f"{match.string} is not a select")
        return cls(
            _from_match(match),
            options=item.options,
            placeholder=item.placeholder or "",
            row=item.row,
        )

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        """Hand the choice to the desk."""
        await _dispatch(interaction, self.cid, list(self.item.values))


def _view(*items: discord.ui.Item[Any]) -> discord.ui.View:
    # timeout=None and only dynamic items: discord.py keeps no per-message state for it.
    view = discord.ui.View(timeout=None)
    for item in items:
        view.add_item(item)
    return view


def lobby_view(table_id: str, locale: str = "en", *, full: bool = False) -> discord.ui.View:
    """Join, Leave, Add AI, Start and Cancel (valid whatever the lobby's version); Join and
    Add AI are greyed out while every seat is taken."""

    def button(
        verb: str, label: str, style: discord.ButtonStyle, disabled: bool = False
    ) -> KapButton:
        return KapButton(
            CustomId(table_id, None, verb), label=tr(locale, label), style=style, disabled=disabled
        )

    return _view(
        button("join", N_("Join"), discord.ButtonStyle.success, full),
        button("leave", N_("Leave"), discord.ButtonStyle.secondary),
        button("addai", N_("Add AI"), discord.ButtonStyle.primary, full),
        button("start", N_("Start"), discord.ButtonStyle.success),
        button("cancel", N_("Cancel"), discord.ButtonStyle.danger),
    )


def _level_words(level: str, default: str, locale: str = "en") -> str | None:
    """What a level means, for its option (Discord allows 100 characters there)."""
    words = tr(locale, LEVEL_WORDS.get(level, "")) if level in LEVEL_WORDS else ""
    words += tr(locale, " (default)") if level == default else ""
    return words.strip()[:100] or None


def ai_level_view(
    table_id: str, levels: Sequence[str], default: str, locale: str = "en"
) -> discord.ui.View:
    """A select of the computer levels, for the host."""
    options = [
        discord.SelectOption(
            label=level_name(locale, level),
            value=level,
            default=False,
            description=_level_words(level, default, locale),
        )
        for level in levels
    ]
    return _view(
        KapSelect(
            CustomId(table_id, None, "choose-ai"),
            options=options,
            placeholder=tr(locale, "Computer level…"),
        )
    )


def table_view(
    table_id: str, *, finished: bool, rematch: bool = True, locale: str = "en"
) -> discord.ui.View:
    """The table message's buttons: My hand and Rules; Rematch once the game is over (unless
    ``rematch=False``: the end-of-game message carries it)."""
    rules = tr(locale, "Rules")
    if finished and not rematch:
        return _view(KapButton(CustomId(table_id, None, "rules"), label=rules))
    if finished:
        return _view(
            KapButton(
                CustomId(table_id, None, "rematch"),
                label=tr(locale, "Rematch"),
                style=discord.ButtonStyle.success,
            ),
            KapButton(CustomId(table_id, None, "rules"), label=rules),
        )
    return _view(
        KapButton(
            CustomId(table_id, None, "hand"),
            label=tr(locale, "My hand"),
            style=discord.ButtonStyle.primary,
        ),
        KapButton(CustomId(table_id, None, "rules"), label=rules),
    )


def resign_view(table_id: str, arg: str, locale: str = "en") -> discord.ui.View:
    """The buttons of the question ``/table resign`` asks: Resign (``arg`` tells when the
    question expires and what the game was like when it was asked) and Keep playing."""
    return _view(
        KapButton(
            CustomId(table_id, None, "resign", arg),
            label=tr(locale, "Resign"),
            style=discord.ButtonStyle.danger,
        ),
        KapButton(CustomId(table_id, None, "keep"), label=tr(locale, "Keep playing")),
    )


def play_arg(action: object) -> str:
    """The ``arg`` of a ``play`` button: the notation with ``-`` for spaces."""
    return str(action).replace(" ", "-")


_STYLES = {
    "primary": discord.ButtonStyle.primary,
    "secondary": discord.ButtonStyle.secondary,
    "success": discord.ButtonStyle.success,
    "danger": discord.ButtonStyle.danger,
}


def move_items(
    table_id: str, version: int, specs: Sequence[ButtonSpec | SelectSpec]
) -> list[discord.ui.Item[Any]]:
    """A game's moves (:meth:`bot.render.family.Surface.buttons`) as components drawn for the
    table's state ``version``: each button's custom id is its verb and arg, a select's its verb
    (the choice is its value)."""
    items: list[discord.ui.Item[Any]] = []
    for spec in specs:
        if isinstance(spec, ButtonSpec):
            cid = CustomId(table_id, version, spec.verb, spec.arg or None)
            items.append(KapButton(cid, label=spec.label, style=_STYLES[spec.style], row=spec.row))
        else:
            options = [discord.SelectOption(label=c.label, value=c.value) for c in spec.options]
            items.append(
                KapSelect(
                    CustomId(table_id, version, spec.verb),
                    options=options,
                    placeholder=spec.placeholder,
                    row=spec.row,
                )
            )
    return items


def moves_view(
    table_id: str,
    version: int,
    specs: Sequence[ButtonSpec | SelectSpec],
    *,
    rules_locale: str | None = None,
) -> discord.ui.View:
    """The view of a game's moves (:func:`move_items`); with ``rules_locale``, the Rules button
    under them (the table message of a game played on it)."""
    items = move_items(table_id, version, specs)
    if rules_locale is not None:
        rules = tr(rules_locale, "Rules")
        items.append(KapButton(CustomId(table_id, None, "rules"), label=rules, row=3))
    return _view(*items)


def notation_of(verb: str, arg: str | None, values: Sequence[str]) -> str | None:
    """The notation a move's custom id means, whatever the game: ``play`` carries the notation
    itself (``-`` for spaces), a select ``choose-X`` plays ``X`` with the value chosen, any other
    verb is the notation's verb with its arg (``discard 6-5``, ``draw``). None: the id names no
    move (a select without a value, a ``play`` without its notation)."""
    if verb == "play":
        return None if arg is None else arg.replace("-", " ")
    if verb.startswith("choose-"):
        return f"{verb.removeprefix('choose-')} {values[0]}" if values else None
    return verb if arg is None else f"{verb} {arg}"


def hand_view(
    table_id: str,
    version: int,
    seat_view: Any,
    legal: Sequence[Any],
    locale: str = "en",
    *,
    hint: bool = False,
) -> discord.ui.View | None:
    """Buttons (and a select) for the legal moves of the seat to act, as his game draws them
    (:meth:`bot.render.family.Surface.buttons`), and the Hint button under them where hints are
    allowed (``hint``); None off-turn."""
    if not seat_view.my_turn or not legal:
        return None
    specs = render_of(seat_view.rules.game).buttons(seat_view, legal, locale)
    view = moves_view(table_id, version, specs)
    if hint:
        view.add_item(hint_button(table_id, locale))
    return view


def hint_button(table_id: str, locale: str = "en") -> KapButton:
    """The Hint button of a hand DM at a table where hints are allowed (the last row)."""
    return KapButton(
        CustomId(table_id, None, "hint"),
        label=tr(locale, "Hint"),
        emoji="💡",
        style=discord.ButtonStyle.secondary,
        row=4,
    )
