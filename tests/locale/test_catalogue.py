"""Every message the code asks for exists in each Chinese catalogue, with the same placeholders
and no English left in it; every slash-command text obeys Discord's limits in every locale.

The messages are found in the source itself (an AST walk over bot/ and cogs/): the first string
of every ``t(locale, "…")``, ``nt(locale, "…", "…", n)``, ``N_("…")`` and of every raised
``UserError`` (or subclass), so a new message without a translation fails here.
"""

from __future__ import annotations

import ast
import random
import re
from collections.abc import Iterator
from pathlib import Path

import discord
import pytest
from discord import app_commands

from bot.ai.base import LEVEL_WORDS
from bot.ai.review import REVIEW_TEMPLATES
from bot.app import KapBot
from bot.config import Settings
from bot.engine.tiles import KINDS
from bot.locale import LOCALES, catalogue, placeholders, t, tile_name, translate
from cogs.translator import DISCORD_LOCALES, NAME_CONTEXT, CatalogueTranslator
from tests.locale.english import latin_left

ROOT = Path(__file__).resolve().parents[2]
CHINESE = ("zh-TW", "zh-CN")
ERRORS = {
    "Message",
    "UserError",
    "InvalidAmount",
    "InvalidTarget",
    "InsufficientChips",
    "InvalidSetting",
}
NAME = re.compile(r"^[-_\w]{1,32}$")


def _string(node: ast.expr) -> str | None:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    return None


def _messages() -> Iterator[tuple[str, str, int]]:
    """(msgid, file, line) of every message the source asks for."""
    for path in sorted([*ROOT.joinpath("bot").rglob("*.py"), *ROOT.joinpath("cogs").rglob("*.py")]):
        if "locale" in path.parts and path.name == "__init__.py":
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call):
                continue
            func = node.func
            name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", None)
            where = (str(path.relative_to(ROOT)), node.lineno)
            if name == "lt" and isinstance(func, ast.Attribute) and node.args:
                ids = [node.args[0]]  # self.tr("…") of the terminal: the locale is the table's
            elif name in ("t", "tr") and len(node.args) >= 2:
                if any(k.arg == "context" for k in node.keywords):
                    continue  # a context lookup (terms): the value may be anything
                ids = [node.args[1]]
            elif name == "nt" and len(node.args) >= 3:
                ids = [node.args[1]]
            elif (name == "N_" and node.args) or (name in ERRORS and node.args):
                ids = [node.args[0]]
            elif (
                name == "__init__"
                and path.name == "errors.py"
                and isinstance(func, ast.Attribute)
                and isinstance(func.value, ast.Call)
                and node.args
            ):
                ids = [node.args[0]]  # super().__init__("…") in an error class
            else:
                continue
            for arg in ids:
                # t(locale, "a" if on else "b"): both texts are messages.
                branches = [arg.body, arg.orelse] if isinstance(arg, ast.IfExp) else [arg]
                for branch in branches:
                    text = _string(branch)
                    if text is not None:
                        yield text, *where


# Texts kept as data where the catalogue cannot be imported (the AI layer), translated at use.
MESSAGES = sorted({m[0] for m in _messages()} | set(LEVEL_WORDS.values()) | set(REVIEW_TEMPLATES))


def test_the_source_asks_for_messages() -> None:
    """The walk finds the messages (a broken walk must not pass everything)."""
    assert len(MESSAGES) > 400
    assert "There is no table here." in MESSAGES


@pytest.mark.parametrize("locale", CHINESE)
def test_every_message_is_translated(locale: str) -> None:
    """No missing key; placeholders identical to the English; no English words left."""
    cat = catalogue(locale)
    assert cat is not None
    problems = []
    for msgid in MESSAGES:
        message = cat.get(msgid)
        if message is None or not message.string or message.fuzzy:
            problems.append(f"missing: {msgid!r}")
            continue
        text = message.string if isinstance(message.string, str) else message.string[0]
        if placeholders(text) != placeholders(msgid):
            problems.append(f"placeholders differ: {msgid!r} -> {text!r}")
        left = latin_left(text)
        if left:
            problems.append(f"English left {sorted(left)}: {text!r}")
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("locale", LOCALES)
def test_every_message_renders(locale: str) -> None:
    """Each message formats in each locale with its own placeholders filled."""
    for msgid in MESSAGES:
        values = {name: "X" for name in placeholders(msgid)}
        assert t(locale, msgid, **values)


def test_tile_names_per_script() -> None:
    """Traditional names in zh-TW (as the engine holds them), Simplified in zh-CN."""
    by_name = {kind.chinese: kind for kind in KINDS}
    for chinese, kind in by_name.items():
        assert tile_name("en", kind.english, chinese) == kind.english
        assert tile_name("zh-TW", kind.english, chinese) == chinese
        assert tile_name("zh-CN", kind.english, chinese)
    assert tile_name("zh-CN", "Long three", "長三") == "长三"
    assert tile_name("zh-CN", "Axe", "斧頭") == "斧头"
    assert tile_name("zh-CN", "Red-head ten", "紅頭十") == "红头十"
    assert tile_name("zh-CN", "Long-leg seven", "高腳七") == "高脚七"
    assert tile_name("zh-CN", "Nine", "雜九") == "杂九"


async def test_command_metadata_in_every_locale(tmp_path: Path) -> None:
    """Every command, option and choice has zh-TW and zh-CN texts within Discord's limits."""
    bot = KapBot(
        Settings(discord_token=None, db_path=tmp_path / "db.sqlite3"),
        rng=random.Random(1),
        auto_sync=False,
    )
    # "async with": discord.py's start-up of the client, which its close() needs
    async with bot:
        await bot.setup_hook()
        translator = bot.tree.translator
        assert isinstance(translator, CatalogueTranslator)
        payloads = [
            await c.get_translated_payload(bot.tree, translator) for c in bot.tree.get_commands()
        ]
    locales = {locale.value for locale in DISCORD_LOCALES}
    problems: list[str] = []

    def check(item: dict[str, object], kind: str) -> None:
        names = {"en": item["name"], **dict(item.get("name_localizations") or {})}  # type: ignore[call-overload]
        descs = {"en": item.get("description"), **dict(item.get("description_localizations") or {})}  # type: ignore[call-overload]
        for locale in ("en", *locales):
            if locale not in names:
                problems.append(f"{kind} {item['name']}: no {locale} name")
                continue
            name = str(names[locale])
            if kind == "choice":
                if not 1 <= len(name) <= 100:
                    problems.append(f"choice {name!r} ({locale}) is not 1-100 characters")
            elif not NAME.match(name) or name != name.lower():
                problems.append(f"{kind} name {name!r} ({locale}) breaks Discord's name rules")
            if kind != "choice":
                desc = descs.get(locale)
                if desc is None:
                    problems.append(f"{kind} {item['name']}: no {locale} description")
                elif not 1 <= len(str(desc)) <= 100:
                    problems.append(f"{kind} {item['name']}: {locale} description too long")
        for option in item.get("options") or []:  # type: ignore[attr-defined]
            is_command = option["type"] in (1, 2)
            check(option, "command" if is_command else "option")
        for choice in item.get("choices") or []:  # type: ignore[attr-defined]
            check(choice, "choice")

    for payload in payloads:
        if payload.get("type", 1) != 1:
            continue
        check(payload, "command")
    assert not problems, "\n".join(problems)


def test_names_in_a_locale_are_unique_per_level() -> None:
    """Two commands (or options) of one level never share a translated name."""
    cat = catalogue("zh-TW")
    assert cat is not None
    for locale in CHINESE:
        assert translate(locale, "table", NAME_CONTEXT) != translate(locale, "take", NAME_CONTEXT)


def test_discord_locales_are_chinese() -> None:
    """The translator serves exactly Discord's two Chinese locales."""
    assert set(DISCORD_LOCALES) == {discord.Locale.taiwan_chinese, discord.Locale.chinese}
    assert app_commands.TranslationContextLocation.command_name


def test_engine_refusals_are_recognized_and_translated() -> None:
    """The engine speaks English: its refusals of a play reach a member in his language."""
    from bot.engine import IllegalAction
    from bot.services.tables import _refusal

    error = _refusal(IllegalAction("you do not hold 6-6"), "kap-shap")
    assert error.message == "You do not hold 6-6."
    assert error.localized("zh-CN") == "你手上没有 6-6。"
    assert error.localized("zh-TW") == "你手上沒有 6-6。"
    unknown = _refusal(IllegalAction("something new"), "kap-shap")
    assert unknown.message == unknown.localized("zh-TW") == "Something new."


def _entries(text: str) -> Iterator[tuple[str | None, str]]:
    """Each entry's (msgctxt, msgid) of a .po text, in order (single-line and continued ids)."""
    context: str | None = None
    msgid: list[str] | None = None
    for line in [*text.splitlines(), ""]:
        if line.startswith("msgctxt "):
            context = ast.literal_eval(line[len("msgctxt ") :])
        elif line.startswith("msgid "):
            msgid = [ast.literal_eval(line[len("msgid ") :])]
        elif line.startswith('"') and msgid is not None:
            msgid.append(ast.literal_eval(line))
        elif line.startswith(("msgstr", "msgid_plural")) and msgid is not None:
            yield context, "".join(msgid)
            context, msgid = None, None


@pytest.mark.parametrize("locale", CHINESE)
def test_no_message_is_defined_twice(locale: str) -> None:
    """A message defined twice reads as the later one, silently: two helpers adding the same
    id at the end of a catalogue must not leave two translations to drift apart."""
    path = Path(__file__).parents[2] / "bot" / "locale" / locale.replace("-", "_")
    text = (path / "LC_MESSAGES" / "messages.po").read_text(encoding="utf-8")
    seen: set[tuple[str | None, str]] = set()
    twice = []
    for entry in _entries(text):
        if entry in seen and entry[1]:
            twice.append(entry)
        seen.add(entry)
    assert len(seen) > 400  # the reader found the entries
    assert not twice, twice
