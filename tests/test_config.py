from __future__ import annotations

import logging
import re
from pathlib import Path

import pytest

from bot.config import DEFAULTS, ConfigError, Settings, load_settings, parse_dotenv

ROOT = Path(__file__).resolve().parent.parent


#: Several processes need a database they share (PostgreSQL): the shard settings' tests name one.
SHARED = {"DATABASE_URL": "postgresql://kapshap@db.example.org/kapshap"}


def load(env: dict[str, str] | None = None, dotenv: Path | None = None) -> Settings:
    return load_settings(env or {}, dotenv_path=dotenv)


def test_defaults() -> None:
    settings = load()
    assert settings == Settings()
    assert settings.discord_token is None
    assert settings.db_path == Path("data/kapshap.sqlite3")
    assert settings.log_level == "INFO"
    assert settings.log_level_number == logging.INFO
    assert settings.default_ante == 10
    assert settings.starting_chips == 1000
    assert settings.daily_amount == 100
    assert settings.turn_seconds == 120
    assert settings.dev_guild_id is None
    assert settings.owner_ids == frozenset()


def test_every_variable_is_read() -> None:
    settings = load(
        {
            "DISCORD_TOKEN": "abc.def.ghi",
            "KAPSHAP_DB_PATH": "/tmp/k.sqlite3",
            "KAPSHAP_LOG_LEVEL": "debug",
            "KAPSHAP_DEFAULT_ANTE": "25",
            "KAPSHAP_STARTING_CHIPS": "500",
            "KAPSHAP_DAILY_AMOUNT": "0",
            "KAPSHAP_TURN_SECONDS": "30",
            "KAPSHAP_DEV_GUILD_ID": "123456789012345678",
            "KAPSHAP_OWNER_IDS": " 1, 22 ,333,",
        }
    )
    assert settings == Settings(
        discord_token="abc.def.ghi",
        db_path=Path("/tmp/k.sqlite3"),
        log_level="DEBUG",
        default_ante=25,
        starting_chips=500,
        daily_amount=0,
        turn_seconds=30,
        dev_guild_id=123456789012345678,
        owner_ids=frozenset({1, 22, 333}),
    )


def test_settings_are_frozen_and_hide_the_token() -> None:
    settings = load({"DISCORD_TOKEN": "secret-token"})
    with pytest.raises(AttributeError):
        settings.default_ante = 5  # type: ignore[misc]
    assert "secret-token" not in repr(settings)
    assert settings.require_token() == "secret-token"


def test_require_token_explains_what_to_do() -> None:
    with pytest.raises(ConfigError, match=r"DISCORD_TOKEN is not set.*\.env\.example"):
        load().require_token()


def test_empty_values_mean_default() -> None:
    settings = load({key: "" for key in DEFAULTS})
    assert settings == Settings()
    assert settings.review_rollouts is None  # each game's own budget
    assert load({"KAPSHAP_REVIEW_ROLLOUTS": "20000"}).review_rollouts == 20_000


@pytest.mark.parametrize(
    ("name", "value", "expected"),
    [
        ("KAPSHAP_DEFAULT_ANTE", "ten", "a whole number from 0 to 1,000,000,000"),
        ("KAPSHAP_DEFAULT_ANTE", "-1", "a whole number from 0 to 1,000,000,000"),
        ("KAPSHAP_DEFAULT_ANTE", "1000000001", "a whole number from 0 to 1,000,000,000"),
        ("KAPSHAP_STARTING_CHIPS", "1.5", "a whole number from 0 to 1,000,000,000,000"),
        ("KAPSHAP_STARTING_CHIPS", str(2**63), "a whole number from 0 to 1,000,000,000,000"),
        ("KAPSHAP_STARTING_CHIPS", "1_000", "digits only"),
        ("KAPSHAP_DAILY_AMOUNT", "lots", "a whole number from 0 to 1,000,000,000,000"),
        ("KAPSHAP_DAILY_AMOUNT", "١٢٣", "digits only"),
        ("KAPSHAP_DAILY_AMOUNT", "+5", "digits only"),
        ("KAPSHAP_TURN_SECONDS", "0", "a whole number from 10 to 86,400 (seconds"),
        ("KAPSHAP_TURN_SECONDS", "9", "a whole number from 10 to 86,400 (seconds"),
        ("KAPSHAP_TURN_SECONDS", "86401", "a whole number from 10 to 86,400 (seconds"),
        ("KAPSHAP_TURN_SECONDS", "１２０", "digits only"),
        ("KAPSHAP_LOG_LEVEL", "LOUD", "one of DEBUG, INFO, WARNING, ERROR, CRITICAL"),
        ("KAPSHAP_DEV_GUILD_ID", "my-guild", "a Discord id"),
        ("KAPSHAP_DEV_GUILD_ID", "-5", "a Discord id"),
        ("KAPSHAP_OWNER_IDS", "1,two,3", "comma-separated list of Discord user ids"),
        ("KAPSHAP_OWNER_IDS", "0", "comma-separated list of Discord user ids"),
        ("KAPSHAP_OWNER_IDS", "1_2", "comma-separated list of Discord user ids"),
        ("DISCORD_TOKEN", "abc def", "a bot token without spaces"),
        ("KAPSHAP_REVIEW_ROLLOUTS", "5", "a whole number from 10 to 100,000 (play-outs"),
        ("KAPSHAP_REVIEW_ROLLOUTS", "999999999999", "a whole number from 10 to 100,000"),
    ],
)
def test_invalid_values_name_the_variable_and_the_expectation(
    name: str, value: str, expected: str
) -> None:
    with pytest.raises(ConfigError) as info:
        load({name: value})
    message = str(info.value)
    assert message.startswith(name)
    assert expected in message
    assert "\n" not in message  # one line
    if name != "DISCORD_TOKEN":  # never echo a token, even an invalid one
        bad = value.split(",")[1] if name == "KAPSHAP_OWNER_IDS" and "," in value else value
        assert f"'{bad}'" in message


def test_a_long_bad_value_is_quoted_short() -> None:
    with pytest.raises(ConfigError) as info:
        load({"KAPSHAP_DEFAULT_ANTE": "9" * 5000})
    message = str(info.value)
    assert message.startswith("KAPSHAP_DEFAULT_ANTE must be")
    assert len(message) < 200


def test_extreme_allowed_values_load() -> None:
    settings = load(
        {
            "KAPSHAP_DEFAULT_ANTE": "1000000000",
            "KAPSHAP_STARTING_CHIPS": "1000000000000",
            "KAPSHAP_DAILY_AMOUNT": "1000000000000",
            "KAPSHAP_TURN_SECONDS": "86400",
        }
    )
    assert settings.default_ante == 1_000_000_000
    assert settings.turn_seconds == 86_400
    low = load({"KAPSHAP_DEFAULT_ANTE": "0", "KAPSHAP_TURN_SECONDS": "10"})
    assert (low.default_ante, low.turn_seconds) == (0, 10)


def test_dotenv_file_is_read_and_environment_wins(tmp_path: Path) -> None:
    dotenv = tmp_path / ".env"
    dotenv.write_text(
        "# a comment\n"
        "\n"
        "DISCORD_TOKEN='from-file'\n"
        'KAPSHAP_DB_PATH="/srv/kap shap/db.sqlite3"  # quoted, with a comment\n'
        "export KAPSHAP_DEFAULT_ANTE=5\n"
        "KAPSHAP_TURN_SECONDS = 60 # seconds\n"
        "UNRELATED=ignored\n",
        encoding="utf-8",
    )
    settings = load({"KAPSHAP_DEFAULT_ANTE": "7"}, dotenv)
    assert settings.discord_token == "from-file"
    assert settings.db_path == Path("/srv/kap shap/db.sqlite3")
    assert settings.default_ante == 7
    assert settings.turn_seconds == 60


def test_a_present_but_empty_environment_variable_still_wins(tmp_path: Path) -> None:
    dotenv = tmp_path / ".env"
    dotenv.write_text("KAPSHAP_TURN_SECONDS=60\n", encoding="utf-8")
    assert load({"KAPSHAP_TURN_SECONDS": ""}, dotenv).turn_seconds == 120


def test_missing_dotenv_file_is_fine(tmp_path: Path) -> None:
    assert load(dotenv=tmp_path / "nope.env") == Settings()


def test_invalid_value_in_dotenv_is_reported(tmp_path: Path) -> None:
    dotenv = tmp_path / ".env"
    dotenv.write_text("KAPSHAP_TURN_SECONDS=soon\n", encoding="utf-8")
    with pytest.raises(ConfigError, match="KAPSHAP_TURN_SECONDS must be a whole number from 10"):
        load(dotenv=dotenv)


def test_default_environment_is_os_environ(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("KAPSHAP_DAILY_AMOUNT", "42")
    assert load_settings(dotenv_path=None).daily_amount == 42


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("A=1", {"A": "1"}),
        ("A = 1 ", {"A": "1"}),
        ("A=", {"A": ""}),
        ("A=a#b", {"A": "a#b"}),
        ("A=a #b", {"A": "a"}),
        ("A='x # y'", {"A": "x # y"}),
        ('A="line\\nnext \\"q\\""', {"A": 'line\nnext "q"'}),
        ("A='no \\n escapes'", {"A": "no \\n escapes"}),
        ('A="x" # comment', {"A": "x"}),
        ("export A=1", {"A": "1"}),
        ("A=1\nA=2", {"A": "2"}),
        ("  # indented comment\n\n\tB=2", {"B": "2"}),
        ("A=x=y", {"A": "x=y"}),
    ],
)
def test_parse_dotenv(text: str, expected: dict[str, str]) -> None:
    assert parse_dotenv(text) == expected


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("JUSTAWORD", r"\.env:1: expected KEY=VALUE"),
        ("A=1\nBAD-NAME=2", r"\.env:2: 'BAD-NAME' is not a valid variable name"),
        ("A='open", r"\.env:1: unterminated ' quote in the value of A"),
        ('A="x" y', r"\.env:1: unexpected text after the closing quote of A"),
    ],
)
def test_parse_dotenv_errors(text: str, message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        parse_dotenv(text)


def test_env_example_lists_every_setting_with_its_default() -> None:
    """.env.example documents every variable, commented out, with the default value."""
    text = (ROOT / ".env.example").read_text(encoding="utf-8")
    active = parse_dotenv(text, source=".env.example")
    assert active == {"DISCORD_TOKEN": ""}, "only the (empty) token is set in .env.example"
    commented = dict(re.findall(r"^# ?([A-Z][A-Z0-9_]*)=(.*)$", text, flags=re.MULTILINE))
    documented = {**commented, **active}
    assert documented == DEFAULTS
    # The example, used as a .env file, gives the defaults.
    assert load(dotenv=ROOT / ".env.example") == Settings()


def test_env_example_states_the_bounds_the_commands_use() -> None:
    text = (ROOT / ".env.example").read_text(encoding="utf-8")
    assert "from 0 to 1000000000," in text  # the ante: /table new's maximum
    assert "from 0 to 1000000000000" in text  # starting chips and the daily amount
    assert "from 10\n# to 86400" in text  # the turn timer
    assert "≥ 1" not in text


def test_database_url_chooses_postgresql_and_is_never_shown() -> None:
    from bot.config import load_settings

    url = "postgresql://bot:s3cret@db.example:5432/kap"
    settings = load_settings({"DATABASE_URL": url}, dotenv_path=None)
    assert settings.database_url == url and settings.database_target == url
    assert "s3cret" not in repr(settings)
    unset = load_settings({}, dotenv_path=None)
    assert unset.database_url is None and unset.database_target == unset.db_path


@pytest.mark.parametrize(
    ("count", "ids", "expected"),
    [
        ("", "", (None, None)),
        ("1", "", (1, None)),  # one process, one shard
        ("4", "", (4, None)),  # one process, all four
        ("4", "0,2", (4, (0, 2))),  # process 0 of 2
        ("4", " 3 , 1 ", (4, (1, 3))),  # process 1 of 2, in any order and with spaces
        ("8", "0-3,6", (8, (0, 1, 2, 3, 6))),
        ("8", "5-5,", (8, (5,))),  # a one-id range; a trailing comma is nothing
        ("100000", "99999", (100_000, (99_999,))),
    ],
)
def test_shard_settings(count: str, ids: str, expected: tuple[object, object]) -> None:
    settings = load({"KAPSHAP_SHARD_COUNT": count, "KAPSHAP_SHARD_IDS": ids, **SHARED})
    assert (settings.shard_count, settings.shard_ids) == expected


@pytest.mark.parametrize(
    ("count", "ids", "message"),
    [
        ("0", "", "KAPSHAP_SHARD_COUNT must be a whole number from 1 to 100,000 (shards of the "),
        ("two", "", "KAPSHAP_SHARD_COUNT must be a whole number from 1 to 100,000"),
        ("100001", "", "KAPSHAP_SHARD_COUNT must be a whole number from 1 to 100,000"),
        ("", "0,1", "KAPSHAP_SHARD_IDS needs KAPSHAP_SHARD_COUNT (the number of shards of all"),
        ("4", "4", "KAPSHAP_SHARD_IDS names shard 4, but KAPSHAP_SHARD_COUNT is 4 (shards 0 to 3)"),
        ("4", "0-9", "KAPSHAP_SHARD_IDS names shard 4, but KAPSHAP_SHARD_COUNT is 4"),
        ("4", "0,2,0", "KAPSHAP_SHARD_IDS names shard 0 twice"),
        ("8", "0-3,2-5", "KAPSHAP_SHARD_IDS names shard 2 twice"),
        ("4", "3-1", "KAPSHAP_SHARD_IDS must be shard ids and ranges separated by commas, like "),
        ("4", "a-b", "like 0-3,6, got 'a-b'"),
        ("4", "1-", "got '1-'"),
        ("4", "-1", "got '-1'"),
        ("4", "1-2-3", "got '1-2-3'"),
        ("4", "1 2", "got '1 2'"),
        ("4", "١", "got '١'"),
        ("4", ",", "got ','"),
        ("4", "0-99999999999", "names shard 99,999,999,999, above the largest shard count"),
    ],
)
def test_bad_shard_settings_are_one_line(count: str, ids: str, message: str) -> None:
    with pytest.raises(ConfigError) as info:
        load({"KAPSHAP_SHARD_COUNT": count, "KAPSHAP_SHARD_IDS": ids, **SHARED})
    assert message in str(info.value)
    assert "\n" not in str(info.value)


def test_metrics_settings() -> None:
    """Off by default; a port (0: a free one) turns /metrics and /health on, on the loopback
    interface unless another address is given."""
    assert (load().metrics_port, load().metrics_host) == (None, "127.0.0.1")
    settings = load({"KAPSHAP_METRICS_PORT": "9464", "KAPSHAP_METRICS_HOST": "0.0.0.0"})
    assert (settings.metrics_port, settings.metrics_host) == (9464, "0.0.0.0")
    assert load({"KAPSHAP_METRICS_PORT": "0"}).metrics_port == 0


@pytest.mark.parametrize(("count", "ids"), [("4", "0"), ("2", "1"), ("8", "0-3,6")])
def test_on_sqlite_one_process_must_run_every_shard(count: str, ids: str) -> None:
    """Without DATABASE_URL a second process is refused (the SQLite file lock), so a process
    running part of the shards would leave the others unserved: one line at start-up."""
    with pytest.raises(ConfigError) as info:
        load({"KAPSHAP_SHARD_COUNT": count, "KAPSHAP_SHARD_IDS": ids})
    message = str(info.value)
    assert message.startswith("KAPSHAP_SHARD_IDS leaves shard ")
    assert "without DATABASE_URL" in message and "\n" not in message
    # The same shards, every one of them, or on PostgreSQL: fine.
    every = load({"KAPSHAP_SHARD_COUNT": count, "KAPSHAP_SHARD_IDS": f"0-{int(count) - 1}"})
    assert every.shard_ids == tuple(range(int(count)))
    assert load({"KAPSHAP_SHARD_COUNT": count, "KAPSHAP_SHARD_IDS": ids, **SHARED}).shard_ids


def test_log_format_and_shutdown_seconds() -> None:
    assert (Settings().log_format, Settings().shutdown_seconds) == ("text", 20)
    settings = load({"KAPSHAP_LOG_FORMAT": " JSON ", "KAPSHAP_SHUTDOWN_SECONDS": "600"})
    assert (settings.log_format, settings.shutdown_seconds) == ("json", 600)
    assert (
        load({"KAPSHAP_LOG_FORMAT": "text", "KAPSHAP_SHUTDOWN_SECONDS": "1"}).shutdown_seconds == 1
    )


@pytest.mark.parametrize(
    ("name", "value", "message"),
    [
        ("KAPSHAP_METRICS_PORT", "65536", "KAPSHAP_METRICS_PORT must be a whole number from 0 to "),
        ("KAPSHAP_METRICS_PORT", "http", "KAPSHAP_METRICS_PORT must be a whole number from 0 to "),
        ("KAPSHAP_METRICS_HOST", "local host", "KAPSHAP_METRICS_HOST must be an address or host "),
    ],
)
def test_bad_metrics_settings_name_the_setting(name: str, value: str, message: str) -> None:
    with pytest.raises(ConfigError) as caught:
        load({name: value})
    assert str(caught.value).startswith(message), caught.value


@pytest.mark.parametrize(
    ("name", "value", "message"),
    [
        (
            "KAPSHAP_LOG_FORMAT",
            "logfmt",
            "KAPSHAP_LOG_FORMAT must be one of text, json, got 'logfmt'",
        ),
        (
            "KAPSHAP_LOG_FORMAT",
            "json5",
            "KAPSHAP_LOG_FORMAT must be one of text, json, got 'json5'",
        ),
        (
            "KAPSHAP_SHUTDOWN_SECONDS",
            "0",
            "KAPSHAP_SHUTDOWN_SECONDS must be a whole number from 1 ",
        ),
        ("KAPSHAP_SHUTDOWN_SECONDS", "601", "from 1 to 600 (seconds, digits only), got '601'"),
        ("KAPSHAP_SHUTDOWN_SECONDS", "2.5", "got '2.5'"),
    ],
)
def test_bad_service_settings_are_one_line(name: str, value: str, message: str) -> None:
    with pytest.raises(ConfigError) as info:
        load({name: value})
    assert message in str(info.value) and "\n" not in str(info.value)
