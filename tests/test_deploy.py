"""The deployment files (docs/operations.md): the compose files, the Dockerfile, the systemd unit.

No Docker engine runs here, so nothing builds or starts a container. What can be proven without
one is: the compose files are valid against the Compose Specification's JSON schema (the copy
check-jsonschema vendors, ``vendor.compose-spec``) and refer to each other consistently; every
setting they set is a real one and loads; the bot services run every shard once; and the
commands the image and the services run (the entry point, the image's RUN steps, the migration,
the backup loop's command, the health check) run here, outside a container, with the image's
environment. docs/operations.md, "What is not tested", says what is left.
"""

from __future__ import annotations

import http.server
import importlib.resources
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import threading
import time
import tomllib
from collections.abc import Iterator
from fnmatch import fnmatch
from pathlib import Path
from typing import Any

import jsonschema
import pytest
import yaml

from bot import cli
from bot.ai.warm import MASTER_GAMES
from bot.config import DEFAULTS, load_settings
from bot.storage import cli as storage_cli
from tests.postgres import PostgresServer

ROOT = Path(__file__).resolve().parents[1]
COMPOSE_FILES = ("compose.yaml", "compose.sqlite.yaml")
UNIT = ROOT / "deploy" / "systemd" / "kapshap@.service"

#: What the official postgres image reads from its environment.
POSTGRES_IMAGE_SETTINGS = frozenset(
    {
        "POSTGRES_USER",
        "POSTGRES_PASSWORD",
        "POSTGRES_PASSWORD_FILE",
        "POSTGRES_DB",
        "POSTGRES_INITDB_ARGS",
        "POSTGRES_INITDB_WALDIR",
        "POSTGRES_HOST_AUTH_METHOD",
        "PGDATA",
    }
)


#: A password for ``${POSTGRES_PASSWORD}`` while the files are read (the real one is in .env).
PASSWORD = "compose-test-password"


# --------------------------------------------------------------------------------------------
# Reading the files


def compose(name: str) -> dict[str, Any]:
    """A compose file as compose reads it: YAML (anchors and merge keys resolved)."""
    data = yaml.safe_load((ROOT / name).read_text(encoding="utf-8"))
    assert isinstance(data, dict)
    return data


_VARIABLE = re.compile(r"\$\{(?P<name>[A-Z_][A-Z0-9_]*)(?:(?P<op>:?[-?])(?P<arg>[^}]*))?\}")


def interpolate(value: str, env: dict[str, str]) -> str:
    """Compose's ``${NAME}``, ``${NAME:-default}`` and ``${NAME:?error}``, as ``up`` does."""

    def one(match: re.Match[str]) -> str:
        name, op, arg = match["name"], match["op"], match["arg"]
        if env.get(name):
            return env[name]
        if op and op.endswith("?"):
            raise ValueError(f"{name}: {arg}")
        return arg if op and op.endswith("-") else ""

    return _VARIABLE.sub(one, value.replace("$$", "\0")).replace("\0", "$")


def environment(service: dict[str, Any], env: dict[str, str] | None = None) -> dict[str, str]:
    """The variables a service sets (``environment:``), interpolated."""
    given = service.get("environment") or {}
    if isinstance(given, list):
        given = dict(item.split("=", 1) for item in given)
    values = {"POSTGRES_PASSWORD": PASSWORD} if env is None else env
    return {key: interpolate(str(value), values) for key, value in given.items()}


def bot_services(data: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """The services that run the bot: the image's entry point and its default command."""
    return {
        name: service
        for name, service in data["services"].items()
        if str(service.get("image", "")).startswith("kapshap:")
        and "entrypoint" not in service
        and service.get("command") in (None, ["run"], "run")
    }


def kapshap() -> list[str]:
    """The ``kapshap`` command of this environment (the console script beside the Python)."""
    script = Path(sys.executable).with_name("kapshap")
    return [str(script)] if script.is_file() else [sys.executable, "-m", "bot"]


def run(argv: list[str], env: dict[str, str], cwd: Path) -> subprocess.CompletedProcess[str]:
    """Run an entry command as the image would: its environment over this one's."""
    return subprocess.run(
        argv,
        env={**os.environ, **env},
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )


# --------------------------------------------------------------------------------------------
# The compose files


@pytest.fixture(scope="module")
def compose_schema() -> dict[str, Any]:
    """The Compose Specification's schema, as check-jsonschema vendors it."""
    vendor = importlib.resources.files("check_jsonschema.builtin_schemas.vendor")
    schema: dict[str, Any] = json.loads(vendor.joinpath("compose-spec.json").read_text("utf-8"))
    assert schema["title"] == "Compose Specification"
    return schema


@pytest.mark.parametrize("name", COMPOSE_FILES)
def test_the_compose_file_is_valid_against_the_compose_specification(
    name: str, compose_schema: dict[str, Any]
) -> None:
    validator = jsonschema.validators.validator_for(compose_schema)(compose_schema)
    data = compose(name)
    assert [error.message for error in validator.iter_errors(data)] == []
    # The schema is strict enough to catch a slip: a misspelt key of a service.
    [first] = list(data["services"])[:1]
    slip = {**data, "services": {**data["services"], first: {"imgae": "kapshap:latest"}}}
    assert any("imgae" in error.message for error in validator.iter_errors(slip))


@pytest.mark.parametrize("name", COMPOSE_FILES)
def test_what_the_services_wait_for_exists_and_the_image_is_built(name: str) -> None:
    data = compose(name)
    services = data["services"]
    for service in services.values():
        for needed, how in (service.get("depends_on") or {}).items():
            assert needed in services
            condition = how["condition"]
            if condition == "service_healthy":
                assert "healthcheck" in services[needed]
            if condition == "service_completed_successfully":
                assert services[needed].get("restart") == "no"
        for volume in service.get("volumes") or []:
            assert volume.split(":")[0] in (data.get("volumes") or {})
    # The one image every kapshap service runs is built by one of them, from this folder.
    images = {s["image"] for s in services.values() if s.get("image", "").startswith("kapshap:")}
    builders = [s for s in services.values() if "build" in s]
    assert len(images) == 1 and builders and all(s["image"] in images for s in builders)
    assert all(s["build"] == "." for s in builders) and (ROOT / "Dockerfile").is_file()
    assert bot_services(data)


def test_postgresql_is_health_checked_and_migrated_before_the_bots_start() -> None:
    services = compose("compose.yaml")["services"]
    db = services["db"]
    assert db["image"].startswith("postgres:")
    assert db["healthcheck"]["test"][:2] == ["CMD", "pg_isready"]
    [migrate] = [s for s in services.values() if s.get("command") == ["db", "migrate"]]
    assert migrate["depends_on"]["db"]["condition"] == "service_healthy"
    bots = bot_services(compose("compose.yaml"))
    assert len(bots) >= 2
    for service in bots.values():
        waits = {k: v["condition"] for k, v in service["depends_on"].items()}
        assert waits["db"] == "service_healthy"
        assert any(
            services[k] is migrate and v == "service_completed_successfully"
            for k, v in waits.items()
        )


def test_pg_dump_in_the_image_is_of_the_servers_major_version() -> None:
    """``kapshap db backup`` runs the image's pg_dump, which must be the server's version or
    newer: Debian's postgresql-client is 15 in bookworm (what the tests run here too)."""
    debian = {"bookworm": 15, "trixie": 17}
    [base] = re.findall(r"^ARG PYTHON_IMAGE=\S+-(\w+)$", dockerfile_text(), re.M)
    server = compose("compose.yaml")["services"]["db"]["image"]
    major = int(re.fullmatch(r"postgres:(\d+)(-\w+)?", server)[1])  # type: ignore[index]
    assert debian[base] >= major


@pytest.mark.parametrize("name", COMPOSE_FILES)
def test_every_variable_the_services_set_is_a_real_setting_and_loads(name: str) -> None:
    data = compose(name)
    known = set(DEFAULTS) | POSTGRES_IMAGE_SETTINGS
    for service_name, service in data["services"].items():
        env = environment(service)
        assert set(env) <= known, service_name
        settings = {k: v for k, v in env.items() if k in DEFAULTS}
        if str(service.get("image", "")).startswith("kapshap:"):
            load_settings(settings, dotenv_path=None)  # raises ConfigError if a value is wrong


@pytest.mark.parametrize("name", COMPOSE_FILES)
def test_no_secret_is_written_in_a_compose_file(name: str) -> None:
    """The token and the password come from .env: the file only names them."""
    data = compose(name)
    for service in bot_services(data).values():
        assert service["env_file"] == ".env"
    for service in data["services"].values():
        assert "DISCORD_TOKEN" not in (service.get("environment") or {})
        for key, value in (service.get("environment") or {}).items():
            if key == "POSTGRES_PASSWORD" or key == "DATABASE_URL":
                assert "${POSTGRES_PASSWORD:?" in value
                with pytest.raises(ValueError, match="POSTGRES_PASSWORD"):
                    interpolate(value, {})


def test_the_bot_processes_run_every_shard_exactly_once() -> None:
    bots = bot_services(compose("compose.yaml"))
    counts: set[int | None] = set()
    runs: list[int] = []
    for service in bots.values():
        env = {k: v for k, v in environment(service).items() if k in DEFAULTS}
        settings = load_settings(env, dotenv_path=None)
        assert settings.database_url is not None  # several processes: PostgreSQL
        assert settings.shard_ids is not None
        counts.add(settings.shard_count)
        runs.extend(settings.shard_ids)
    [count] = counts
    assert count is not None and sorted(runs) == list(range(count))


def test_the_sqlite_variant_is_one_bot_on_its_file() -> None:
    data = compose("compose.sqlite.yaml")
    [bot] = bot_services(data).values()
    env = environment(bot)
    assert "DATABASE_URL" not in env and "KAPSHAP_SHARD_IDS" not in env
    database = Path(env["KAPSHAP_DB_PATH"])
    [mount] = [v for v in bot["volumes"] if database.is_relative_to(v.split(":")[1])]
    assert mount.split(":")[0] in data["volumes"]
    # Everything else is optional: a plain `up` starts the bot's container alone.
    assert all("profiles" in s for s in data["services"].values() if s is not bot)


# --------------------------------------------------------------------------------------------
# The health check of the bots


def health_check_code(service: dict[str, Any]) -> str:
    """The Python program of a bot's health check (``CMD python -c CODE``)."""
    test = service["healthcheck"]["test"]
    assert test[:3] == ["CMD", "python", "-c"] and len(test) == 4
    code: str = test[3]
    return code


@pytest.mark.parametrize("name", COMPOSE_FILES)
def test_every_bot_is_health_checked_on_the_metrics_port_it_opens(name: str) -> None:
    for service in bot_services(compose(name)).values():
        code = health_check_code(service)
        assert 'os.environ["KAPSHAP_METRICS_PORT"]' in code and "/health" in code
        assert environment(service)["KAPSHAP_METRICS_PORT"].isdigit()
        assert service["stop_grace_period"] == STOP_BOUND


class _Health(http.server.BaseHTTPRequestHandler):
    answer: tuple[int, str] = (200, "ok")
    asked: list[str] = []  # noqa: RUF012 - one server per test, reset by the fixture

    def do_GET(self) -> None:
        type(self).asked.append(self.path)
        status, body = type(self).answer
        data = body.encode()
        self.send_response(status)
        self.send_header("Content-Type", "text/plain; charset=utf-8")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, format: str, *args: Any) -> None:
        pass


@pytest.fixture
def health_server() -> Iterator[tuple[int, type[_Health]]]:
    """A stand-in for a bot's /health on a loopback port: it answers what the test sets."""
    _Health.asked = []
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Health)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield server.server_address[1], _Health
    finally:
        server.shutdown()
        server.server_close()


def test_the_health_check_passes_on_200_and_fails_with_the_reason_otherwise(
    health_server: tuple[int, type[_Health]], tmp_path: Path
) -> None:
    port, handler = health_server
    [bot, *_] = bot_services(compose("compose.yaml")).values()
    argv = [sys.executable, "-c", health_check_code(bot)]
    env = {"KAPSHAP_METRICS_PORT": str(port)}
    handler.answer = (200, "ok")
    assert run(argv, env, tmp_path).returncode == 0
    handler.answer = (503, "shard 2 is not connected")
    failed = run(argv, env, tmp_path)
    assert failed.returncode == 1 and failed.stderr == "shard 2 is not connected\n"
    assert handler.asked == ["/health", "/health"]
    # Nothing listening (the bot is down): one line, no traceback.
    with __import__("socket").socket() as probe:
        probe.bind(("127.0.0.1", 0))
        closed = probe.getsockname()[1]
    down = run(argv, {"KAPSHAP_METRICS_PORT": str(closed)}, tmp_path)
    assert down.returncode == 1 and down.stderr.count("\n") == 1
    assert "Traceback" not in down.stderr


def test_the_health_check_passes_against_a_running_demo(tmp_path: Path) -> None:
    """The same command against a real bot's /health: ``kapshap demo --metrics-port`` serves
    what ``kapshap run`` serves, on the demo's built-in Discord."""
    demo = [sys.executable, "-m", "bot", "demo"]
    with __import__("socket").socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    log = (tmp_path / "demo.log").open("w")
    server = subprocess.Popen(
        [*demo, "--metrics-port", str(port), "--data-dir", str(tmp_path / "data")],
        cwd=tmp_path,
        stdout=log,
        stderr=subprocess.STDOUT,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )
    [bot, *_] = bot_services(compose("compose.yaml")).values()
    argv = [sys.executable, "-c", health_check_code(bot)]
    try:
        # The demo takes a moment to start: ask until it answers (a bounded wait, no timing).
        for _ in range(240):
            checked = run(argv, {"KAPSHAP_METRICS_PORT": str(port)}, tmp_path)
            if checked.returncode == 0 or server.poll() is not None:
                break
            time.sleep(0.5)
        assert server.poll() is None, (tmp_path / "demo.log").read_text()
        assert checked.returncode == 0, checked.stderr
    finally:
        server.terminate()
        server.wait(timeout=120)
        log.close()


# --------------------------------------------------------------------------------------------
# The services' commands, run here


def backup_command(service: dict[str, Any]) -> list[str]:
    """The ``kapshap db backup …`` line of a backup service's shell loop."""
    [script] = service["command"]
    [line] = [line.strip() for line in script.splitlines() if line.strip().startswith("kapshap ")]
    return shlex.split(line.split("||")[0])


@pytest.mark.parametrize("name", COMPOSE_FILES)
def test_every_command_a_service_runs_is_a_kapshap_command(name: str) -> None:
    names = {command.name for command in cli.COMMANDS}
    for service in compose(name)["services"].values():
        if not str(service.get("image", "")).startswith("kapshap:"):
            continue
        if "entrypoint" in service:
            argv = backup_command(service)
            assert argv[:3] == ["kapshap", "db", "backup"]
            args = storage_cli.parse_args(argv[2:], (*storage_cli.COMMANDS, "backup", "copy"))
            assert args.keep is not None and args.keep >= 1
        else:
            assert (service.get("command") or ["run"])[0] in names


def test_the_migration_and_backup_services_run_here_on_postgresql(
    pg_server: PostgresServer, pg_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PATH", f"{pg_server.bindir}{os.pathsep}{os.environ.get('PATH', '')}")
    services = compose("compose.yaml")["services"]
    migrate = services["migrate"]
    env = {**environment(migrate), "DATABASE_URL": pg_url}
    done = run(kapshap() + migrate["command"], env, tmp_path)
    assert done.returncode == 0, done.stderr
    assert "schema version" in done.stdout
    backup = services["backup"]
    folder = backup["volumes"][0].split(":")[1]
    argv = [tmp_path / "backups" if part == folder else part for part in backup_command(backup)]
    (tmp_path / "backups").mkdir()
    env = {**environment(backup), "DATABASE_URL": pg_url}
    for _ in range(2):
        done = run(kapshap() + [str(a) for a in argv[1:]], env, tmp_path)
        assert done.returncode == 0, done.stderr
    made = list((tmp_path / "backups").glob("kapshap-*.dump"))
    assert len(made) == 2 and all(p.read_bytes().startswith(b"PGDMP") for p in made)


def test_the_sqlite_backup_service_runs_here(tmp_path: Path) -> None:
    data = compose("compose.sqlite.yaml")
    backup = data["services"]["backup"]
    env = environment(backup)
    database = tmp_path / Path(env["KAPSHAP_DB_PATH"]).relative_to("/")
    database.parent.mkdir(parents=True)
    assert storage_cli.main(["migrate", "--path", str(database)]) == 0
    env["KAPSHAP_DB_PATH"] = str(database)
    folder = tmp_path / "backups"
    folder.mkdir()
    argv = [str(folder) if part.startswith("/") else part for part in backup_command(backup)]
    done = run(kapshap() + argv[1:], env, tmp_path)
    assert done.returncode == 0, done.stderr
    assert [p.suffix for p in folder.iterdir()] == [".sqlite3"]


# --------------------------------------------------------------------------------------------
# The Dockerfile


def dockerfile_text() -> str:
    return (ROOT / "Dockerfile").read_text(encoding="utf-8")


def instructions() -> list[list[tuple[str, str]]]:
    """The Dockerfile's instructions by stage: ``(KEYWORD, arguments)``, continuation lines
    joined, comments left out; the ARGs before the first FROM are stage 0."""
    stages: list[list[tuple[str, str]]] = [[]]
    logical = ""
    for raw in dockerfile_text().splitlines():
        line = raw.strip()
        if not logical and (not line or line.startswith("#")):
            continue
        if line.startswith("#"):
            continue
        logical += " " + line.removesuffix("\\").strip() if logical else line.removesuffix("\\")
        if line.endswith("\\"):
            continue
        keyword, _, arguments = logical.strip().partition(" ")
        if keyword.upper() == "FROM":
            stages.append([])
        stages[-1].append((keyword.upper(), arguments.strip()))
        logical = ""
    return stages


def image_env() -> dict[str, str]:
    """The final stage's ENV, as ``KEY=VALUE`` pairs (``$PATH`` left to the test)."""
    env: dict[str, str] = {}
    for keyword, arguments in instructions()[-1]:
        if keyword == "ENV":
            for pair in shlex.split(arguments):
                key, _, value = pair.partition("=")
                env[key] = value
    return env


def test_the_image_is_multi_stage_slim_and_runs_as_its_own_user() -> None:
    head, build, final = instructions()
    [(_, arg)] = head
    assert arg.startswith("PYTHON_IMAGE=python:3.") and "-slim-" in arg
    assert build[0] == ("FROM", "${PYTHON_IMAGE} AS build")
    assert final[0] == ("FROM", "${PYTHON_IMAGE}")
    words = dict(final)
    assert ("COPY", "--from=build /opt/kapshap /opt/kapshap") in final
    assert words["USER"] not in ("root", "0")
    assert json.loads(words["ENTRYPOINT"]) == ["kapshap"]
    assert json.loads(words["CMD"]) == ["run"]
    # The user is set before the RUN steps that fill its caches, so it owns them.
    keywords = [k for k, _ in final]
    assert keywords.index("USER") < len(keywords) - keywords[::-1].index("RUN") - 1


def test_the_image_installs_the_kernel_the_sim_extra_names() -> None:
    """numba in the image is the sim extra's requirement (matplotlib, for plots, stays out)."""
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["project"][
        "optional-dependencies"
    ]
    [numba] = [r for r in extras["sim"] if r.startswith("numba")]
    [wheel] = [a for k, a in instructions()[1] if k == "RUN" and "pip wheel" in a]
    assert f'"{numba}"' in wheel and " . " in wheel
    assert "matplotlib" not in wheel and "[sim]" not in wheel


def test_the_build_context_holds_what_the_image_copies_and_never_a_secret() -> None:
    patterns = [
        line.strip()
        for line in (ROOT / ".dockerignore").read_text("utf-8").splitlines()
        if line.strip() and not line.startswith("#")
    ]

    def sent(path: str) -> bool:
        # Docker's rule: the last pattern that matches the path (or a folder above it) wins.
        keep = True
        parts = path.split("/")
        for pattern in patterns:
            negate = pattern.startswith("!")
            bare = pattern.removeprefix("!").rstrip("/")
            if any(
                fnmatch("/".join(parts[:n]), bare) or fnmatch(path, bare.removeprefix("**/"))
                for n in range(1, len(parts) + 1)
            ):
                keep = negate
        return keep

    copied = [
        source
        for stage in instructions()
        for keyword, arguments in stage
        if keyword == "COPY" and not arguments.startswith("--from")
        for source in arguments.split()[:-1]
    ]
    assert copied and all(sent(source.rstrip("/")) for source in copied)
    assert sent("bot/cli.py") and sent("cogs/table.py")
    for secret in (".env", "data/kapshap.sqlite3", "backups/kapshap.dump", ".venv/bin/python"):
        assert not sent(secret), secret


def test_the_entry_command_runs_and_asks_for_the_token_in_words(tmp_path: Path) -> None:
    final = dict(instructions()[-1])
    argv = json.loads(final["ENTRYPOINT"]) + json.loads(final["CMD"])
    assert argv == ["kapshap", "run"]
    env = {**image_env(), "DISCORD_TOKEN": "", "NUMBA_CACHE_DIR": str(tmp_path / "numba")}
    env.pop("PATH")
    done = run(kapshap() + argv[1:], env, tmp_path)
    assert done.returncode == 2
    assert "DISCORD_TOKEN is not set" in done.stderr and "Traceback" not in done.stderr


#: What a new container does first with the kernel: the masters' decisions (the warm-up's own
#: game) and a review of a random game of each family; it prints COMPILED if numba compiles.
AFTER_THE_BUILD = """
import random
from bot.ai import warm
from bot.ai.review import decisions_of, review_decision
from bot.engine import apply, legal_actions, make_deal, make_rules, new_game
from bot.engine.record import GameRecord, RecordSeat

with warm.announcing(lambda: print("COMPILED")):
    for game in warm.MASTER_GAMES:
        warm.warm_master(game)
        rules = make_rules(game)
        rng = random.Random(4)
        deal = make_deal(rules, rng)
        names = [f"s{seat}" for seat in range(rules.players)]
        state, actions = new_game(rules, names, deal), []
        while state.result is None:
            legal = legal_actions(state)
            action = legal[rng.randrange(len(legal))]
            state, _ = apply(state, action)
            actions.append(str(action))
        record = GameRecord(rules, tuple(RecordSeat(n) for n in names), deal, tuple(actions))
        review_decision(record, decisions_of(record, 1)[-1], rollouts=10)
        print(f"{game}: reviewed")
"""


def test_the_image_steps_run_here_and_leave_nothing_to_compile_at_start(
    tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    """The final stage's RUN steps that call Python (the kernel's warm-up, ``kapshap
    --version``) run here with the image's environment; then a process like a new container's
    plays the masters' decisions and reviews a decision of a game of each family, and numba
    compiles nothing (before ``bot.ai.warm`` warmed the reviews, Tsung Shap's compiled here).

    The image's cache is kept between test runs (pytest's cache folder): the first run on a
    machine compiles, as the image's build does (a minute or so), later runs only load it;
    numba itself notices a changed source and compiles that again."""
    pytest.importorskip("numba")
    cache = request.config.cache.mkdir("image-numba-cache")  # type: ignore[union-attr]
    env = {**image_env(), "NUMBA_CACHE_DIR": str(cache), "KAPSHAP_WARM_KERNEL": "1"}
    env.pop("PATH")
    assert env["NUMBA_CPU_NAME"] == "generic"
    steps = [a for k, a in instructions()[-1] if k == "RUN" and "kapshap" in a and "apt" not in a]
    [step] = [s for s in steps if "bot.ai.warm" in s]
    for command in step.split("&&"):
        argv = shlex.split(command)
        if argv[0] == "python":
            argv[0] = sys.executable
        elif argv[0] == "kapshap":
            argv = kapshap() + argv[1:]
        done = run(argv, env, tmp_path)
        assert done.returncode == 0, done.stderr
    assert any(Path(cache).rglob("*.nbi"))  # numba's cache index files
    again = run([sys.executable, "-c", AFTER_THE_BUILD], env, tmp_path)
    assert again.returncode == 0, again.stderr
    assert again.stdout == "".join(f"{game}: reviewed\n" for game in MASTER_GAMES)


# --------------------------------------------------------------------------------------------
# The systemd unit


def unit() -> dict[str, list[tuple[str, str]]]:
    """The unit's sections and their ``Key=value`` lines (a key may repeat)."""
    sections: dict[str, list[tuple[str, str]]] = {}
    current: list[tuple[str, str]] | None = None
    for raw in UNIT.read_text(encoding="utf-8").splitlines():
        line = raw.strip()
        if not line or line.startswith(("#", ";")):
            continue
        if line.startswith("[") and line.endswith("]"):
            current = sections.setdefault(line[1:-1], [])
            continue
        key, sep, value = line.partition("=")
        assert current is not None and sep and key.strip().isidentifier(), raw
        current.append((key.strip(), value.strip()))
    return sections


#: How long a stop may take before the service manager kills: above the graceful shutdown's
#: bound (KAPSHAP_SHUTDOWN_SECONDS, 20 s by default, i21-lifecycle) with room to exit.
STOP_BOUND = "30s"


def test_the_unit_is_a_hardened_template_with_a_graceful_stop() -> None:
    sections = unit()
    assert set(sections) == {"Unit", "Service", "Install"}
    service = dict(sections["Service"])
    assert service["User"] not in ("root", "0")
    assert service["NoNewPrivileges"] == "yes" and service["ProtectSystem"] == "strict"
    assert service["Restart"] == "on-failure" and service["KillSignal"] == "SIGTERM"
    assert service["TimeoutStopSec"] == STOP_BOUND
    shutdown = int(DEFAULTS.get("KAPSHAP_SHUTDOWN_SECONDS", "20"))
    assert shutdown < int(STOP_BOUND.removesuffix("s"))
    # numba writes machine code: this protection would break the compiled kernel.
    assert "MemoryDenyWriteExecute" not in service
    files = [v for k, v in sections["Service"] if k == "EnvironmentFile"]
    assert any("%i" in f for f in files), "the instance name picks the shards"
    assert dict(sections["Install"])["WantedBy"] == "multi-user.target"


def test_the_unit_starts_a_real_kapshap_command_with_the_example_shards(tmp_path: Path) -> None:
    argv = shlex.split(dict(unit()["Service"])["ExecStart"])
    assert Path(argv[0]).name == "kapshap" and argv[1] in {c.name for c in cli.COMMANDS}
    example = ROOT / "deploy" / "systemd" / "shards-0.env"
    shards = dict(
        line.split("=", 1)
        for line in example.read_text("utf-8").splitlines()
        if line and not line.startswith("#")
    )
    assert set(shards) <= set(DEFAULTS)
    # With the shared .env's count and database, the example's ids load: `kapshap run` gets
    # past its settings to the token (a bad shard would be one line about the shard).
    env = {
        **shards,
        "KAPSHAP_SHARD_COUNT": "4",
        "DATABASE_URL": "postgresql://kapshap@127.0.0.1:1/kapshap",
        "DISCORD_TOKEN": "",
    }
    done = run(kapshap() + argv[1:], env, tmp_path)
    assert done.returncode == 2 and "DISCORD_TOKEN is not set" in done.stderr
    alone = run(kapshap() + argv[1:], {**env, "KAPSHAP_SHARD_COUNT": ""}, tmp_path)
    assert alone.returncode == 2 and "needs KAPSHAP_SHARD_COUNT" in alone.stderr


def test_systemd_accepts_the_unit(tmp_path: Path) -> None:
    """``systemd-analyze verify`` reads the unit as systemd would and names any key it does
    not know, any value it cannot parse; it needs ExecStart's program to exist, so the copy
    verified runs this environment's ``kapshap``."""
    analyze = shutil.which("systemd-analyze")
    if analyze is None:
        pytest.skip("no systemd-analyze here: the structural checks above still ran")
    script = Path(kapshap()[0])
    if script.name != "kapshap":
        pytest.skip("no kapshap console script in this environment")
    text = UNIT.read_text(encoding="utf-8")
    [start] = re.findall(r"^ExecStart=(\S+)", text, re.M)
    copy = tmp_path / UNIT.name
    copy.write_text(text.replace(start, str(script)), encoding="utf-8")
    done = subprocess.run(
        [analyze, "verify", str(copy)], capture_output=True, text=True, timeout=120, check=False
    )
    assert done.returncode == 0 and done.stderr == "", done.stderr
    # It does name slips: a misspelt key makes it speak.
    copy.write_text(text.replace(start, str(script)).replace("KillMode=", "KilMode="), "utf-8")
    slip = subprocess.run(
        [analyze, "verify", str(copy)], capture_output=True, text=True, timeout=120, check=False
    )
    assert "KilMode" in slip.stderr
