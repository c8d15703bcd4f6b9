"""Generic code is blind to the games (issue 19, docs/architecture.md "Games: one place per game").

Outside a game's own modules, no module of ``bot/`` or ``cogs/`` may tell the games apart by
itself; it asks the game's family (``engine_of``, ``ai_of``, ``render_of``, ``sim_of``,
``terminal_of``) or reads its :class:`bot.games.GameInfo`. An AST pass counts, per file, the
*sites* that tell games apart:

* ``isinstance(x, T)`` where ``T`` (or a member of a tuple or union ``T``, or a module-level
  tuple of them) is a type of a game's own module (below);
* ``case T(...)`` patterns on such a type;
* ``Game.KAP_SHAP``, ``Game.KAP_TAI_SHAP``, ``Game.TSUNG_SHAP`` (any member of ``Game`` named
  after a game);
* a string literal that is a built-in game's name (``"kap-shap"`` …), but the names of the demo
  server's channels (``bot/demo/scene.py``'s ``CHANNELS``);
* an attribute ``.fishing`` or ``.collecting``, and an import naming a module ``fishing`` or
  ``collecting`` (``from bot.engine import fishing``, ``from bot.engine.fishing import …``).

A game's own modules are ``bot/games/<family>/**`` (and the kit's, ``bot/games/dominoes/**``);
its types are the classes defined there. Tolerated sites would be listed in :data:`ALLOWED`
(``{path: count}``), which is empty and may only shrink: the test fails when a file has more
sites than listed, and when a count shrank without the list being lowered to it.
``python tests/test_game_blind.py`` prints the counts of the tree in the list's format.
"""

from __future__ import annotations

import ast
import sys
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GAME_NAMES = frozenset({"kap-shap", "kap-tai-shap", "tsung-shap"})
GAME_MEMBERS = frozenset({"KAP_SHAP", "KAP_TAI_SHAP", "TSUNG_SHAP"})
FAMILY_WORDS = frozenset({"fishing", "collecting"})

EXEMPT_ASSIGNMENTS = frozenset({("bot/demo/scene.py", "CHANNELS")})
"""Module-level names whose game-name literals are not game sites: the demo server's channels
happen to be named after games."""

ALLOWED: dict[str, int] = {}
"""Sites per file that are tolerated (none since issue 19 moved every game's code under
``bot/games/``). Never add one: ask the family instead."""


def _sources() -> Iterator[tuple[str, Path]]:
    for package in ("bot", "cogs"):
        for path in sorted((ROOT / package).rglob("*.py")):
            if "__pycache__" not in path.parts:
                yield path.relative_to(ROOT).as_posix(), path


def _own(relative: str) -> bool:
    """A module of the games: the registry (which registers the descriptors), a family's or
    the kit's."""
    return relative.startswith("bot/games/")


def _family(relative: str) -> bool:
    """A module of a game family or of the kit (``bot/games/<package>/``)."""
    return relative.startswith("bot/games/") and relative.count("/") >= 3


def game_types() -> frozenset[str]:
    """The names of the classes defined in the games' own modules."""
    names: set[str] = set()
    for relative, path in _sources():
        if _family(relative):
            tree = ast.parse(path.read_text(encoding="utf-8"))
            names |= {node.name for node in ast.walk(tree) if isinstance(node, ast.ClassDef)}
    return frozenset(names)


def _names_in(expr: ast.expr) -> Iterator[str]:
    """The type names a type expression mentions (a name, ``module.Name``, a tuple, a union)."""
    if isinstance(expr, ast.Name):
        yield expr.id
    elif isinstance(expr, ast.Attribute):
        yield expr.attr
    elif isinstance(expr, ast.Tuple):
        for element in expr.elts:
            yield from _names_in(element)
    elif isinstance(expr, ast.BinOp) and isinstance(expr.op, ast.BitOr):
        yield from _names_in(expr.left)
        yield from _names_in(expr.right)


def sites(source: str, relative: str, types: frozenset[str]) -> Counter[str]:
    """The sites of one module that tell games apart, counted by kind."""
    tree = ast.parse(source)
    found: Counter[str] = Counter()
    # Module-level names bound to tuples or unions of game types (``_FISHING_EVENTS = (…)``).
    aliases = set(types)
    exempt: set[int] = set()
    for node in tree.body:
        if isinstance(node, ast.Assign | ast.AnnAssign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            names = [t.id for t in targets if isinstance(t, ast.Name)]
            if node.value is not None and any(n in types for n in _names_in(node.value)):
                aliases.update(names)
            if any((relative, name) in EXEMPT_ASSIGNMENTS for name in names):
                exempt |= {id(sub) for sub in ast.walk(node)}
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id == "isinstance"
            and len(node.args) == 2
            and any(name in aliases for name in _names_in(node.args[1]))
        ):
            found["isinstance"] += 1
        elif isinstance(node, ast.MatchClass) and any(n in types for n in _names_in(node.cls)):
            found["case"] += 1
        elif (
            isinstance(node, ast.Attribute)
            and isinstance(node.value, ast.Name)
            and node.value.id == "Game"
            and node.attr in GAME_MEMBERS
        ):
            found["Game.X"] += 1
        elif isinstance(node, ast.Constant) and node.value in GAME_NAMES and id(node) not in exempt:
            found["name"] += 1
        elif isinstance(node, ast.Attribute) and node.attr in FAMILY_WORDS:
            found[".family"] += 1
        elif isinstance(node, ast.ImportFrom):
            words = {*(node.module or "").split("."), *(alias.name for alias in node.names)}
            if words & FAMILY_WORDS:
                found["import"] += 1
        elif isinstance(node, ast.Import) and any(
            set(alias.name.split(".")) & FAMILY_WORDS for alias in node.names
        ):
            found["import"] += 1
    return found


def tree_sites() -> dict[str, Counter[str]]:
    """Every file's sites outside the games' own modules (files without any left out)."""
    types = game_types()
    out: dict[str, Counter[str]] = {}
    for relative, path in _sources():
        if _own(relative):
            continue
        counted = sites(path.read_text(encoding="utf-8"), relative, types)
        if counted:
            out[relative] = counted
    return out


SITES = tree_sites()


def _kinds(counted: Counter[str]) -> str:
    return ", ".join(f"{kind} {n}" for kind, n in sorted(counted.items()))


def test_no_new_file_tells_the_games_apart() -> None:
    new = {path: counted for path, counted in SITES.items() if path not in ALLOWED}
    assert not new, "\n".join(
        f"{path}: tells the games apart ({_kinds(counted)}); ask the game's family instead "
        "(engine_of, ai_of, render_of, sim_of, terminal_of) or its GameInfo (bot.games.find)"
        for path, counted in sorted(new.items())
    )


def test_the_allowed_sites_only_shrink() -> None:
    for path, allowed in ALLOWED.items():
        counted = SITES.get(path, Counter())
        total = sum(counted.values())
        assert total <= allowed, (
            f"{path}: {total} sites telling the games apart ({_kinds(counted)}), more than the "
            f"{allowed} allowed; ask the game's family instead"
        )
        assert total == allowed, (
            f"{path}: {total} sites left of the {allowed} allowed: lower ALLOWED[{path!r}] "
            f"to {total} in tests/test_game_blind.py" + (" (delete the entry)" if not total else "")
        )


# --------------------------------------------------------------------------------------------
# The counter itself.


def test_the_counter_finds_every_kind_of_site() -> None:
    source = """
from bot.engine import fishing
from bot.engine.collecting import Phase
import bot.engine.fishing
_EVENTS = (fishing.Placed, Captured)

def f(state, game, rules):
    if isinstance(state, FishingState):
        return 1
    if isinstance(state, (int, GameState)) or isinstance(state, _EVENTS):
        return 2
    if isinstance(state, int):
        return 3
    match state:
        case Take(tile):
            return 4
    if game is Game.TSUNG_SHAP or game == "kap-shap" or rules.game.fishing:
        return 5
    return Game(game)
"""
    types = frozenset({"FishingState", "GameState", "Take", "Placed", "Captured"})
    assert sites(source, "bot/x.py", types) == Counter(
        {"isinstance": 3, "case": 1, "Game.X": 1, "name": 1, ".family": 1, "import": 3}
    )


def test_the_demo_channels_are_not_sites() -> None:
    source = 'CHANNELS = ("kap-shap", "lounge")\nGAME = "kap-shap"\n'
    assert sites(source, "bot/demo/scene.py", frozenset()) == Counter({"name": 1})
    assert sites(source, "bot/other.py", frozenset()) == Counter({"name": 2})


def test_the_game_types_are_the_games_classes() -> None:
    types = game_types()
    assert {"GameState", "FishingState", "Take", "Capture", "FishingView"} <= types
    assert "RuleSet" not in types  # the kit's, shared by every family


if __name__ == "__main__":  # print today's counts in the format of ALLOWED
    for relative, counted in sorted(tree_sites().items()):
        sys.stdout.write(f'    "{relative}": {sum(counted.values())},\n')
