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

The layers every game is worded and drawn with, ``bot/render/`` and ``bot/locale/``, hold only
what more than one game uses: a public module-level name there that only one family reads
(directly, or through shared names only it reads) belongs in ``bot/games/<family>/``. A name
the kit reads is shared, and a name nobody in ``bot/`` or ``cogs/`` reads (a test's) is left
alone.
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
# The shared layers hold nothing of one family's.

SHARED = ("bot/render/", "bot/locale/")
"""The layers every game's words and pictures are drawn with: what is in them is shared."""

KIT = "dominoes"
"""The kit both domino families share (``bot/games/dominoes/``): a name only it reads is read by
both, so it is no one family's (whether it belongs in the kit rather than in bot/render is the
kit's question, not this test's)."""


def _module(relative: str) -> str:
    name = relative.removesuffix(".py").replace("/", ".")
    return name.removesuffix(".__init__")


def _owner(relative: str) -> str | None:
    """The family a module is one of; None for generic code and the kit."""
    if _family(relative) and relative.split("/")[2] != KIT:
        return relative.split("/")[2]
    return None


def shared_names(trees: dict[str, ast.Module]) -> dict[tuple[str, str], str]:
    """The public module-level names of the shared layers: ``(module, name)`` → its file."""
    found: dict[tuple[str, str], str] = {}
    for relative, tree in trees.items():
        if not relative.startswith(SHARED):
            continue
        for node in tree.body:
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                names = [node.name]
            elif isinstance(node, ast.Assign):
                names = [t.id for t in node.targets if isinstance(t, ast.Name)]
            elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
                names = [node.target.id]
            else:
                names = []
            for name in names:
                if not name.startswith("_"):
                    found[(_module(relative), name)] = relative
    return found


def _dotted(expr: ast.expr) -> str | None:
    if isinstance(expr, ast.Name):
        return expr.id
    if isinstance(expr, ast.Attribute):
        base = _dotted(expr.value)
        return None if base is None else f"{base}.{expr.attr}"
    return None


Name = tuple[str, str]
"""A shared name: its module and itself."""

User = tuple[str, str | None]
"""Where a name is used: the file, and the module-level name whose body uses it (None at the
module's top level)."""


def _reexports(trees: dict[str, ast.Module], names: dict[Name, str]) -> dict[Name, Name]:
    """The shared names a shared package's ``__init__`` imports to export them again
    (``bot.render.render_hand`` is ``bot.render.images.render_hand``): a re-export is no use."""
    out: dict[Name, Name] = {}
    for relative, tree in trees.items():
        if relative.startswith(SHARED) and relative.endswith("/__init__.py"):
            for node in tree.body:
                if isinstance(node, ast.ImportFrom) and node.module and not node.level:
                    for alias in node.names:
                        if (node.module, alias.name) in names:
                            out[(_module(relative), alias.asname or alias.name)] = (
                                node.module,
                                alias.name,
                            )
    return out


def _top_levels(tree: ast.Module) -> Iterator[tuple[str | None, ast.AST]]:
    """Every node of a module with the module-level definition it is in (None outside one)."""
    for top in tree.body:
        if isinstance(top, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            owner: str | None = top.name
        elif isinstance(top, ast.Assign) and len(top.targets) == 1:
            target = top.targets[0]
            owner = target.id if isinstance(target, ast.Name) else None
        else:
            owner = None
        for node in ast.walk(top):
            yield owner, node


def name_users(trees: dict[str, ast.Module]) -> dict[Name, set[User]]:
    """Who uses each shared name: the files that read it, imported (``from m import name``)
    or as an attribute of its module (``m.name``, ``alias.name``), and its own module, each
    with the module-level name whose body reads it (an import alone is no use: a package's
    ``__init__`` exporting it again is none)."""
    names = shared_names(trees)
    again = _reexports(trees, names)
    users: dict[Name, set[User]] = {key: set() for key in names}

    def use(key: Name, relative: str, where: str | None) -> None:
        key = again.get(key, key)
        if key in users:
            users[key].add((relative, where))

    for relative, tree in trees.items():
        own = _module(relative)
        aliases: dict[str, str] = {}
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module and not node.level:
                for alias in node.names:
                    aliases[alias.asname or alias.name] = f"{node.module}.{alias.name}"
            elif isinstance(node, ast.Import):
                for alias in node.names:
                    aliases[alias.asname or alias.name] = alias.name
        for where, node in _top_levels(tree):
            if isinstance(node, ast.Attribute) and (base := _dotted(node.value)) is not None:
                head, _, rest = base.partition(".")
                module = aliases.get(head, head) + (f".{rest}" if rest else "")
                use((module, node.attr), relative, where)
            elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load):
                if node.id in aliases:  # an imported name, read where it is used
                    module, _, name = aliases[node.id].rpartition(".")
                    use((module, name), relative, where)
                elif names.get((own, node.id)) == relative and node.id != where:
                    use((own, node.id), relative, where)
    return users


def one_familys(trees: dict[str, ast.Module]) -> dict[str, str]:
    """The shared names only one family reads (``module.name`` → the family), directly or
    through shared names only it reads (``pool_text`` through ``discards_description``)."""
    users = name_users(trees)
    found: dict[Name, str] = {}
    while True:
        more = dict(found)
        for key, places in users.items():
            owners = set()
            for relative, where in places:
                if relative.startswith(SHARED) and where is not None:
                    owners.add(found.get((_module(relative), where)))
                else:
                    owners.add(_owner(relative))
            if places and None not in owners and len(owners) == 1:
                more[key] = owners.pop() or ""
        if more == found:
            return {f"{module}.{name}": family for (module, name), family in found.items()}
        found = more


def test_the_shared_layers_hold_nothing_of_one_family() -> None:
    trees = {relative: ast.parse(path.read_text(encoding="utf-8")) for relative, path in _sources()}
    found = one_familys(trees)
    assert not found, "\n".join(
        f"{name}: only the family {family!r} reads it; move it into bot/games/{family}/"
        for name, family in sorted(found.items())
    )


def test_the_shared_check_tells_one_familys_from_shared() -> None:
    trees = {
        "bot/render/words.py": ast.parse(
            "def mine(): ...\ndef both(): ...\ndef helper(): ...\ndef deep(): ...\n"
            "def generic(): return helper()\n_private = 1\n"
        ),
        "bot/games/fishing/render/a.py": ast.parse(
            "from bot.render.words import mine, both, helper\nmine(both, helper)\n"
        ),
        "bot/games/collecting/render/b.py": ast.parse("import bot.render.words as w\nw.both()\n"),
        "cogs/c.py": ast.parse("from bot.render import words\nwords.generic()\n"),
        "bot/render/__init__.py": ast.parse("from bot.render.words import mine, deep\n"),
        "bot/render/more.py": ast.parse(
            "from bot.render.words import deep\ndef through(): deep()\n"
        ),
        "bot/games/fishing/c.py": ast.parse(
            "from bot.render import mine\nimport bot.render.more\nbot.render.more.through()\n"
        ),
    }
    assert one_familys(trees) == {
        "bot.render.words.mine": "fishing",
        "bot.render.more.through": "fishing",
        "bot.render.words.deep": "fishing",
    }


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
