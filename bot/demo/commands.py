"""The slash commands as a client in the demo's language shows them, a typed command turned
into the one the composer sends, and mentions shown as names."""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, slots=True)
class LocalizedOption:
    """An option of a command as a client in the demo's language shows it."""

    name: str
    description: str
    choices: dict[str, str]  # the English choice name -> the localized one


@dataclass(frozen=True, slots=True)
class LocalizedCommand:
    """A command (a leaf: ``table new``) as a client in the demo's language shows it."""

    invocation: str
    description: str
    options: dict[str, LocalizedOption]  # by English name

    def english(self, name: str) -> str:
        """The English name of the option a client names ``name`` (or ``name`` itself)."""
        return next((key for key, o in self.options.items() if o.name == name), name)


class CommandNames:
    """The slash commands in the language of the members' Discord client.

    The bot publishes every command with ``name_localizations`` and
    ``description_localizations`` (its app_commands Translator), and Discord shows a client the
    names of its language, then sends the English ones with the interaction. simcord's preview
    lists only the English ``name``: the demo puts the localized names in the list it forwards
    to the page and turns the option names the page sends back into English, where the bot and
    simcord expect them. Command ids, paths and choice values stay as they are."""

    def __init__(self, commands: Sequence[dict[str, Any]], locale: str) -> None:
        """``commands``: the command payloads as synced (simcord's backend keeps them)."""
        self.locale = locale
        self.leaves: dict[tuple[str, tuple[str, ...]], LocalizedCommand] = {}
        for command in commands:
            if command.get("type", 1) == 1 and "id" in command:
                self._walk(str(command["id"]), command, (), ())

    def _name(self, item: dict[str, Any]) -> str:
        return str((item.get("name_localizations") or {}).get(self.locale) or item["name"])

    def _walk(
        self, command_id: str, item: dict[str, Any], path: tuple[str, ...], shown: tuple[str, ...]
    ) -> None:
        path, shown = (*path, str(item["name"])), (*shown, self._name(item))
        options = item.get("options") or []
        groups = [o for o in options if o.get("type") in (1, 2)]  # subcommands and groups
        for group in groups:
            self._walk(command_id, group, path, shown)
        if groups:
            return
        localized: dict[str, LocalizedOption] = {}
        for option in options:
            localized[str(option["name"])] = LocalizedOption(
                self._name(option),
                str(
                    (option.get("description_localizations") or {}).get(self.locale)
                    or option.get("description", "")
                ),
                {str(c["name"]): self._name(c) for c in option.get("choices") or []},
            )
        # Two options a client would name alike keep their English names (never ambiguous).
        names = [o.name for o in localized.values()]
        for key, option in localized.items():
            if names.count(option.name) > 1:
                localized[key] = dataclasses.replace(option, name=key)
        self.leaves[(command_id, path)] = LocalizedCommand(
            " ".join(shown),
            str(
                (item.get("description_localizations") or {}).get(self.locale)
                or item.get("description", "")
            ),
            localized,
        )

    def _leaf(self, command_id: Any, path: Any) -> LocalizedCommand | None:
        if not isinstance(path, list):
            return None
        return self.leaves.get((str(command_id), tuple(str(part) for part in path)))

    def catalog(self, catalog: dict[str, Any]) -> dict[str, Any]:
        """simcord's command list for the page, in the client's language."""
        for entry in catalog.get("entries") or []:
            leaf = self._leaf(entry.get("commandId"), entry.get("path"))
            if leaf is None:
                continue
            entry["invocation"], entry["description"] = leaf.invocation, leaf.description
            for option in entry.get("options") or []:
                shown = leaf.options.get(option.get("name"))
                if shown is None:
                    continue
                option["name"], option["description"] = shown.name, shown.description
                for choice in option.get("choices") or []:
                    choice["name"] = shown.choices.get(choice.get("name"), choice.get("name"))
        return catalog

    def action(self, body: dict[str, Any]) -> dict[str, Any]:
        """A page action, with the option names the bot knows (English)."""
        leaf = self._leaf(body.get("command_id"), body.get("path"))
        if leaf is not None:
            if isinstance(body.get("options"), dict):
                body["options"] = {leaf.english(k): v for k, v in body["options"].items()}
            if isinstance(body.get("focused"), str):
                body["focused"] = leaf.english(body["focused"])
        if isinstance(body.get("control_key"), str):
            body["control_key"] = self._control_key(body["control_key"], english=True)
        return body

    def answer(self, value: Any) -> Any:
        """An answer for the page, its pickers' keys (``command:ID:PATH:option:NAME``) in the
        client's language."""
        if isinstance(value, dict):
            return {self.answer(k): self.answer(v) for k, v in value.items()}
        if isinstance(value, list):
            return [self.answer(v) for v in value]
        if isinstance(value, str) and value.startswith("command:"):
            return self._control_key(value, english=False)
        return value

    def _control_key(self, key: str, *, english: bool) -> str:
        head, marker, name = key.partition(":option:")
        _, command_id, path = [*head.split(":", 2), "", ""][:3]
        leaf = self._leaf(command_id, path.split("."))
        if not marker or leaf is None:
            return key
        if english:
            return f"{head}{marker}{leaf.english(name)}"
        shown = leaf.options.get(name)
        return f"{head}{marker}{shown.name if shown else name}"


def typed_command(
    content: str, catalog: dict[str, Any], names: CommandNames | None
) -> dict[str, Any] | None:
    """The command a message typed as ``/table new game:Kap Tai Shap`` names, as the page's
    composer would send it (``command_id``, ``path``, ``schema_fingerprint``, ``options``), or
    None when it names no command of ``catalog`` (simcord's list, English) with valid options.

    Discord's composer turns such a line into the command; simcord's sends it as a chat
    message, which the bot never sees. Names and choices may be English or, in a Chinese
    demo, those the member's client shows."""
    text = content.strip()
    if not text.startswith("/"):
        return None
    text = " ".join(text[1:].split())
    best: tuple[int, dict[str, Any], LocalizedCommand | None, str] | None = None
    for entry in catalog.get("entries") or []:
        leaf = (
            None
            if names is None
            else names.leaves.get((str(entry.get("commandId")), tuple(entry.get("path") or ())))
        )
        for said in {str(entry.get("invocation", "")), leaf.invocation if leaf else ""} - {""}:
            if (text == said or text.startswith(said + " ")) and (
                best is None or len(said) > best[0]
            ):
                best = (len(said), entry, leaf, text[len(said) :].strip())
    if best is None:
        return None
    _, entry, leaf, rest = best
    options = {str(o["name"]): o for o in entry.get("options") or []}
    spoken = {name: name for name in options}
    if leaf is not None:
        spoken |= {leaf.options[n].name: n for n in options if n in leaf.options}
    # name:value pairs; a value runs to the next known name followed by a colon.
    known = "|".join(re.escape(name) for name in sorted(spoken, key=len, reverse=True))
    parts = re.split(rf"(?:^|\s)({known}):", rest) if known else [rest]
    if parts[0].strip():
        return None  # words that are no option
    given: dict[str, Any] = {}
    for name, raw in zip(parts[1::2], parts[2::2], strict=True):
        english = spoken[name]
        value = _option_value(options[english], raw.strip(), leaf, english)
        if value is None or english in given:
            return None
        given[english] = value
    if any(o.get("required") and n not in given for n, o in options.items()):
        return None
    return {
        "command_id": entry["commandId"],
        "path": list(entry["path"]),
        "schema_fingerprint": entry["schemaFingerprint"],
        "options": given,
    }


def _option_value(
    option: dict[str, Any], raw: str, leaf: LocalizedCommand | None, english: str
) -> Any:
    """What the composer sends for ``raw`` typed as ``option``'s value, or None if invalid."""
    if not raw:
        return None
    choices = option.get("choices") or []
    if choices:
        # A choice by its value or name (as shown to the member, or English), or by the start
        # of one name: "Kap Tai Shap" for "Kap Tai Shap (2-20 players)".
        shown = leaf.options[english].choices if leaf and english in leaf.options else {}

        def words(choice: dict[str, Any]) -> set[str]:
            said = {str(choice["name"]), shown.get(str(choice["name"]), ""), str(choice["value"])}
            return {_plain(word) for word in said if word}

        exact = [c["value"] for c in choices if _plain(raw) in words(c)]
        begun = [c["value"] for c in choices if any(w.startswith(_plain(raw)) for w in words(c))]
        return exact[0] if exact else begun[0] if len(begun) == 1 else None
    kind = option.get("type")
    if kind in ("integer", "number"):
        return raw if re.fullmatch(r"-?[0-9]+(\.[0-9]+)?", raw) else None
    if kind == "boolean":
        return {"true": True, "false": False}.get(raw.casefold())
    if kind in ("user", "channel", "role", "mentionable"):
        found = re.fullmatch(r"<[@#]?[!&]?([0-9]+)>|([0-9]+)", raw)
        return (found[1] or found[2]) if found else None
    return raw if kind == "string" else None


def _plain(word: str) -> str:
    """``word`` for comparing what a member typed: case, dashes and spacing aside."""
    return " ".join(word.casefold().replace("-", " ").split())


MENTION = re.compile(r"<(@[!&]?|#)([0-9]{1,20})>")
"""A user (``<@id>``, ``<@!id>``), role (``<@&id>``) or channel (``<#id>``) mention."""
MENTIONING_TOKENS = frozenset(
    {"content_tokens", "description_tokens", "value_tokens", "markdown_tokens"}
)
"""The fields of simcord's page where Discord shows a mention as a name: a message's content,
an embed's description and field values, a text display. Not titles, field names, footers or
author names, where Discord shows the raw ``<@id>`` as simcord does."""


def resolve_mentions(value: Any, name_of: Callable[[str, int], str | None]) -> Any:
    """simcord's page (``value``, its JSON) with every mention a member's Discord client would
    show as a name made a mention token, as simcord does in a message's content for the users
    the message's own context knows (not in embeds, nor a server's members and channels in a
    DM). ``name_of(kind, id)``: ``@name`` or ``#name``, or None for one the demo does not
    know (it stays as written)."""
    if isinstance(value, list):
        return [resolve_mentions(item, name_of) for item in value]
    if not isinstance(value, dict):
        return value
    return {
        key: _mention_tokens(item, name_of)
        if key in MENTIONING_TOKENS
        else resolve_mentions(item, name_of)
        for key, item in value.items()
    }


def _mention_tokens(tokens: Any, name_of: Callable[[str, int], str | None]) -> Any:
    """A token list (a paragraph's, recursively) with its text's mentions as mention tokens."""
    if not isinstance(tokens, list):
        return tokens
    out: list[Any] = []
    for token in tokens:
        if not isinstance(token, dict):
            out.append(token)
        elif token.get("type") == "text" and isinstance(token.get("content"), str):
            text, at = token["content"], 0
            for found in MENTION.finditer(text):
                kind = {"#": "channel", "@&": "role"}.get(found[1], "user")
                label = name_of(kind, int(found[2]))
                if label is None:
                    continue
                if found.start() > at:
                    out.append({"type": "text", "content": text[at : found.start()]})
                out.append({"type": "mention", "kind": kind, "id": found[2], "label": label})
                at = found.end()
            if at < len(text):
                out.append({"type": "text", "content": text[at:]})
        else:
            out.append(
                {k: _mention_tokens(v, name_of) if k == "children" else v for k, v in token.items()}
            )
    return out
