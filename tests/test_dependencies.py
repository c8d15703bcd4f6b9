"""Which way dependencies point (docs/architecture.md §2, DESIGN.md §2).

Every module under ``bot/`` and ``cogs/`` is parsed with :mod:`ast`; each import (absolute or
relative, at module level or inside a function) is resolved to an absolute module name and
checked against the rule of the layer the module belongs to. A failure names the file and line,
the module, the offending import and the rule it breaks.

A new top-level module or package under ``bot/`` needs a rule here (and a line in
docs/architecture.md) before the test passes: the layering is a decision, not an accident.

The same imports make a graph of the project's modules, and no two modules may import each
other, directly or through others (an import circle).

The games (``bot/games/``, docs/architecture.md "Games: one place per game") add four rules: a
module under ``bot/games/<family>/<role>/`` belongs to the layer named ``<role>``; the registry
and the descriptors are a layer of their own, ``bot.games`` (standard library only), which the
layers that play games may import; a family's modules are imported only from inside its package
(the kit ``bot/games/dominoes/`` also from any family's, a descriptor also from
``bot/games/__init__.py``); and ``bot.games.load`` is called only by the accessor of a layer,
``bot/<role>/family.py``, with its own role.
"""

from __future__ import annotations

import ast
import sys
from collections import deque
from collections.abc import Container, Iterable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PROJECT_PACKAGES = ("bot", "cogs")
STDLIB = frozenset(sys.stdlib_module_names)

# Third-party distributions that are Discord (simcord is the in-memory Discord for tests).
DISCORD = frozenset({"discord", "simcord"})


@dataclass(frozen=True)
class Rule:
    """What the modules of one layer may import."""

    text: str  # the rule as written in docs/architecture.md, used in failure messages
    internal: frozenset[str]  # project layers it may import (see LAYERS)
    third_party: frozenset[str] | None = frozenset()  # allowed top-level names; None = any
    forbidden: frozenset[str] = frozenset()  # never, even though stdlib / third-party allows it
    eager_stdlib_only: bool = False  # module-level imports: stdlib + `internal` only
    engine_randomness: bool = False  # no module-level `random` functions, only random.Random


# Layers, matched by the longest dotted prefix. "bot" is the package's own __init__. A module of
# bot/games/<family>/<role>/ belongs to the layer bot.<role> (see layer_of).
LAYERS = (
    "bot.games",
    "bot.engine",
    "bot.ai",
    "bot.sim",
    "bot.tournament",
    "bot.storage",
    "bot.services",
    "bot.services.dbtool",
    "bot.services.ratings_cli",
    "bot.render",
    "bot.terminal",
    "bot.lessons",
    "bot.records_cli",
    "bot.ops",
    "bot.puzzles_cli",
    "bot.app",
    "bot.demo",
    "bot.cli",
    "bot.config",
    "bot.limits",
    "bot.logs",
    "bot.locale",
    "bot.__main__",
    "bot",
    "cogs",
)
ALL_LAYERS = frozenset(LAYERS)

# The games (docs/architecture.md, "Games: one place per game").
GAMES = "bot.games"
ROLES = ("engine", "ai", "render", "sim", "terminal", "lessons")  # bot.games.registry.ROLES
REGISTRY_MODULES = frozenset({"bot.games", "bot.games.registry"})
KIT = "dominoes"  # shared by the domino families; not a family, any family may import it
GAME_PACKAGES = frozenset(
    path.parent.name for path in (ROOT / "bot" / "games").glob("*/__init__.py")
) | {KIT}
FACET_ACCESSORS = {f"bot.{role}.family": role for role in ROLES}
NO_ASYNC_NO_DB = frozenset({"asyncio", "sqlite3", "aiosqlite", "asyncpg"})

RULES: dict[str, Rule] = {
    GAMES: Rule(
        "bot.games (the registry, bot/games/__init__.py and each family's descriptor "
        "bot/games/<family>/__init__.py) -> standard library only; every layer that plays "
        "games may import it",
        internal=frozenset({GAMES}),
    ),
    "bot": Rule(
        "bot/__init__.py -> standard library only (it runs before every bot.* module)",
        internal=frozenset(),
    ),
    "bot.engine": Rule(
        "bot.engine -> standard library only (and bot.games); no asyncio, discord, clock (time) or "
        "module-level random functions (take a random.Random)",
        internal=frozenset({"bot.engine", "bot.limits", GAMES}),
        forbidden=frozenset({"asyncio", "time", "sqlite3"}),
        engine_randomness=True,
    ),
    "bot.ai": Rule(
        "bot.ai -> standard library + bot.engine + bot.games (+ numba, numpy for the optional "
        "compiled kernel); no asyncio (the simulator uses it)",
        internal=frozenset({"bot.engine", "bot.ai", "bot.limits", GAMES}),
        third_party=frozenset({"numba", "numpy"}),
        forbidden=NO_ASYNC_NO_DB,
    ),
    "bot.sim": Rule(
        "bot.sim -> standard library + bot.engine + bot.ai + bot.games + third-party tools "
        "(matplotlib, tqdm, numpy …); no asyncio, no database, no discord",
        internal=frozenset({"bot.engine", "bot.ai", "bot.sim", "bot.limits", "bot.locale", GAMES}),
        third_party=None,
        forbidden=NO_ASYNC_NO_DB | DISCORD,
    ),
    "bot.tournament": Rule(
        "bot.tournament -> standard library + bot.games + networkx (a graph library); no "
        "asyncio, no database, no discord, no clock, no module-level random functions (take a "
        "random.Random); results come in as plain values",
        internal=frozenset({"bot.tournament", GAMES}),
        third_party=frozenset({"networkx"}),
        forbidden=NO_ASYNC_NO_DB | frozenset({"time"}),
        engine_randomness=True,
    ),
    "bot.storage": Rule(
        "bot.storage -> standard library + aiosqlite + asyncpg only (no engine, no discord)",
        internal=frozenset({"bot.storage"}),
        third_party=frozenset({"aiosqlite", "asyncpg"}),
    ),
    "bot.services": Rule(
        "bot.services -> standard library + bot.engine + bot.ai + bot.games + bot.lessons + "
        "bot.storage + bot.tournament + bot.logs"
        " + bot.locale + openskill, babel; no discord",
        internal=frozenset(
            {
                "bot.engine",
                "bot.ai",
                "bot.lessons",
                "bot.storage",
                "bot.services",
                "bot.limits",
                "bot.logs",
                "bot.tournament",
                "bot.locale",
                GAMES,
            }
        ),
        third_party=frozenset({"openskill", "babel"}),
    ),
    # The entry points of `kapshap db` and `kapshap ratings`: the services' rule plus bot.config,
    # so they open the database `kapshap run` opens, read from .env the same way.
    **{
        name: Rule(
            f"{name} (the `kapshap {command}` command) -> what bot.services may import + "
            "bot.config (the settings, read as `kapshap run` reads them)",
            internal=frozenset(
                {
                    "bot.engine",
                    "bot.ai",
                    "bot.lessons",
                    "bot.storage",
                    "bot.services",
                    "bot.limits",
                    "bot.logs",
                    "bot.tournament",
                    "bot.locale",
                    "bot.config",
                    GAMES,
                    name,
                }
            ),
            third_party=frozenset({"openskill", "babel"}),
        )
        for name, command in (
            ("bot.services.dbtool", "db"),
            ("bot.services.ratings_cli", "ratings"),
        )
    },
    "bot.render": Rule(
        "bot.render -> standard library + bot.engine + bot.games + bot.tournament (pure values) "
        "+ Pillow",
        internal=frozenset(
            {"bot.engine", "bot.tournament", "bot.render", "bot.limits", "bot.locale", GAMES}
        ),
        third_party=frozenset({"PIL", "babel"}),
    ),
    "bot.terminal": Rule(
        "bot.terminal -> standard library + bot.engine + bot.ai + bot.games + bot.lessons + "
        "bot.locale (Babel)",
        internal=frozenset(
            {
                "bot.engine",
                "bot.ai",
                "bot.terminal",
                "bot.lessons",
                "bot.limits",
                "bot.locale",
                GAMES,
            }
        ),
        third_party=frozenset({"babel"}),
    ),
    "bot.lessons": Rule(
        "bot.lessons -> standard library + bot.engine + bot.ai + bot.games + bot.locale: lessons "
        "are data on fixed deals checked by the engine; no asyncio, no database, no discord",
        internal=frozenset(
            {"bot.engine", "bot.ai", "bot.lessons", "bot.limits", "bot.locale", GAMES}
        ),
        third_party=frozenset({"babel"}),
        forbidden=NO_ASYNC_NO_DB,
    ),
    "bot.records_cli": Rule(
        "bot.records_cli -> standard library + bot.engine + bot.ai + bot.games + bot.locale "
        "(Babel) + "
        "bot.services.review_text at module level; bot.config, the other services and "
        "bot.storage only inside `kapshap record export`",
        internal=frozenset(
            {
                "bot.engine",
                "bot.ai",
                "bot.records_cli",
                "bot.limits",
                "bot.locale",
                "bot.config",
                "bot.services",
                "bot.storage",
                GAMES,
            }
        ),
        third_party=frozenset({"babel"}),
        forbidden=DISCORD,
    ),
    "bot.puzzles_cli": Rule(
        "bot.puzzles_cli -> standard library + bot.engine + bot.ai + bot.games + bot.locale "
        "(Babel) + bot.services.review_text and bot.services.puzzle_text (`kapshap puzzle`, "
        "`kapshap puzzles build`; no storage)",
        internal=frozenset(
            {
                "bot.engine",
                "bot.ai",
                "bot.puzzles_cli",
                "bot.limits",
                "bot.locale",
                "bot.services",
                GAMES,
            }
        ),
        third_party=frozenset({"babel"}),
        forbidden=DISCORD,
    ),
    "cogs": Rule(
        "cogs -> discord, bot.services, bot.render, bot.engine value types; "
        "never bot.storage or bot.sim",
        internal=ALL_LAYERS - {"bot.storage", "bot.sim"},
        third_party=None,
    ),
    "bot.ops": Rule(
        "bot.ops -> standard library + bot.storage (timings, pool use, bounded counts) + "
        "discord (the shards), prometheus_client, aiohttp; never the cogs, the services or "
        "bot.app (which builds it)",
        internal=frozenset({"bot.ops", "bot.storage", "bot.limits"}),
        third_party=frozenset({"discord", "prometheus_client", "aiohttp"}),
    ),
    "bot.app": Rule("bot.app -> anything (composition root)", ALL_LAYERS, third_party=None),
    "bot.demo": Rule(
        "bot.demo -> anything: the second composition root (`kapshap demo`), the bot of "
        "bot.app on simcord's in-memory Discord and its browser preview",
        ALL_LAYERS,
        third_party=None,
    ),
    "bot.config": Rule(
        "bot.config -> standard library only (every entry point, bot.cli included, loads it)",
        internal=frozenset({"bot.config", "bot.limits"}),
    ),
    "bot.locale": Rule(
        "bot.locale -> standard library + Babel (the message catalogues); every layer but the "
        "engine, the AI and the pure formats may import it",
        internal=frozenset({"bot.locale"}),
        third_party=frozenset({"babel"}),
    ),
    "bot.limits": Rule(
        "bot.limits -> standard library only; every layer may import it (shared bounds)",
        internal=frozenset({"bot.limits"}),
    ),
    "bot.logs": Rule(
        "bot.logs -> standard library only; every layer may import it (the log lines' "
        "context ids, formats and secret masking)",
        internal=frozenset({"bot.logs"}),
    ),
    "bot.cli": Rule(
        "bot.cli -> anything, but imported lazily inside the subcommand handlers: its "
        "module-level imports are standard library + bot.config only, so `kapshap sim` "
        "never imports discord",
        ALL_LAYERS,
        third_party=None,
        eager_stdlib_only=True,
    ),
    "bot.__main__": Rule(
        "bot.__main__ -> bot.cli (module-level imports standard library + bot.cli only)",
        ALL_LAYERS,
        third_party=None,
        eager_stdlib_only=True,
    ),
}
# Module-level imports allowed to eager_stdlib_only layers, besides the standard library.
EAGER_INTERNAL = frozenset({"bot.cli", "bot.config", "bot.limits"})


@dataclass(frozen=True)
class Import:
    """One imported name, resolved to an absolute dotted name."""

    target: str  # e.g. "bot.storage" for `from .. import storage` in bot.services.chips
    statement: str  # the source text of the import statement
    lineno: int
    lazy: bool  # inside a function body or an `if TYPE_CHECKING:` block


@dataclass(frozen=True)
class Violation:
    module: str
    path: str
    lineno: int
    statement: str
    problem: str
    rule: str

    def __str__(self) -> str:
        return (
            f"{self.path}:{self.lineno}: {self.module}: `{self.statement}` {self.problem}\n"
            f"    rule: {self.rule}"
        )


def layer_of(name: str) -> str | None:
    """The layer of a project module (longest dotted prefix), or None outside the project. A
    family's role belongs to the layer it is named after: ``bot.games.fishing.render.words`` is
    in ``bot.render``."""
    parts = name.split(".")
    if parts[:2] == ["bot", "games"] and len(parts) >= 4 and parts[3] in ROLES:
        return f"bot.{parts[3]}"
    for layer in sorted(LAYERS, key=len, reverse=True):
        if name == layer or name.startswith(layer + "."):
            return layer
    return None


def module_name(path: Path, root: Path = ROOT) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def is_package(path: Path) -> bool:
    return path.name == "__init__.py"


def _resolve_relative(module: str, package: bool, level: int, name: str | None) -> str:
    base = module.split(".") if package else module.split(".")[:-1]
    if level - 1 > len(base) - 1:
        raise ValueError(f"relative import beyond the top-level package in {module}")
    base = base[: len(base) - (level - 1)]
    return ".".join([*base, name] if name else base)


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def iter_imports(tree: ast.Module, module: str, package: bool, source: str) -> Iterator[Import]:
    """Every import in ``tree``, resolved. ``from X import a, b`` inside the project yields
    ``X.a`` and ``X.b`` (they may be submodules: ``from bot import storage``)."""

    def visit(node: ast.AST, lazy: bool) -> Iterator[Import]:
        for child in ast.iter_child_nodes(node):
            child_lazy = lazy or isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef)
            if isinstance(child, ast.If) and _is_type_checking(child.test):
                for stmt in child.body:
                    yield from visit_stmt(stmt, True)
                for stmt in child.orelse:
                    yield from visit_stmt(stmt, lazy)
                continue
            yield from visit_stmt(child, child_lazy)

    def visit_stmt(node: ast.AST, lazy: bool) -> Iterator[Import]:
        if isinstance(node, ast.Import | ast.ImportFrom):
            statement = ast.get_source_segment(source, node) or ast.unparse(node)
            for target in _targets(node, module, package):
                yield Import(target, " ".join(statement.split()), node.lineno, lazy)
        yield from visit(node, lazy or isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef))

    yield from visit(tree, False)


def _targets(node: ast.Import | ast.ImportFrom, module: str, package: bool) -> list[str]:
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names]
    if node.level:
        base = _resolve_relative(module, package, node.level, node.module)
    else:
        base = node.module or ""
    if base.split(".")[0] in PROJECT_PACKAGES:
        return [base if alias.name == "*" else f"{base}.{alias.name}" for alias in node.names]
    return [base]


def _random_aliases(tree: ast.Module) -> set[str]:
    return {
        alias.asname or alias.name
        for node in ast.walk(tree)
        if isinstance(node, ast.Import)
        for alias in node.names
        if alias.name == "random"
    }


def check_randomness(tree: ast.Module) -> Iterator[tuple[int, str, str]]:
    """Uses of the module-level ``random`` functions: ``(line, statement, problem)``."""
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module == "random" and not node.level:
            for alias in node.names:
                if alias.name != "Random":
                    yield (
                        node.lineno,
                        ast.unparse(node),
                        f"imports random.{alias.name}; only random.Random may be used",
                    )
    aliases = _random_aliases(tree)
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Attribute)
            and isinstance(node.value, ast.Name)
            and node.value.id in aliases
            and node.attr != "Random"
        ):
            yield (
                node.lineno,
                ast.unparse(node),
                "uses a module-level random function; take a random.Random argument",
            )


def check_import(rule: Rule, imp: Import) -> str | None:
    """Why ``imp`` breaks ``rule``, or None when it is allowed."""
    top = imp.target.split(".")[0]
    layer = layer_of(imp.target) if top in PROJECT_PACKAGES else None
    forbidden = next(
        (f for f in rule.forbidden if imp.target == f or imp.target.startswith(f + ".")), None
    )
    if forbidden is not None:
        return f"imports {forbidden!r}, which this layer must not use"
    if rule.eager_stdlib_only and not imp.lazy:
        if top in STDLIB or (layer is not None and layer in EAGER_INTERNAL):
            return None
        return (
            f"imports {imp.target!r} at module level; import it inside the function that needs it"
        )
    if top in PROJECT_PACKAGES:
        if layer is None or layer not in rule.internal:
            return f"imports {imp.target!r} (layer {layer or top!r}), which this layer may not"
        return None
    if top in STDLIB:
        return None
    if rule.third_party is None or top in rule.third_party:
        return None
    return f"imports the third-party package {top!r}, which this layer may not"


GAMES_LAYOUT = (
    "bot/games/ holds the registry (__init__.py, registry.py) and one package per family (and "
    "the kit dominoes/): the package's __init__.py is its descriptor, every other module lives "
    "in a role package (engine, ai, render, sim, terminal) and belongs to that layer"
)
SEALED = (
    "a family is sealed: only its own modules import it (the kit bot/games/dominoes/ also any "
    "family's, a descriptor also bot/games/__init__.py); everything else asks the family "
    "through its layer's accessor: engine_of, ai_of, render_of, sim_of, terminal_of"
)
FACETS = (
    "bot.games.load(game, role) is called only by the accessor of the layer named role, "
    "bot/<role>/family.py, with that role as a literal"
)


def placement_problem(module: str, package: bool) -> str | None:
    """Why a module under bot/games/ is not where a module of the games may be, or None."""
    parts = module.split(".")
    if parts[:2] != ["bot", "games"] or module in REGISTRY_MODULES:
        return None
    if len(parts) == 3 and not package:
        return "is a module of bot/games/ that is neither the registry nor a family's package"
    if len(parts) >= 4 and parts[3] not in ROLES:
        return f"is a module of the family '{parts[2]}' outside its role packages"
    return None


def sealed_problem(module: str, target: str) -> str | None:
    """Why ``module`` may not import ``target`` (a family's module), or None."""
    parts = target.split(".")
    if parts[:2] != ["bot", "games"] or len(parts) < 3 or parts[2] not in GAME_PACKAGES:
        return None  # not a family: the registry (bot.games.find, bot.games.registry ...)
    family = parts[2]
    importer = module.split(".")
    in_games = importer[:2] == ["bot", "games"] and len(importer) >= 3
    if in_games and importer[2] == family:
        return None  # inside the family
    if family == KIT and in_games and importer[2] in GAME_PACKAGES:
        return None  # a family (or the kit) uses the kit
    descriptor = len(parts) == 3 or (len(parts) == 4 and parts[3] not in ROLES)
    if module == GAMES and descriptor:
        return None  # bot/games/__init__.py registers the descriptors
    return f"imports {target!r}, a module of the game family {family!r}"


def check_facet_loads(
    tree: ast.Module, module: str, package: bool
) -> Iterator[tuple[int, str, str]]:
    """Calls of ``bot.games.load`` (``(line, statement, problem)``) outside the accessor of
    their layer, or with another role than its own."""
    functions: set[str] = set()  # local names of bot.games.load
    modules = {"bot.games", "bot.games.registry"}  # expressions that are those modules
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            base = (
                _resolve_relative(module, package, node.level, node.module)
                if node.level
                else node.module or ""
            )
            for alias in node.names:
                if base in REGISTRY_MODULES and alias.name == "load":
                    functions.add(alias.asname or alias.name)
                if f"{base}.{alias.name}" in REGISTRY_MODULES:
                    modules.add(alias.asname or alias.name)
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name in REGISTRY_MODULES and alias.asname:
                    modules.add(alias.asname)
    own_role = FACET_ACCESSORS.get(module)
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        is_load = (isinstance(func, ast.Name) and func.id in functions) or (
            isinstance(func, ast.Attribute)
            and func.attr == "load"
            and ast.unparse(func.value) in modules
        )
        if not is_load:
            continue
        if own_role is None:
            yield node.lineno, ast.unparse(node), "loads a family's facet outside an accessor"
            continue
        role = node.args[1] if len(node.args) > 1 else None
        role = role or next((k.value for k in node.keywords if k.arg == "role"), None)
        if not (isinstance(role, ast.Constant) and role.value == own_role):
            yield node.lineno, ast.unparse(node), f"loads another role than {own_role!r}"


def check_source(
    source: str, module: str, *, package: bool = False, path: str = ""
) -> list[Violation]:
    """All violations of the dependency rules in ``source``, as if it were ``module``."""
    path = path or module.replace(".", "/") + ("/__init__.py" if package else ".py")
    layer = layer_of(module)
    if layer is None or layer not in RULES or (layer == "bot" and module != "bot"):
        return [
            Violation(
                module,
                path,
                1,
                "",
                "has no dependency rule",
                "every module under bot/ and cogs/ belongs to a layer of "
                "docs/architecture.md §2; add one to RULES in tests/test_dependencies.py",
            )
        ]
    rule = RULES[layer]
    placement = placement_problem(module, package)
    if placement is not None:
        return [Violation(module, path, 1, "", placement, GAMES_LAYOUT)]
    try:
        tree = ast.parse(source, filename=path)
    except SyntaxError as exc:
        return [Violation(module, path, exc.lineno or 1, "", f"does not parse: {exc.msg}", "")]
    violations: list[Violation] = []
    try:
        imports = list(iter_imports(tree, module, package, source))
    except ValueError as exc:
        return [Violation(module, path, 1, "", str(exc), rule.text)]
    for imp in imports:
        problem = check_import(rule, imp)
        if problem is not None:
            violations.append(
                Violation(module, path, imp.lineno, imp.statement, problem, rule.text)
            )
        sealed = sealed_problem(module, imp.target)
        if sealed is not None:
            violations.append(Violation(module, path, imp.lineno, imp.statement, sealed, SEALED))
    for lineno, statement, problem in check_facet_loads(tree, module, package):
        violations.append(Violation(module, path, lineno, statement, problem, FACETS))
    if rule.engine_randomness:
        for lineno, statement, problem in check_randomness(tree):
            violations.append(Violation(module, path, lineno, statement, problem, rule.text))
    return violations


def project_modules(root: Path = ROOT) -> list[Path]:
    return sorted(
        path
        for package in PROJECT_PACKAGES
        for path in (root / package).rglob("*.py")
        if "__pycache__" not in path.parts
    )


MODULES = project_modules()


def test_the_walk_finds_the_project() -> None:
    names = {module_name(path) for path in MODULES}
    assert {"bot", "bot.engine", "bot.cli", "bot.config", "cogs"} <= names


@pytest.mark.parametrize("path", MODULES, ids=[module_name(p) for p in MODULES])
def test_module_respects_the_dependency_rules(path: Path) -> None:
    violations = check_source(
        path.read_text(encoding="utf-8"),
        module_name(path),
        package=is_package(path),
        path=str(path.relative_to(ROOT)),
    )
    assert not violations, "dependency rule broken:\n" + "\n".join(map(str, violations))


# --------------------------------------------------------------------------------------------
# The checker itself: it must catch what it is meant to catch.


def problems(source: str, module: str, *, package: bool = False) -> list[str]:
    return [f"{v.statement} | {v.problem}" for v in check_source(source, module, package=package)]


def test_checker_catches_discord_in_the_engine() -> None:
    found = check_source("import discord\n", "bot.engine.tiles")
    assert len(found) == 1
    assert found[0].module == "bot.engine.tiles"
    assert found[0].statement == "import discord"
    assert "discord" in found[0].problem
    assert found[0].rule.startswith("bot.engine -> standard library only")
    assert "bot/engine/tiles.py:1: bot.engine.tiles: `import discord`" in str(found[0])


@pytest.mark.parametrize(
    ("source", "module"),
    [
        ("import asyncio\n", "bot.engine.game"),
        ("import time\n", "bot.engine.game"),
        ("from time import monotonic\n", "bot.engine.game"),
        ("import numpy\n", "bot.engine.game"),
        ("from bot.ai import greedy\n", "bot.engine.game"),
        ("from bot import storage\n", "bot.engine.game"),
        ("from .. import storage\n", "bot.engine.game"),
        ("from ..sim import runner\n", "bot.engine"),
        ("from bot.services import tables\n", "bot.ai.greedy"),
        ("import asyncio\n", "bot.ai.greedy"),
        ("import asyncio\n", "bot.sim.runner"),
        ("import aiosqlite\n", "bot.sim.runner"),
        ("import discord.ext.commands\n", "bot.sim.runner"),
        ("from bot.storage import db\n", "bot.sim.runner"),
        ("from bot.engine import Tile\n", "bot.storage.games"),
        ("import discord\n", "bot.services.tables"),
        ("from discord import Interaction\n", "bot.services.tables"),
        ("def f() -> None:\n    import discord\n", "bot.services.tables"),
        ("import matplotlib\n", "bot.render.tiles"),
        ("from bot.storage import db\n", "cogs.table"),
        ("from bot.sim import runner\n", "cogs.table"),
        ("from ..storage import db\n", "bot.terminal"),
        ("import discord\n", "bot.cli"),
        ("from bot.app import main\n", "bot.cli"),
        ("import discord\n", "bot.config"),
        ("import discord\n", "bot"),
        ("from random import shuffle\n", "bot.engine.deal"),
        (
            "import random\n\ndef f(x: list[int]) -> None:\n    random.shuffle(x)\n",
            "bot.engine.deal",
        ),
        ("import random as r\nr.seed(1)\n", "bot.engine.deal"),
        ("import os\n", "bot.helpers"),
        ("import asyncio\n", "bot.tournament.event"),
        ("import aiosqlite\n", "bot.tournament.event"),
        ("import discord\n", "bot.tournament.event"),
        ("import PIL\n", "bot.tournament.event"),
        ("from bot.engine import Tile\n", "bot.tournament.event"),
        ("from bot.storage import db\n", "bot.tournament.event"),
        ("import random\nrandom.shuffle([])\n", "bot.tournament.model"),
    ],
)
def test_checker_catches_violations(source: str, module: str) -> None:
    assert problems(source, module, package=module in {"bot", "bot.engine", "bot.terminal"})


@pytest.mark.parametrize(
    ("source", "module"),
    [
        ("from __future__ import annotations\nimport dataclasses\n", "bot.engine.tiles"),
        ("import random\n\ndef f(rng: random.Random) -> None: ...\n", "bot.engine.deal"),
        ("from random import Random\n", "bot.engine.deal"),
        ("from datetime import date\n", "bot.engine.record"),
        ("from . import tiles\nfrom .tiles import Tile\n", "bot.engine.game"),
        ("from bot.engine import Tile\nfrom ..engine.game import apply\n", "bot.ai.greedy"),
        ("import matplotlib.pyplot as plt\nimport tqdm\nimport numpy\n", "bot.sim.plots"),
        ("from bot.ai import greedy\nfrom bot.engine import new_game\n", "bot.sim.runner"),
        ("import aiosqlite\nimport sqlite3\nfrom .db import Database\n", "bot.storage.games"),
        (
            "import asyncio\nfrom bot.storage import db\nfrom bot.ai import greedy\n",
            "bot.services.t",
        ),
        ("from PIL import Image\nfrom bot.engine import Tile\n", "bot.render.tiles"),
        ("import networkx as nx\nfrom random import Random\n", "bot.tournament.swiss"),
        ("import discord\nfrom bot.services import tables\nfrom bot.render import t\n", "cogs.t"),
        (
            "from bot.engine import Tile\nfrom bot.ai import greedy\nimport asyncio\n",
            "bot.terminal",
        ),
        ("import discord\nfrom bot.storage import db\nfrom bot.sim import runner\n", "bot.app"),
        ("import simcord\nfrom aiohttp import web\nfrom bot.app import create_bot\n", "bot.demo"),
        ("import argparse\nfrom bot.config import load_settings\n", "bot.cli"),
        ("def run() -> int:\n    from bot.app import main\n    return main([])\n", "bot.cli"),
        ("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    import discord\n", "bot.cli"),
        ("from bot.cli import main\n", "bot.__main__"),
        ("", "bot"),
    ],
)
def test_checker_allows_what_the_rules_allow(source: str, module: str) -> None:
    assert problems(source, module, package=module in {"bot", "bot.terminal"}) == []


# The games: a role is a layer, families are sealed, facets are loaded by the accessors only.

# (source, module, is a package)
GAMES_VIOLATIONS = [
    ("import discord\n", "bot.games.registry", False),
    ("from bot.engine import Tile\n", "bot.games.collecting", True),  # a descriptor is data
    ("from bot.games.collecting.engine import family\n", "bot.games", True),  # a role
    ("import os\n", "bot.games.helpers", False),  # neither registry nor family
    ("import os\n", "bot.games.collecting.helpers", False),  # outside the role packages
    ("import discord\n", "bot.games.collecting.render.words", False),  # render: no discord
    ("from bot.render import text\n", "bot.games.collecting.engine.family", False),
    ("from bot.games.collecting.render import words\n", "bot.games.collecting.engine.x", False),
    ("import asyncio\n", "bot.games.fishing.ai.family", False),
    # Sealed: another family, a layer outside bot/games, a descriptor imported elsewhere.
    ("from bot.games.fishing.engine import family\n", "bot.games.collecting.engine.x", False),
    ("from bot.games.collecting.engine.family import FACET\n", "bot.services.tables", False),
    ("from bot.games.collecting import KAP_SHAP\n", "cogs.tables", False),
    ("from ..games.fishing.render import family\n", "bot.render.text", False),
    ("from bot.games.collecting.engine import family\n", "bot.games.dominoes.engine.x", False),
    # Facets: only the accessor of a layer loads, and only its own role.
    ("from bot.games import load\nload('kap-shap', 'engine')\n", "bot.services.tables", False),
    ("from bot import games\ngames.load(g, 'ai')\n", "cogs.desk", False),
    ("from bot.games import load\nload(g, 'render')\n", "bot.engine.family", False),
    ("import bot.games as g\ng.load(game, role)\n", "bot.ai.family", False),
    ("from bot.games.registry import load as fetch\nfetch(g, 'sim')\n", "bot.sim.x", False),
]

GAMES_ALLOWED = [
    ("import re\nfrom dataclasses import dataclass\n", "bot.games.registry", False),
    ("from bot.games.registry import GameInfo\n", "bot.games.collecting", True),
    ("from bot.games.collecting import FAMILY\n", "bot.games", True),
    ("from bot.games import find, default_game\n", "bot.services.tables", False),
    ("from bot.games import games\n", "bot.engine.rules", False),
    ("from bot.games import find\n", "bot.tournament.model", False),
    ("from bot.games import games\nimport discord\n", "cogs.tables", False),
    (
        "from bot.engine import Tile\nfrom bot.games.dominoes.engine import tiles\n",
        "bot.games.fishing.engine.family",
        False,
    ),
    (
        "from bot.games.collecting.engine.family import FACET\n",
        "bot.games.collecting.render.family",
        False,
    ),
    ("from ..engine import state\nfrom PIL import Image\n", "bot.games.fishing.render.x", False),
    ("import numba\nfrom bot.ai import jit\n", "bot.games.collecting.ai.kernel", False),
    (
        "from bot.games import load\n\ndef engine_of(g):\n    return load(g, 'engine')\n",
        "bot.engine.family",
        False,
    ),
    (
        "from bot.games import load\n\ndef sim_of(g):\n    return load(g, role='sim')\n",
        "bot.sim.family",
        False,
    ),
]


@pytest.mark.parametrize(("source", "module", "package"), GAMES_VIOLATIONS)
def test_checker_catches_games_violations(source: str, module: str, package: bool) -> None:
    assert problems(source, module, package=package)


@pytest.mark.parametrize(("source", "module", "package"), GAMES_ALLOWED)
def test_checker_allows_what_the_games_rules_allow(source: str, module: str, package: bool) -> None:
    assert problems(source, module, package=package) == []


def test_a_role_belongs_to_its_layer() -> None:
    assert layer_of("bot.games.fishing.render.words") == "bot.render"
    assert layer_of("bot.games.collecting.engine") == "bot.engine"
    assert layer_of("bot.games.dominoes.sim.seeding") == "bot.sim"
    assert layer_of("bot.games.collecting.terminal.family") == "bot.terminal"
    assert layer_of("bot.games.collecting") == "bot.games"
    assert layer_of("bot.games.registry") == "bot.games"
    assert layer_of("bot.games.find") == "bot.games"
    (found,) = check_source("import os\n", "bot.games.collecting.helpers")
    assert "outside its role packages" in found.problem and "role package" in found.rule
    (found,) = check_source("from bot.games.fishing import FAMILY\n", "cogs.tables")
    assert "game family 'fishing'" in found.problem and "engine_of" in found.rule


def test_the_built_in_families_and_the_kit_are_found() -> None:
    assert {"collecting", "fishing", KIT} <= GAME_PACKAGES


def test_relative_imports_resolve_to_absolute_names() -> None:
    def targets(source: str, module: str, package: bool) -> list[str]:
        tree = ast.parse(source)
        return [imp.target for imp in iter_imports(tree, module, package, source)]

    assert targets("from . import x", "bot.engine.game", False) == ["bot.engine.x"]
    assert targets("from . import x", "bot.engine", True) == ["bot.engine.x"]
    assert targets("from .. import storage", "bot.services.chips", False) == ["bot.storage"]
    assert targets("from ..ai.greedy import G", "bot.sim.run", False) == ["bot.ai.greedy.G"]
    assert targets("from .tiles import *", "bot.engine.game", False) == ["bot.engine.tiles"]
    assert targets("import os.path, json", "bot.engine", True) == ["os.path", "json"]
    assert targets("from os import path", "bot.engine", True) == ["os"]
    with pytest.raises(ValueError, match="beyond the top-level package"):
        targets("from ... import x", "bot.engine", True)


# --------------------------------------------------------------------------------------------
# Import circles: no module may import itself back through others (docs/architecture.md §2).


@dataclass(frozen=True)
class Edge:
    """One module importing another project module (its first such import)."""

    path: str  # the importing file, relative to the root
    lineno: int


Graph = dict[str, dict[str, Edge]]
"""module -> {project module it imports -> where}."""


def imported_module(target: str, modules: Container[str]) -> str | None:
    """The project module an import target lands in: the longest dotted prefix that is a module
    (``bot.engine.Tile`` -> ``bot.engine``, the package whose ``__init__`` Python runs)."""
    parts = target.split(".")
    while parts:
        name = ".".join(parts)
        if name in modules:
            return name
        parts.pop()
    return None


def import_graph(sources: Mapping[str, tuple[str, str, bool]]) -> Graph:
    """The graph of ``{module: (source, path, is_package)}``. Every import counts, at module
    level, inside a function or under ``if TYPE_CHECKING:``: a circle of lazy imports still
    ties the modules together, and one import moved to the top turns it into a crash."""
    graph: Graph = {}
    for module, (source, path, package) in sources.items():
        edges: dict[str, Edge] = {}
        for imp in iter_imports(ast.parse(source, filename=path), module, package, source):
            if imp.target.split(".")[0] not in PROJECT_PACKAGES:
                continue
            found = imported_module(imp.target, sources)
            if found is not None and found != module and found not in edges:
                edges[found] = Edge(path, imp.lineno)
        graph[module] = edges
    return graph


def circles(graph: Graph) -> list[frozenset[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm, without
    recursion)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[frozenset[str]] = []

    def enter(node: str) -> tuple[str, Iterator[str]]:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        return node, iter(sorted(graph[node]))

    for root in sorted(graph):
        if root in index:
            continue
        work = [enter(root)]
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    work.append(enter(child))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                component = set()
                while (member := stack.pop()) != node:
                    on_stack.discard(member)
                    component.add(member)
                on_stack.discard(node)
                component.add(node)
                if len(component) > 1:
                    found.append(frozenset(component))
    return found


def cycle_text(graph: Graph, component: frozenset[str], paths: Mapping[str, str]) -> str:
    """A shortest cycle through the component's first module, as ``a.py:12 -> b.py:30 ->
    a.py``: each file with the line where it imports the next."""
    start = min(component)
    parent: dict[str, str | None] = {start: None}
    queue = deque([start])
    while queue:
        node = queue.popleft()
        if start in graph[node]:
            break
        for child in sorted(graph[node]):
            if child in component and child not in parent:
                parent[child] = node
                queue.append(child)
    else:
        raise ValueError(f"no cycle through {start}")
    chain = [node]
    while (up := parent[chain[-1]]) is not None:
        chain.append(up)
    chain.reverse()
    edges = [graph[a][b] for a, b in zip(chain, [*chain[1:], start], strict=True)]
    return " -> ".join([*(f"{e.path}:{e.lineno}" for e in edges), paths[start]])


def circle_problems(graph: Graph, paths: Mapping[str, str]) -> list[str]:
    """Every circle of the graph, as a shortest cycle and its modules."""
    return [
        f"import circle: {cycle_text(graph, component, paths)}\n"
        f"    its modules: {', '.join(sorted(component))}"
        for component in sorted(circles(graph), key=min)
    ]


def _synthetic(
    sources: Mapping[str, str], packages: Iterable[str] = ()
) -> tuple[Graph, dict[str, str]]:
    inits = set(packages)
    parts = {
        m: (src, m.replace(".", "/") + ("/__init__.py" if m in inits else ".py"), m in inits)
        for m, src in sources.items()
    }
    return import_graph(parts), {m: path for m, (_, path, _) in parts.items()}


def test_no_import_circles() -> None:
    sources = {
        module_name(path): (
            path.read_text(encoding="utf-8"),
            str(path.relative_to(ROOT)),
            is_package(path),
        )
        for path in MODULES
    }
    graph = import_graph(sources)
    paths = {module: path for module, (_, path, _) in sources.items()}
    problems = circle_problems(graph, paths)
    assert not problems, "\n".join(problems)


def test_checker_finds_a_circle_of_lazy_and_type_checking_imports() -> None:
    graph, paths = _synthetic(
        {
            "bot.x.a": "from bot.x import b\n",
            "bot.x.b": "def f() -> None:\n    from .c import thing\n",
            "bot.x.c": (
                "from typing import TYPE_CHECKING\n\nif TYPE_CHECKING:\n    import bot.x.a\n"
            ),
            "bot.x.d": "from bot.x.a import thing\n",  # imports the circle, is not in it
        }
    )
    assert circles(graph) == [frozenset({"bot.x.a", "bot.x.b", "bot.x.c"})]
    (problem,) = circle_problems(graph, paths)
    assert "bot/x/a.py:1 -> bot/x/b.py:2 -> bot/x/c.py:4 -> bot/x/a.py" in problem
    assert "bot.x.a, bot.x.b, bot.x.c" in problem


def test_checker_prints_a_shortest_cycle() -> None:
    graph, paths = _synthetic(
        {
            "bot.x.a": "import bot.x.b\nimport bot.x.c\n",
            "bot.x.b": "import bot.x.c\n",
            "bot.x.c": "import bot.x.a\n",
        }
    )
    assert (
        cycle_text(graph, circles(graph)[0], paths) == "bot/x/a.py:2 -> bot/x/c.py:1 -> bot/x/a.py"
    )


def test_checker_finds_a_module_importing_its_own_package() -> None:
    graph, paths = _synthetic(
        {"bot.y": "from bot.y.z import Z\n", "bot.y.z": "from bot.y import helper\n"},
        packages={"bot.y"},
    )
    (problem,) = circle_problems(graph, paths)
    assert "bot/y/__init__.py:1 -> bot/y/z.py:1 -> bot/y/__init__.py" in problem


def test_checker_allows_imports_that_go_one_way() -> None:
    graph, paths = _synthetic(
        {
            "bot.y": "from bot.y.z import Z\n",
            "bot.y.z": "from bot.y.w import W\nimport bot.engine\n",
            "bot.y.w": "",
            "bot.engine": "import os\n",
            "cogs.t": "from bot.y import Z\nfrom bot.y.w import W\n",
        },
        packages={"bot.y", "bot.engine"},
    )
    assert circles(graph) == []
    assert circle_problems(graph, paths) == []
