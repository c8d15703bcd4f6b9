"""Every refusal of the engine a member can trigger reaches him in his language.

The engine speaks English (it is stdlib only); the services recognize its texts (the game's
engine facet's ``refusals`` for a play, ``RULES_REFUSALS`` for a table's settings) and the
catalogues translate them. The texts are found in the engine's source (an AST walk), so a new
refusal its family does not list fails here: a family's own module against its own list, the
shared engine and the domino kit against every domino family's.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

from bot.engine import AmbiguousTile, IllegalAction, NotationError, RulesError, Tile
from bot.engine.family import engine_of
from bot.locale import recognize
from bot.services.errors import UserError
from bot.services.tables import (
    RULES_REFUSALS,
    _refusal,
    _rules_refusal,
    _sentence,
)
from tests.locale.english import latin_left

ENGINE = Path(__file__).resolve().parents[2] / "bot" / "engine"
GAMES = Path(__file__).resolve().parents[2] / "bot" / "games"
#: Functions whose refusals reach a member: playing (notation, legality) and a table's rules.
PLAY_ERRORS = ("IllegalAction", "NotationError", "AmbiguousTile")
#: The rule checks a member's /table new options go through (not deals or stored records).
RULES_FUNCTIONS = (
    "make_rules",
    "_make_fishing_rules",
    "_validate",
    "_coerce",
    "with_flag",
    "_build",
    "validate",
    "check_house_and_turns",
)


def _sample(node: ast.expr) -> str | None:
    """The text of a string or f-string, each formatted value replaced by ``X``."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        return "".join(v.value if isinstance(v, ast.Constant) else "X" for v in node.values)
    return None


#: The domino games, by family: a module of a family's own package is refused in its family's
#: words; the generic engine's and the kit's in every domino family's.
FAMILY_GAMES = {"collecting": ("kap-shap", "kap-tai-shap"), "fishing": ("tsung-shap",)}


def _games_of(path: Path) -> tuple[str, ...]:
    """The games whose engine facet must know the refusals of the module at ``path``."""
    relative = path.relative_to(ENGINE.parent)
    family = relative.parts[1] if relative.parts[0] == "games" else None
    if family in FAMILY_GAMES:
        return FAMILY_GAMES[family]
    return tuple(game for games in FAMILY_GAMES.values() for game in games)


def _engine_texts() -> Iterator[tuple[str, str, str, tuple[str, ...]]]:
    """(kind, text, where, games) of every refusal text in the engine: ``play`` or ``rules``,
    and the games that must know it."""
    for path in [*sorted(ENGINE.rglob("*.py")), *sorted(GAMES.glob("*/engine/*.py"))]:
        games = _games_of(path)
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for function in ast.walk(tree):
            if not isinstance(function, ast.FunctionDef):
                continue
            for node in ast.walk(function):
                where = f"{path.name}:{getattr(node, 'lineno', 0)}"
                if function.name in ("_explain", "_why_no_take") and isinstance(node, ast.Return):
                    text = _sample(node.value) if node.value is not None else None
                    if text is not None:
                        yield "play", text, where, games
                if not (isinstance(node, ast.Raise) and isinstance(node.exc, ast.Call)):
                    continue
                name = getattr(node.exc.func, "id", "")
                text = _sample(node.exc.args[0]) if node.exc.args else None
                if text is None:
                    continue
                if name in PLAY_ERRORS:
                    yield "play", text, where, games
                elif name == "RulesError" and function.name in RULES_FUNCTIONS:
                    yield "rules", text, where, games


TEXTS = list(_engine_texts())


def test_the_walk_finds_the_refusals() -> None:
    """A broken walk must not pass everything."""
    kinds = [kind for kind, _, _, _ in TEXTS]
    assert kinds.count("play") > 40 and kinds.count("rules") > 15
    assert {games for _, _, _, games in TEXTS} >= set(FAMILY_GAMES.values())


@pytest.mark.parametrize(("kind", "text", "where", "games"), TEXTS, ids=[w for _, _, w, _ in TEXTS])
@pytest.mark.parametrize("locale", ["zh-TW", "zh-CN"])
def test_every_engine_refusal_is_translated(
    kind: str, text: str, where: str, games: tuple[str, ...], locale: str
) -> None:
    for game in games if kind == "play" else ("",):
        if kind == "play":
            message = recognize(_sentence(text), engine_of(game).refusals)
        else:
            message = recognize(text, RULES_REFUSALS)
        assert message is not None, f"{where}: {game or 'the services'} do not know {text!r}"
        localized = message.localized(locale)
        assert localized != str(message)
        assert latin_left(localized, {"X"}) == set(), localized


def test_a_shared_tile_name_is_explained_in_chinese() -> None:
    """ "Two tiles are called 'nine': write 6-3 or 5-4": the "or" is translated too."""
    error = _refusal(
        AmbiguousTile("Two tiles are called 'nine': write 6-3 or 5-4", (Tile(6, 3), Tile(5, 4))),
        "kap-shap",
    )
    assert error.localized("en") == "Two tiles are called 'nine': write 6-3 or 5-4."
    assert error.localized("zh-TW") == "有兩種牌都叫 'nine'：請寫 6-3 或 5-4。"


def test_notation_words_are_translated() -> None:
    error = _refusal(
        NotationError("Not an end: 'up'; write 'place left' or 'place right'"), "tsung-shap"
    )
    assert error.localized("zh-CN") == "'up' 不是有效的一端；请写 'place left' 或 'place right'。"
    over = _refusal(IllegalAction("the game is over"), "kap-shap")
    assert over.localized("zh-TW") != "The game is over."


def test_a_table_s_settings_refused_in_chinese() -> None:
    error = UserError(
        "Those settings don't work: {exc}.",
        exc=_rules_refusal(RulesError("Tsung Shap is for exactly 2 players, not 3")),
    )
    assert error.message == "Those settings don't work: Tsung Shap is for exactly 2 players, not 3."
    assert error.localized("zh-CN") == "这些设置行不通：争十只限 2 人玩，不是 3 人。"
