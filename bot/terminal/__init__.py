"""``kapshap play``: Kap Shap, Kap Tai Shap or Tsung Shap against computer players, in a terminal.

The client drives the engine only through its public API (:func:`~bot.engine.new_game`,
:func:`~bot.engine.legal_actions`, :func:`~bot.engine.apply`, :func:`~bot.engine.view` and
:func:`~bot.engine.describe_event`). What it prints comes from the human seat's :class:`View`
(or from events described for that seat), so another seat's hand is never shown; computer seats
choose from their own views.

Input is read line by line from ``stdin``, so a game can be scripted: every prompt shows the legal
actions in notation (``take 6-5``, ``draw``, ``discard 3-1``, ``declare``), and bad input gets a
one-line explanation and the prompt again, never a traceback.

Tsung Shap (``--game tsung-shap``, two players) is played by :class:`_FishingTable`: every turn
shows the row left to right with its L and R ends, both scores, the tiles left in each pile, a
missed capture the player may claim, the tile he turned over and the legal actions (``draw``,
``claim pair left``, ``capture triplet ends``, ``place right``...).
"""

from __future__ import annotations

import argparse
import os
import random
import sys
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, NoReturn, TextIO, cast

from bot.ai import AI_LEVELS, Player, get_player
from bot.ai.base import AnyPlayer
from bot.ai.levels import levels_for, player_for
from bot.engine import (
    Action,
    Captured,
    Claimed,
    Combination,
    Deal,
    Declare,
    Declared,
    Discard,
    Discarded,
    Draw,
    Drew,
    EndReason,
    EngineError,
    Event,
    FirstPlayer,
    FishingAction,
    FishingEvent,
    FishingPhase,
    FishingResult,
    FishingState,
    FishingView,
    FourTwo,
    Game,
    GameDrawn,
    GameOver,
    IllegalAction,
    MissedCapture,
    NotationError,
    Offer,
    Phase,
    Place,
    Placed,
    Result,
    RuleSet,
    Settlement,
    Swept,
    Take,
    Tile,
    TileTurned,
    Took,
    TurnStarted,
    View,
    WinBy,
    apply,
    describe_event,
    difference_payment,
    legal_actions,
    make_deal,
    make_rules,
    new_game,
    parse_action,
    parse_tile,
    sort_tiles,
    view,
    with_flag,
)
from bot.engine.actions import Capture, End
from bot.engine.fishing import tile_values
from bot.engine.hands import ten_pair_values
from bot.engine.variants import chosen_variants
from bot.locale import LOCALES, N_, lang_of_args, nt, recognize, tile_name
from bot.locale import t as tr
from bot.locale.levels import level_name
from bot.locale.refusals import ENGINE_REFUSALS, RULES_ERRORS

__all__ = ["build_parser", "main", "run_game"]

PROG = "kapshap play"
RULE_SETS = ("culin", "classic", "last-draw")
PROMPT = "> "
LEGAL_PREFIX = "Legal: "
_FOUR_TWO = Tile(4, 2)
_TWO_ONE = Tile(2, 1)

# The engine's notation errors as sentences (see _Console.refusal): worded in the table's
# language when recognized; any other gets a general line quoting what was typed.
_RULE_SET_TITLES = {
    "culin": N_("Culin"),
    "classic": N_("Classic"),
    "last-draw": N_("Last + draw"),
    "custom": N_("Custom"),
}
_GAME_TITLES = {
    Game.KAP_SHAP: N_("Kap Shap 夾十"),
    Game.KAP_TAI_SHAP: N_("Kap Tai Shap 夾大十"),
    Game.TSUNG_SHAP: N_("Tsung Shap 爭十"),
}

# Words the prompt understands besides actions (and a few in Chinese).
_COMMANDS: dict[str, str] = {
    "幫助": "help",
    "帮助": "help",
    "走法": "legal",
    "手牌": "hand",
    "棄牌": "pool",
    "弃牌": "pool",
    "牌局": "look",
    "離開": "quit",
    "离开": "quit",
    "help": "help",
    "h": "help",
    "legal": "legal",
    "?": "legal",
    "moves": "legal",
    "hand": "hand",
    "pool": "pool",
    "discards": "pool",
    "look": "look",
    "status": "look",
    "quit": "quit",
    "exit": "quit",
    "q": "quit",
}


class _UsageError(Exception):
    """A bad command-line option; the message is one line for the user.

    Raised with a message id and its values (:meth:`text` words it in the table's language),
    or with argparse's own English line.
    """

    def __init__(self, msgid: str, /, **values: Any) -> None:
        super().__init__(msgid.format(**values) if values else msgid)
        self.msgid = msgid
        self.values = values

    def text(self, locale: str) -> str:
        """The message in ``locale``."""
        return tr(locale, self.msgid, **self.values)


class _Parser(argparse.ArgumentParser):
    """An argument parser that raises instead of printing usage and exiting."""

    def error(self, message: str) -> NoReturn:
        raise _UsageError(message)


def build_parser() -> argparse.ArgumentParser:
    """The options of ``kapshap play``."""
    parser = _Parser(
        prog=PROG,
        add_help=False,
        description=(
            "Play Kap Shap, Kap Tai Shap or Tsung Shap in the terminal against computer "
            "players. "
            "Type 'help' during the game for the notation and the rules in force."
        ),
    )
    parser.add_argument("-h", "--help", action="store_true", help="show this help and exit")
    parser.add_argument(
        "--game",
        choices=[g.value for g in Game],
        default=Game.KAP_SHAP.value,
        help="which game (default: kap-shap)",
    )
    parser.add_argument(
        "--rules",
        choices=RULE_SETS,
        default=None,
        help="rule set (default: culin; classic for Kap Tai Shap with 5 or more players)",
    )
    parser.add_argument(
        "--opponents",
        type=int,
        default=None,
        metavar="N",
        help="number of computer players (default: 1 for Kap Shap and Tsung Shap, which are "
        "for 2 players; 3 for Kap Tai Shap)",
    )
    parser.add_argument(
        "--ai",
        default=None,
        metavar="LEVEL",
        help="computer level (default: greedy if available, else random)",
    )
    parser.add_argument(
        "--rule",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="set one rule flag, e.g. --rule exclude_own_discards=true (repeatable)",
    )
    parser.add_argument("--seed", type=int, default=None, help="seed for a repeatable game")
    parser.add_argument("--name", default=None, help="your name (default: You)")
    parser.add_argument(
        "--seat", type=int, default=0, help="your seat, counted in play order from 0 (default: 0)"
    )
    parser.add_argument(
        "--setup",
        action="store_true",
        help="ask for the game, rule set, opponents and level before playing",
    )
    parser.add_argument(
        "--lang",
        choices=LOCALES,
        default="en",
        help="language of the table: en, zh-TW (Traditional Chinese), zh-CN (Simplified)",
    )
    return parser


@dataclass(frozen=True)
class _Config:
    rules: RuleSet
    level: str
    name: str
    seat: int
    seed: int | None


def _default_level(game: Game = Game.KAP_SHAP) -> str:
    levels = _known_levels(game)
    return "greedy" if "greedy" in levels else levels[0]


def _level_names(locale: str, levels: str) -> str:
    """The computer seats' levels (codes, ``greedy, expert``) as a player reads them: their
    names (``Normal``, ``普通``), never their codes."""
    names = [level_name(locale, code.strip()) for code in levels.split(",")]
    return (", " if locale == "en" else "、").join(names)


def _known_levels(game: Game) -> list[str]:
    """The computer levels ``game`` offers, weakest first."""
    if game is Game.TSUNG_SHAP:
        return levels_for(game)
    return sorted(AI_LEVELS)


def _configure(args: argparse.Namespace) -> _Config:
    """Build the rule set and check the options; raises with a one-line message."""
    game = Game(args.game)
    locale: str = args.lang
    opponents: int = args.opponents if args.opponents is not None else _default_opponents(game)
    if opponents < 1:
        raise _UsageError(N_("--opponents must be at least 1, not {n}"), n=opponents)
    rules = make_rules(game, opponents + 1, args.rules)
    for spec in args.rule:
        name, sep, value = str(spec).partition("=")
        if not sep or not name.strip():
            raise _UsageError(N_("--rule expects NAME=VALUE, not '{spec}'"), spec=spec)
        rules = with_flag(rules, name.strip().replace("-", "_"), value.strip())
    level: str = args.ai or _default_level(game)
    if game is Game.TSUNG_SHAP and level not in levels_for(game):
        raise _UsageError(
            N_("unknown AI level '{level}' for tsung-shap: choose one of {known}"),
            level=level,
            known=", ".join(f"'{known}'" for known in levels_for(game)),
        )
    if game is not Game.TSUNG_SHAP and level not in AI_LEVELS:
        raise _UsageError(
            N_("unknown AI level '{level}': choose one of {known}"),
            level=level,
            known=", ".join(f"'{known}'" for known in sorted(AI_LEVELS)),
        )
    seat: int = args.seat
    if not 0 <= seat < rules.players:
        raise _UsageError(
            N_("--seat must be between 0 and {last}, not {seat}"), last=rules.players - 1, seat=seat
        )
    # The default name is the table's word for "you" (English "You" reads the verb forms).
    name = " ".join(str(tr(locale, "You") if args.name is None else args.name).split())
    if not name:
        raise _UsageError(N_("--name must not be empty"))
    if name in _bot_names(rules.players, locale):
        raise _UsageError(
            N_("--name '{name}' is the name of a computer player: choose another"), name=name
        )
    return _Config(rules=rules, level=level, name=name, seat=seat, seed=args.seed)


def _default_opponents(game: Game) -> int:
    return 3 if game is Game.KAP_TAI_SHAP else 1


def _bot_names(players: int, locale: str = "en") -> list[str]:
    return [tr(locale, "Bot {n}", n=i) for i in range(1, players)]


def _seat_names(players: int, human: int, name: str, locale: str = "en") -> list[str]:
    bots = iter(_bot_names(players, locale))
    return [name if seat == human else next(bots) for seat in range(players)]


def _isatty(stream: TextIO) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError):
        return False


def main(
    argv: list[str] | None = None,
    *,
    stdin: TextIO | None = None,
    stdout: TextIO | None = None,
    stderr: TextIO | None = None,
) -> int:
    """Run ``kapshap play`` with ``argv`` (the arguments after ``play``); returns the exit status.

    0 when the game ends, or when the player quits or input ends; 2 for invalid options (with a
    one-line message on ``stderr``); 130 when interrupted.
    """
    inp = stdin if stdin is not None else sys.stdin
    out = stdout if stdout is not None else sys.stdout
    err = stderr if stderr is not None else sys.stderr
    args = sys.argv[1:] if argv is None else list(argv)
    try:
        return _main(args, inp, out, err)
    except KeyboardInterrupt:
        out.write("\n" + tr(lang_of_args(args), "Interrupted: the game is abandoned.") + "\n")
        return 130
    except BrokenPipeError:
        # The reader went away (e.g. `kapshap play | head`): stop quietly, like other CLI tools.
        if out is sys.stdout:
            # Python would report the failed flush of stdout at exit; point it at /dev/null.
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
        return 0


def _main(args: list[str], inp: TextIO, out: TextIO, err: TextIO) -> int:
    parser = build_parser()
    locale = lang_of_args(args)
    try:
        namespace = parser.parse_args(args)
        if namespace.help:
            out.write(parser.format_help())
            return 0
        # Only a language chosen is still no game chosen: a terminal asks the questions.
        chosen = [
            a for a in args if a not in ("--lang", namespace.lang, f"--lang={namespace.lang}")
        ]
        interactive = namespace.setup or (not chosen and _isatty(inp))
        if interactive and not _Setup(namespace, inp, out).run():
            out.write("\n" + tr(locale, "End of input: no game started.") + "\n")
            return 0
        config = _configure(namespace)
    except (_UsageError, EngineError, ValueError) as error:
        # Argparse's own complaints (an unknown option, a bad choice) stay in its English.
        text = error.text(locale) if isinstance(error, _UsageError) else str(error)
        if isinstance(error, EngineError) and locale != "en":
            known = recognize(_one_line(text), RULES_ERRORS)
            text = text if known is None else known.localized(locale)
        prefix = tr(locale, "{prog}: error: {message}", prog=PROG, message=_one_line(text))
        err.write(prefix + "\n")
        return 2
    seed = config.seed if config.seed is not None else random.Random().randrange(1_000_000_000)
    while True:
        rng = random.Random(seed)
        deal = make_deal(config.rules, rng, thrower=config.seat)
        finished = _play(
            config.rules,
            deal,
            names=_seat_names(config.rules.players, config.seat, config.name, namespace.lang),
            human=config.seat,
            ai_level=config.level,
            rng=rng,
            stdin=inp,
            stdout=out,
            seed=seed,
            locale=namespace.lang,
        )
        if not finished or not _another_game(inp, out, namespace.lang):
            return 0
        # The next game gets a fresh deal: a new seed (printed in its announcement).
        seed = random.Random().randrange(1_000_000_000)


def _another_game(inp: TextIO, out: TextIO, locale: str = "en") -> bool:
    """Ask whether to play again with the same options; only 'y' or 'yes' (or 是, 好) says
    so."""
    out.write("\n" + tr(locale, "Play another game with the same options? [y/N] "))
    out.flush()
    line = inp.readline()
    answer = line.strip().lower()
    if line and not _isatty(inp):
        out.write(answer + "\n")
    if not line:
        out.write("\n")
    return answer in ("y", "yes", "是", "好")


def run_game(
    rules: RuleSet,
    deal: Deal,
    *,
    names: Sequence[str],
    human: int,
    ai_level: str | Mapping[int, AnyPlayer],
    rng: random.Random,
    stdin: TextIO,
    stdout: TextIO,
    seed: int | None = None,
    locale: str = "en",
) -> int:
    """Play one game on an exact ``deal`` with the human at seat ``human``; returns 0.

    ``ai_level`` is a level name for every computer seat, or the players by seat. ``rng`` drives
    the computer players. Tests pass a deal built with :func:`bot.engine.deal_from_tiles`, or
    :func:`bot.engine.deal_from_piles` for Tsung Shap. ``locale``: the language of the table
    (``--lang``).
    """
    _play(
        rules,
        deal,
        names=names,
        human=human,
        ai_level=ai_level,
        rng=rng,
        stdin=stdin,
        stdout=stdout,
        seed=seed,
        locale=locale,
    )
    return 0


def _play(
    rules: RuleSet,
    deal: Deal,
    *,
    names: Sequence[str],
    human: int,
    ai_level: str | Mapping[int, AnyPlayer],
    rng: random.Random,
    stdin: TextIO,
    stdout: TextIO,
    seed: int | None = None,
    locale: str = "en",
) -> bool:
    """Play one game (see :func:`run_game`); True when it reached its end, False when the
    player left."""
    _warm_master(rules.game, ai_level, stdout, locale)
    if rules.game is Game.TSUNG_SHAP:
        if isinstance(ai_level, str):
            bots: dict[int, AnyPlayer] = {
                seat: player_for(Game.TSUNG_SHAP, ai_level)
                for seat in range(rules.players)
                if seat != human
            }
            name = ai_level
        else:
            bots = dict(ai_level)
            name = ", ".join(sorted({p.level for p in bots.values()}))
        fishing = _FishingTable(rules, deal, list(names), human, bots, rng, stdin, stdout)
        fishing.locale = locale
        fishing.play(name, seed)
        return fishing.finished
    if isinstance(ai_level, str):
        players: dict[int, Player] = {
            seat: get_player(ai_level) for seat in range(rules.players) if seat != human
        }
        level = ai_level
    else:
        players = dict(ai_level)
        level = ", ".join(sorted({p.level for p in players.values()}))
    table = _Table(rules, deal, list(names), human, players, rng, stdin, stdout)
    table.locale = locale
    table.play(level, seed)
    return table.finished


def _warm_master(
    game: Game, ai_level: str | Mapping[int, AnyPlayer], out: TextIO, locale: str
) -> None:
    """A master at the table compiles its kernel now, not at its first move, and says so
    when it really compiles (on a fresh machine; later its kernel loads from the disk cache
    in a moment)."""
    levels = {ai_level} if isinstance(ai_level, str) else {p.level for p in ai_level.values()}
    if "master" not in levels:
        return
    from bot.ai.warm import announcing, warm_master

    def announce() -> None:
        out.write(tr(locale, "compiling the simulation kernel once (about 15 s)…") + "\n")
        out.flush()

    with announcing(announce):
        warm_master(game)


# ---------------------------------------------------------------------------------------------
# Interactive set-up


# What a player may type at the set-up for a game or a rule set besides its name: short forms
# and the Chinese names, in both scripts.
_GAME_ALIASES: dict[str, str] = {
    "ks": "kap-shap",
    "kts": "kap-tai-shap",
    "ts": "tsung-shap",
    "夾十": "kap-shap",
    "夹十": "kap-shap",
    "夾大十": "kap-tai-shap",
    "夹大十": "kap-tai-shap",
    "爭十": "tsung-shap",
    "争十": "tsung-shap",
}
_RULE_SET_ALIASES: dict[str, str] = {
    "古林": "culin",
    "傳統": "classic",
    "传统": "classic",
    "吃後摸": "last-draw",
    "吃后摸": "last-draw",
}


class _Setup:
    """Asks game, opponents, rule set and level, with the current options as defaults."""

    def __init__(self, args: argparse.Namespace, inp: TextIO, out: TextIO) -> None:
        self.args = args
        self.inp = inp
        self.out = out
        self.echo = not _isatty(inp)
        self.locale: str = args.lang

    def lt(self, msgid: str, **values: Any) -> str:
        """``msgid`` in the language of ``--lang``."""
        return tr(self.locale, msgid, **values)

    def run(self) -> bool:
        """Fill the namespace from the answers; False when input ends."""
        self.out.write(self.lt("New game (press Enter to keep the default in brackets).") + "\n")
        game = self._ask(
            self.lt("Game: kap-shap, kap-tai-shap or tsung-shap"),
            self.args.game,
            self._game,
        )
        if game is None:
            return False
        self.args.game = game
        if Game(game) is Game.TSUNG_SHAP:
            self.args.opponents = 1
            self.args.rules = None
            return self._ask_level(Game.TSUNG_SHAP)
        if Game(game) is Game.KAP_SHAP:
            self.args.opponents = 1
        else:
            default = self.args.opponents or _default_opponents(Game.KAP_TAI_SHAP)
            opponents = self._ask(self.lt("Opponents (1 to 27)"), str(default), self._opponents)
            if opponents is None:
                return False
            self.args.opponents = int(opponents)
        players = self.args.opponents + 1
        default_set = self.args.rules or make_rules(game, players).rule_set_name
        rule_set = self._ask(
            self.lt("Rule set: culin, classic or last-draw"), default_set, self._rule_set
        )
        if rule_set is None:
            return False
        self.args.rules = rule_set
        return self._ask_level(Game(game))

    def _ask_level(self, game: Game) -> bool:
        known = _known_levels(game)
        # A level is typed by its code (as --ai takes it) or by its name in any language.
        names = {
            name.casefold(): level
            for level in known
            for locale in LOCALES
            for name in (level, level_name(locale, level))
        }
        # Each level by its name with the code to type: 普通（'greedy'）, Normal ('greedy').
        shown = (", " if self.locale == "en" else "、").join(
            self.lt("{name} ('{code}')", name=level_name(self.locale, level), code=level)
            for level in known
        )

        def check(text: str) -> str:
            level = names.get(text.strip().casefold())
            if level is None:
                raise ValueError(self.lt("choose one of {options}", options=shown))
            return level

        level = self._ask(
            self.lt("Computer level: {levels}", levels=shown),
            self.args.ai or _default_level(game),
            check,
        )
        if level is None:
            return False
        self.args.ai = level
        return True

    def _game(self, text: str) -> str:
        name = _GAME_ALIASES.get(text.lower(), text.lower())
        if name not in {g.value for g in Game}:
            options = ", ".join(g.value for g in Game)
            raise ValueError(self.lt("choose one of {options}", options=options))
        return name

    def _opponents(self, text: str) -> str:
        if not text.isdigit() or not 1 <= int(text) <= 27:
            raise ValueError(self.lt("answer a number from 1 to 27"))
        return text

    def _rule_set(self, text: str) -> str:
        name = _RULE_SET_ALIASES.get(text, text.lower())
        if name not in RULE_SETS:
            raise ValueError(self.lt("choose one of {options}", options=", ".join(RULE_SETS)))
        return name

    def _ask(self, question: str, default: str, check: Callable[[str], str]) -> str | None:
        # In Chinese the default is quoted: it is a word the player could type.
        shown = default if self.locale == "en" else f"'{default}'"
        while True:
            self.out.write(f"{question} [{shown}]: ")
            self.out.flush()
            line = self.inp.readline()
            if not line:
                return None
            answer = line.strip()
            if self.echo:
                self.out.write(answer + "\n")
            if not answer:
                return default
            try:
                return check(answer)
            except ValueError as error:
                line = _one_line(str(error))
                self.out.write(f"! {line[:1].upper()}{line[1:]}\n")


# ---------------------------------------------------------------------------------------------
# The game


@dataclass(frozen=True)
class _Leave:
    """The player leaves: ``quit`` or end of input."""

    message: str


class _Console:
    """What every game's terminal table shares: the seats, the streams and the prompt."""

    def __init__(
        self,
        rules: RuleSet,
        deal: Deal,
        names: list[str],
        human: int,
        rng: random.Random,
        inp: TextIO,
        out: TextIO,
    ) -> None:
        self.rules = rules
        self.deal = deal
        self.finished = False  # the game reached its end (not left)
        self.names = names
        self.human = human
        self.rng = rng
        self.inp = inp
        self.out = out
        self.echo = not _isatty(inp)
        self.locale = "en"  # --lang: the language of the table's words (bot.locale)

    def lt(self, msgid: str, **values: Any) -> str:
        """``msgid`` in the table's language."""
        return tr(self.locale, msgid, **values)

    def rules_line(self) -> str:
        """The rules in one line: the engine's English summary, or in the table's language
        the same words as the bot's table message, with any flag set by ``--rule``."""
        rules = self.rules
        if self.locale == "en":
            return rules.describe()
        if rules.game is Game.TSUNG_SHAP:
            text = self.lt(
                "Standard rules · 2 players · 1 set · piles of {size}", size=rules.pile_size
            )
        else:
            name = _RULE_SET_TITLES.get(rules.rule_set_name, rules.rule_set_name)
            text = self.lt(
                "{name} rules · {players} players · {sets} · hand of {size}",
                name=self.lt(name),
                players=rules.players,
                sets=nt(self.locale, "{n} set", "{n} sets", rules.sets),
                size=rules.hand_size,
            )
        chosen = chosen_variants(rules)
        return text + "".join(f" · {k}={v}" for k, v in chosen.items())

    def refusal(self, text: str, hint: str, typed: str | None = None) -> None:
        """An engine refusal or notation error (English, lower case) with ``hint`` after it:
        as it is in English, else recognized and worded in the table's language (or, when
        not recognized, a general line quoting what was ``typed`` for a notation error)."""
        if self.locale == "en":
            self.error(f"{text} ({hint})")
            return
        line = _one_line(text)
        sentence = line[:1].upper() + line[1:] + ("" if line.endswith((".", "!", "?")) else ".")
        known = recognize(sentence, ENGINE_REFUSALS)
        if known is not None:
            reason = known.localized(self.locale)
        elif typed is not None:
            reason = self.lt("Cannot read '{text}' as a move or a tile.", text=typed)
        else:
            reason = self.lt("That move cannot be played now.")
        self.say("! " + self.lt("{reason} ({hint})", reason=reason, hint=self.lt(hint)))

    def legal_line(self, legal: Sequence[FishingAction] | Sequence[Action]) -> None:
        """The legal actions in notation (quoted in Chinese: they are what the player types)."""
        if self.locale == "en":
            self.say(LEGAL_PREFIX + ", ".join(str(a) for a in legal))
            return
        moves = "、".join(f"'{a}'" for a in legal)
        self.say(self.lt("Legal moves: {moves}", moves=moves))

    def fallback(self, seat: int, action: object, error: Exception, fallback: object) -> None:
        """A computer player's refused choice (a bug in it, shown rather than hidden)."""
        if self.locale == "en":
            self.say(f"({self.names[seat]} tried '{action}': {error}; playing '{fallback}'.)")
            return
        self.say(
            self.lt(
                "({name} tried '{action}', which is not allowed; playing '{fallback}'.)",
                name=self.names[seat],
                action=action,
                fallback=fallback,
            )
        )

    def label(self, tile: Tile) -> str:
        """``6-5 Axe 斧頭``, or ``6-5 斧头`` in Chinese (the name in the locale's script)."""
        if self.locale == "en":
            return tile.label
        return f"{tile} {tile_name(self.locale, tile.english, tile.chinese)}"

    def say(self, text: str = "") -> None:
        self.out.write(text + "\n")

    def error(self, text: str) -> None:
        line = _one_line(text)
        # Engine refusals are written lower case (to follow other words); a reply is a sentence.
        self.say(f"! {line[:1].upper()}{line[1:]}")

    def turn_header(self, seat: int, turn: int) -> None:
        self.say()
        if seat == self.human:
            self.say(self.lt("=== Turn {turn}: your turn ===", turn=turn))
        elif self.locale != "en":
            self.say(self.lt("Turn {turn}: {name} to play.", turn=turn, name=self.names[seat]))
        else:
            self.say(describe_event(TurnStarted(seat, turn), self.human, self.names))

    def read(self) -> str | None:
        """One line typed at the prompt, stripped (echoed when input is not a terminal);
        None at the end of input."""
        self.out.write(PROMPT)
        self.out.flush()
        line = self.inp.readline()
        if not line:
            self.say()
            return None
        text = line.strip()
        if self.echo:
            self.say(text)
        return text


class _Table(_Console):
    """One game in progress, seen from the human seat."""

    def __init__(
        self,
        rules: RuleSet,
        deal: Deal,
        names: list[str],
        human: int,
        players: Mapping[int, Player],
        rng: random.Random,
        inp: TextIO,
        out: TextIO,
    ) -> None:
        super().__init__(rules, deal, names, human, rng, inp, out)
        self.players = players
        self.state = new_game(rules, names, deal)

    # -- output helpers ----------------------------------------------------------------------

    def me(self, seat: int) -> bool:
        return seat == self.human

    def verb(self, seat: int, third: str, base: str) -> str:
        """``Bot 1 throws`` / ``You throw``."""
        name = self.names[seat]
        return f"{name} {base if name == 'You' else third}"

    # -- the game loop -----------------------------------------------------------------------

    def play(self, level: str, seed: int | None) -> int:
        self.announce(level, seed)
        self.turn_header(self.deal.first_seat, 1)
        while True:
            seen = view(self.state, self.human)
            if seen.result is not None:
                self.game_over(seen.result)
                self.finished = True
                return 0
            if seen.my_turn:
                leave = self.human_step(seen)
                if leave is not None:
                    self.say(leave.message)
                    return 0
            else:
                self.computer_step(seen.current)

    def announce(self, level: str, seed: int | None) -> None:
        rules = self.rules
        title = _GAME_TITLES[rules.game]
        self.say(self.lt("{title}: {rules}.", title=self.lt(title), rules=self.rules_line()))
        if seed is not None:
            self.say(self.lt("Seed {seed} (--seed {seed} deals this game again).", seed=seed))
        if self.locale != "en":
            self.announce_translated(level)
            return
        seats = ", ".join(
            f"{seat}: {name}"
            + ("" if self.me(seat) else f" ({_level_names(self.locale, level)} AI)")
            for seat, name in enumerate(self.names)
        )
        self.say(f"Seats in play order: {seats}.")
        first = self.deal.first_seat
        starter = self.names[first]
        plays_first = "you play first" if self.me(first) else f"{starter} plays first"
        if self.deal.dice:
            thrower = self.deal.thrower
            total = sum(self.deal.dice)
            dice = " + ".join(str(d) for d in self.deal.dice)
            side = "your" if self.me(thrower) else f"{self.names[thrower]}'s"
            self.say(
                f"{self.verb(thrower, 'throws', 'throw')} the four dice: {dice} = {total}; "
                f"counting {total} round from {side} right, {plays_first}."
            )
        elif rules.first_player is FirstPlayer.LOTS:
            self.say(f"Lots are drawn: {plays_first}.")
        else:
            self.say(f"{plays_first[0].upper()}{plays_first[1:]}.")
        wall = view(self.state, self.human).wall_size
        dealt = "You are" if self.me(first) else f"{starter} is"
        self.say(
            f"{dealt} dealt {rules.hand_size} tiles, everyone else {rules.hand_size - 1}; "
            f"{wall} tiles form the wall."
        )
        self.say(
            "Type a move in notation (e.g. 'discard 3-1', 'd 31' or just '31'; 'dr' draws), "
            "'?' for your legal moves, 'help' for the rules, 'quit' to leave."
        )

    def event_line(self, event: Event) -> str:
        """One event for the human seat: the engine's English line, or in the table's language
        with the same wording as the bot's Discord messages (the catalogue's)."""
        if self.locale == "en":
            return describe_event(event, self.human, self.names)
        names = self.names
        match event:
            case Took(seat, tile, from_seat) if from_seat == seat:
                return self.lt("{name} took back {tile}.", name=names[seat], tile=self.label(tile))
            case Took(seat, tile, from_seat):
                return self.lt(
                    "{name} took {tile} discarded by {other}.",
                    name=names[seat],
                    tile=self.label(tile),
                    other=names[from_seat],
                )
            case Drew(seat, tile, wall_left) if seat == self.human:
                return self.lt(
                    "You drew {tile} ({left} left in the wall).",
                    tile=self.label(tile),
                    left=wall_left,
                )
            case Drew(seat, _tile, wall_left):
                return self.lt(
                    "{name} drew a tile ({left} left in the wall).",
                    name=names[seat],
                    left=wall_left,
                )
            case Discarded(seat, tile):
                return self.lt("{name} discarded {tile}.", name=names[seat], tile=self.label(tile))
            case Declared(seat, witness, win_by):
                msgid = {
                    WinBy.DEALT: N_("{name} declared a winning hand as dealt: {witness}."),
                    WinBy.TAKE: N_(
                        "{name} declared a winning hand by taking a discard: {witness}."
                    ),
                    WinBy.DRAW: N_(
                        "{name} declared a winning hand with a tile drawn from the wall: {witness}."
                    ),
                }[win_by]
                # The witness's own text says "eye": the same groups, the word translated.
                groups = [self.lt("eye {tiles}", tiles=f"{witness.eye[0]} {witness.eye[1]}")]
                groups += [f"{a} {b}" for a, b in witness.pairs]
                return self.lt(msgid, name=names[seat], witness=" | ".join(groups))
            case GameDrawn(reason):
                if reason is EndReason.WALL:
                    return self.lt("The game is drawn: the wall is exhausted.")
                return self.lt("The game is drawn: the turn limit.")
        return describe_event(event, self.human, self.names)

    def announce_translated(self, level: str) -> None:
        """The seats, who starts and the deal, in the table's language (not English:
        ``announce`` words it with the English verb forms)."""
        rules = self.rules
        seats = "、".join(
            f"{seat}：{name}"
            + (
                ""
                if self.me(seat)
                else self.lt(" ({level} AI)", level=_level_names(self.locale, level))
            )
            for seat, name in enumerate(self.names)
        )
        self.say(self.lt("Seats in play order: {seats}.", seats=seats))
        first = self.names[self.deal.first_seat]
        if self.deal.dice:
            self.say(
                self.lt(
                    "{name} throws the four dice: {dice} = {total}; counting round from his "
                    "right, {first} plays first.",
                    name=self.names[self.deal.thrower],
                    dice=" + ".join(str(d) for d in self.deal.dice),
                    total=sum(self.deal.dice),
                    first=first,
                )
            )
        else:
            self.say(self.lt("{first} plays first.", first=first))
        self.say(
            self.lt(
                "{first} is dealt {size} tiles, everyone else {rest}; {wall} tiles form the wall.",
                first=first,
                size=rules.hand_size,
                rest=rules.hand_size - 1,
                wall=view(self.state, self.human).wall_size,
            )
        )
        self.say(
            self.lt(
                "Type a move in notation (e.g. 'discard 3-1', 'd 31' or just '31'; 'dr' draws), "
                "'?' for your legal moves, 'help' for the rules, 'quit' to leave."
            )
        )

    def narrate(self, events: Sequence[Event]) -> None:
        for event in events:
            if isinstance(event, TurnStarted):
                self.turn_header(event.seat, event.turn)
            else:
                self.say(self.event_line(event))

    def computer_step(self, seat: int) -> None:
        legal = legal_actions(self.state)
        action = self.players[seat].choose(view(self.state, seat), legal, self.rng)
        try:
            self.state, events = apply(self.state, action)
        except IllegalAction as error:
            fallback = legal[0]
            self.fallback(seat, action, error, fallback)
            self.state, events = apply(self.state, fallback)
        self.narrate(events)

    def human_step(self, seen: View) -> _Leave | None:
        """Prompt until one legal action is played (None) or the player leaves."""
        legal = legal_actions(self.state)
        self.show_status(seen, legal)
        while True:
            line = self.read()
            if line is None:
                return _Leave(
                    self.lt("End of input: you leave the table and the game is abandoned.")
                )
            try:
                reply = self.interpret(line, seen, legal)
            except NotationError as error:
                self.refusal(str(error), N_("type 'help' for the notation"), " ".join(line.split()))
                continue
            if isinstance(reply, _Leave):
                return reply
            if isinstance(reply, str):
                if reply:
                    self.error(reply)
                continue
            try:
                self.state, events = apply(self.state, reply)
            except IllegalAction as error:
                self.refusal(str(error), N_("type '?' for your legal moves"))
                continue
            self.narrate(events)
            return None

    # -- input -------------------------------------------------------------------------------

    def interpret(self, line: str, seen: View, legal: Sequence[Action]) -> Action | str | _Leave:
        """An action to play, a message to show ('' for none) or a request to leave.

        Commands are carried out here. Raises NotationError for unreadable tiles and actions.
        """
        text = " ".join(line.split())
        lower = text.lower()
        if not text:
            if len(legal) == 1:
                return legal[0]
            return self.lt("type a move, or '?' for the legal moves")
        command = _COMMANDS.get(lower)
        if command == "quit":
            return _Leave(self.lt("You leave the table; the game is abandoned."))
        if command == "help":
            self.show_help()
            return ""
        if command == "legal":
            self.show_legal(legal)
            return ""
        if command == "hand":
            self.show_hand(seen)
            return ""
        if command == "pool":
            self.show_pool(seen, legal)
            return ""
        if command == "look":
            self.show_status(seen, legal)
            return ""
        return self.parse_move(text, seen)

    def parse_move(self, text: str, seen: View) -> Action | str:
        verb, _, rest = text.partition(" ")
        verb = verb.lower()
        if verb in ("t", "tk"):
            return Take(parse_tile(rest) if rest else None)
        # 'd' is always discard and 'dr' always draw: one letter never means two moves.
        if verb in ("d", "dis", "disc"):
            if rest:
                return Discard(parse_tile(rest))
            return self.lt(
                "'d' is short for discard: name the tile ('d 31'); to draw, type 'dr' or 'draw'"
            )
        if verb in ("dr", "draw") and not rest:
            return Draw()
        if verb in ("win", "dec", "declare") and not rest:
            return Declare()
        if verb in ("take", "discard", "draw", "declare"):
            return parse_action(text)
        # A bare tile: discard it when discarding, take it when taking.
        try:
            tile = parse_tile(text)
        except NotationError:
            if text[0].isdigit() or text[0] == "[":
                raise
            return parse_action(text)
        if seen.phase is Phase.DISCARD:
            return Discard(tile)
        if seen.phase is Phase.TAKE_OR_DRAW:
            return Take(tile)
        return self.lt("you must draw from the wall now, not play {tile}", tile=tile)

    # -- display -----------------------------------------------------------------------------

    def show_status(self, seen: View, legal: Sequence[Action]) -> None:
        if seen.phase is Phase.DRAW:
            self.say(
                self.lt(
                    "Now draw from the wall ({tiles} left).",
                    tiles=_tiles(seen.wall_size, self.locale),
                )
            )
            self.show_legal(legal)
            return
        self.show_hand(seen)
        self.show_pool(seen, legal)
        # In Chinese "Bot 1 9" would read as one number: the count follows a colon.
        each, sep = ("{} {}", ", ") if self.locale == "en" else ("{}：{}", "、")
        others = sep.join(
            each.format(self.names[s], n) for s, n in enumerate(seen.hand_sizes) if not self.me(s)
        )
        self.say(
            self.lt(
                "Wall: {wall}. Others hold: {others} tiles.",
                wall=_tiles(seen.wall_size, self.locale),
                others=others,
            )
        )
        if seen.phase is Phase.DISCARD and seen.turn == 1 and seen.history == ():
            self.say(
                self.lt(
                    "You start with {n} tiles: discard one, or declare a win.", n=len(seen.hand)
                )
            )
        if Declare() in legal:
            self.say(self.lt("Your hand wins: type 'declare'!"))
        forced = self.rules.stall_guard and seen.turns_without_draw >= self.rules.players
        if seen.phase is Phase.TAKE_OR_DRAW and forced and Draw() in legal:
            # The legal actions say whether a take is left: only one that wins would be.
            wins = any(isinstance(a, Take) for a in legal)
            self.say(
                self.lt(
                    "{n} turns in a row took a discard without a draw: take only a discard "
                    "that wins, or draw."
                    if wins
                    else "{n} turns in a row took a discard without a draw: you must draw.",
                    n=seen.turns_without_draw,
                )
            )
        self.show_legal(legal)

    def show_hand(self, seen: View) -> None:
        self.say(self.lt("Your hand ({n} tiles):", n=len(seen.hand)))
        counts = Counter(seen.hand)
        for tile in sort_tiles(counts):
            times = f" ×{counts[tile]}" if counts[tile] > 1 else ""
            self.say(f"  {self.label(tile)}{times}{self.value_note(tile)}")

    def game_over_translated(self, result: Result) -> None:
        """The end of the game in the table's language (not English: ``game_over`` has its
        own wording there, with the English verb forms)."""
        if result.winner is None or result.witness is None:
            why = (
                self.lt("the turn limit of {n} turns was reached", n=self.rules.max_turns)
                if result.reason is EndReason.CAP
                else self.lt("the wall is exhausted")
            )
            refund = (
                self.lt("the pot stays on the table for the next game")
                if self.rules.pot_carries_over
                else self.lt("every ante is refunded")
            )
            self.say(
                self.lt(
                    "The game is drawn on turn {turn}: {why}; {refund}.",
                    turn=result.turn,
                    why=why,
                    refund=refund,
                )
            )
            return
        how = {
            WinBy.DEALT: N_("{name} wins on turn {turn}, with the hand as dealt."),
            WinBy.TAKE: N_("{name} wins on turn {turn}, by taking a discard."),
            WinBy.DRAW: N_("{name} wins on turn {turn}, with a tile drawn from the wall."),
        }[result.win_by or WinBy.DEALT]
        self.say(self.lt(how, name=self.names[result.winner], turn=result.turn))
        self.say(self.lt("Winning arrangement:"))
        eye = result.witness.eye
        eye_word, pair_word = self.lt("eye"), self.lt("pair")
        self.say(f"  {eye_word}   {self.label(eye[0])} + {self.label(eye[1])}")
        for a, b in result.witness.pairs:
            x, y = _pair_values(a, b, self.rules.four_two_value)
            self.say(f"  {pair_word}  {self.label(a)} + {self.label(b)}  ({x} + {y} = {x + y})")

    def value_note(self, tile: Tile) -> str:
        four_two = self.rules.four_two_value
        if four_two is FourTwo.WILD and tile in (_FOUR_TWO, _TWO_ONE):
            return self.lt(" (counts 3 or 6)")
        if four_two is FourTwo.THREE and tile == _FOUR_TWO:
            return self.lt(" (counts 3)")
        return ""

    def show_pool(self, seen: View, legal: Sequence[Action]) -> None:
        if not seen.pool:
            self.say(self.lt("Discards: none yet."))
            return
        latest = seen.pool[-1]
        self.say(
            self.lt(
                "Discards ({n} face up; latest {tile} by {name}):",
                n=len(seen.pool),
                tile=latest.tile,
                name=self.names[latest.seat],
            )
        )
        takeable = {a.tile for a in legal if isinstance(a, Take) and a.tile is not None}
        counts = Counter(p.tile for p in seen.pool)
        dead = Counter(p.tile for p in seen.pool if p.dead)
        taking = seen.my_turn and seen.phase is Phase.TAKE_OR_DRAW
        for tile in sort_tiles(counts):
            times = f" ×{counts[tile]}" if counts[tile] > 1 else ""
            n_dead = dead[tile]
            if tile in takeable:
                mark = self.lt(" - you may take it")
                if n_dead:
                    mark += self.lt(" ({n} dead)", n=n_dead)
            elif n_dead == counts[tile]:
                mark = self.lt(" - dead")
            elif taking and self.rules.exclude_own_discards and self.all_mine(seen, tile):
                mark = self.lt(" - your own discard: you may not take it back")
            elif taking:
                mark = self.lt(" - not takeable now")
            else:
                mark = self.lt(" ({n} dead)", n=n_dead) if n_dead else ""
            self.say(f"  {self.label(tile)}{times}{mark}")

    def all_mine(self, seen: View, tile: Tile) -> bool:
        """Whether every live copy of ``tile`` in the pool was discarded by the human."""
        return all(p.seat == self.human for p in seen.pool if p.tile == tile and not p.dead)

    def show_legal(self, legal: Sequence[Action]) -> None:
        self.legal_line(legal)

    def show_help(self) -> None:
        rules = self.rules
        h = rules.hand_size
        eyes = N_("two identical tiles") if rules.military_eyes else N_("two identical civil tiles")
        four_two = {
            FourTwo.THREE: N_("4-2 counts 3"),
            FourTwo.SIX: N_("4-2 counts 6"),
            FourTwo.WILD: N_("4-2 and 2-1 each count 3 or 6"),
        }[rules.four_two_value]
        lines = [
            self.lt("Rules in force: {rules}.", rules=self.rules_line()),
            self.lt(
                "  Goal: {size} tiles = one eye ({eyes}) + {pairs} ten-pairs (two tiles whose "
                "pips total 10 or 20; {four_two}).",
                size=h,
                eyes=self.lt(eyes),
                pairs=rules.pairs,
                four_two=self.lt(four_two),
            ),
            self.lt("  A turn: {turn}", turn=_turn_rule(rules, self.locale)),
            self.lt(
                "  First turn: the first player holds {size} tiles and discards one, then "
                "draws and discards again."
                if rules.first_turn_extra_draw
                else "  First turn: the first player holds {size} tiles and discards one.",
                size=h,
            ),
            self.lt(
                "  Declare on your turn as soon as your hand wins; the game is drawn when the "
                "wall runs out or after {turns} turns.",
                turns=rules.max_turns,
            ),
        ]
        if rules.exclude_own_discards:
            lines.append(self.lt("  You may not take back your own discards."))
        if rules.stall_guard and not rules.draw_after_take:
            # With a draw after every take no turn passes without a draw: the guard cannot apply.
            lines.append(
                self.lt(
                    "  After {players} turns in a row of taking without drawing, the next "
                    "player must draw unless taking wins.",
                    players=rules.players,
                )
            )
        lines += [
            self.lt("Moves (the prompt lists the legal ones):"),
            self.lt("  take 6-5 | t 65    take a face-up discard ('take' alone: the most recent)"),
            self.lt("  draw | dr          draw from the wall"),
            self.lt(
                "  discard 3-1 | d 31 | 31    discard a tile (a bare tile discards it, or takes it"
            ),
            self.lt("                     when you may take or draw)"),
            self.lt("  declare            declare your winning hand"),
            self.lt("Tiles: 6-5, 56, [6:5], 6/5 or a name (Axe, 斧頭)."),
            self.lt(
                "Commands: ? or legal (legal moves), hand, pool, look (everything), help, quit."
            ),
        ]
        for line in lines:
            self.say(line)

    def game_over(self, result: Result) -> None:
        self.say()
        self.say(self.lt("=== Game over ==="))
        if self.locale != "en":
            self.game_over_translated(result)
            return
        if result.winner is None or result.witness is None:
            if result.reason is EndReason.CAP:
                why = f"the turn limit of {self.rules.max_turns} turns was reached"
            else:
                why = "the wall is exhausted"
            refund = (
                "the pot stays on the table for the next game"
                if self.rules.pot_carries_over
                else "every ante is refunded"
            )
            self.say(f"The game is drawn on turn {result.turn}: {why}; {refund}.")
            return
        how = {
            WinBy.DEALT: "with the hand as dealt",
            WinBy.TAKE: "by taking a discard",
            WinBy.DRAW: "with a tile drawn from the wall",
        }[result.win_by or WinBy.DEALT]
        winner = result.winner
        self.say(f"{self.verb(winner, 'wins', 'win')} on turn {result.turn}, {how}.")
        self.say("Winning arrangement:")
        eye = result.witness.eye
        self.say(f"  eye   {eye[0].label} + {eye[1].label}")
        # In the witness's own order: the same order as the "declared a winning hand" line.
        for a, b in result.witness.pairs:
            x, y = _pair_values(a, b, self.rules.four_two_value)
            self.say(f"  pair  {a.label} + {b.label}  ({x} + {y} = {x + y})")


# ---------------------------------------------------------------------------------------------
# Tsung Shap

# Words the Tsung Shap prompt understands besides actions.
_FISHING_COMMANDS: dict[str, str] = {
    "幫助": "help",
    "帮助": "help",
    "走法": "legal",
    "牌局": "look",
    "離開": "quit",
    "离开": "quit",
    "help": "help",
    "h": "help",
    "legal": "legal",
    "?": "legal",
    "moves": "legal",
    "look": "look",
    "status": "look",
    "row": "look",
    "quit": "quit",
    "exit": "quit",
    "q": "quit",
}

# Shortcuts for the Tsung Shap actions.
_FISHING_SHORTCUTS: dict[str, FishingAction] = {
    "d": Draw(),
    "dr": Draw(),
    "l": Place(End.LEFT),
    "pl": Place(End.LEFT),
    "r": Place(End.RIGHT),
    "pr": Place(End.RIGHT),
}


class _FishingTable(_Console):
    """One Tsung Shap game in progress, seen from the human seat (everything is public but the
    order of the piles, which nobody knows)."""

    def __init__(
        self,
        rules: RuleSet,
        deal: Deal,
        names: list[str],
        human: int,
        players: Mapping[int, AnyPlayer],
        rng: random.Random,
        inp: TextIO,
        out: TextIO,
    ) -> None:
        super().__init__(rules, deal, names, human, rng, inp, out)
        self.players = players
        self.state: FishingState = new_game(rules, names, deal)

    def other(self) -> int:
        return 1 - self.human

    # -- the game loop -----------------------------------------------------------------------

    def play(self, level: str, seed: int | None) -> int:
        """Play to the end (0), or until the player quits or input ends (0 as well)."""
        self.announce(level, seed)
        self.turn_header(self.deal.first_seat, 1)
        while True:
            seen = view(self.state, self.human)
            if seen.result is not None:
                self.game_over(seen, seen.result)
                self.finished = True
                return 0
            if seen.my_turn:
                leave = self.human_step(seen)
                if leave is not None:
                    self.say(leave.message)
                    return 0
            else:
                self.computer_step(seen.current)

    def announce(self, level: str, seed: int | None) -> None:
        rules = self.rules
        title = self.lt(_GAME_TITLES[Game.TSUNG_SHAP])
        self.say(self.lt("{title}: {rules}.", title=title, rules=self.rules_line()))
        if seed is not None:
            self.say(self.lt("Seed {seed} (--seed {seed} deals this game again).", seed=seed))
        seats = (", " if self.locale == "en" else "、").join(
            (f"{seat}: {name}" if self.locale == "en" else f"{seat}：{name}")
            + (
                ""
                if seat == self.human
                else self.lt(" ({level} AI)", level=_level_names(self.locale, level))
            )
            for seat, name in enumerate(self.names)
        )
        self.say(self.lt("Seats: {seats}.", seats=seats))
        first = self.deal.first_seat
        if self.locale == "en":
            plays = "you play first" if first == self.human else f"{self.names[first]} plays first"
        else:
            plays = self.lt("{first} plays first", first=self.names[first])
        if self.deal.dice:
            dice = " + ".join(str(d) for d in self.deal.dice)
            self.say(
                self.lt(
                    "The four dice show {dice} = {total}: {plays}.",
                    dice=dice,
                    total=sum(self.deal.dice),
                    plays=plays,
                )
            )
        else:
            self.say(self.lt("{plays}.", plays=f"{plays[0].upper()}{plays[1:]}"))
        self.say(
            self.lt(
                "Each player turns over a face-down pile of {size} tiles, one a turn, "
                "and captures from the ends of the row.",
                size=rules.pile_size,
            )
        )
        self.say(
            self.lt(
                "Type a move as listed after 'Legal:' (e.g. 'draw', 'capture pair left', "
                "'place right'), '?' for your legal moves, 'help' for the rules, 'quit' to leave."
            )
        )

    def narrate(self, events: Sequence[FishingEvent]) -> None:
        for event in events:
            if isinstance(event, TurnStarted):
                self.turn_header(event.seat, event.turn)
            elif not isinstance(event, GameOver):  # game_over() prints the end
                self.say(self.event_line(event))

    def event_line(self, event: FishingEvent) -> str:
        """One event for the human seat: the engine's English line, or in the table's language
        with the words of the bot's table message (the catalogue's)."""
        if self.locale == "en":
            return describe_event(event, self.human, self.names)
        names = self.names

        def term(word: object) -> str:
            return tr(self.locale, str(word), context="term")

        match event:
            case TileTurned(seat, tile, pile_left, relay):
                msgid = (
                    N_("{name} at once turned over {tile} ({left} left in the pile).")
                    if relay
                    else N_("{name} turned over {tile} ({left} left in the pile).")
                )
                return self.lt(msgid, name=names[seat], tile=self.label(tile), left=pile_left)
            case Placed(seat, tile, end, _auto):
                if end is None:
                    return self.lt(
                        "{name} laid {tile} out to start a new row.",
                        name=names[seat],
                        tile=self.label(tile),
                    )
                return self.lt(
                    "{name} placed {tile} at the {end} end of the row.",
                    name=names[seat],
                    tile=self.label(tile),
                    end=term(end),
                )
            case Captured(seat, kind, end, tiles, score, sweep):
                joined = " + ".join(map(str, tiles))
                if sweep:
                    return self.lt(
                        "{name} swept the row with {tiles}: {score} points.",
                        name=names[seat],
                        tiles=joined,
                        score=score,
                    )
                return self.lt(
                    "{name} captured a {kind} at {where}, {tiles}: {score} points.",
                    name=names[seat],
                    kind=term(kind),
                    where=self.lt("both ends")
                    if end is End.ENDS
                    else self.lt("the {end} end", end=term(end)),
                    tiles=joined,
                    score=score,
                )
            case Swept(seat):
                return self.lt("{name} swept the table and starts a new row.", name=names[seat])
            case MissedCapture(seat, claimant, missed):
                options = "; ".join(
                    f"'{c.claim}' ({' + '.join(map(str, c.tiles))}: {c.score})" for c in missed
                )
                return self.lt(
                    "{name} could have captured and did not. {other} may claim one at the "
                    "start of the next turn: {options}.",
                    name=names[seat],
                    other=names[claimant],
                    options=options,
                )
            case Claimed(seat, from_seat, combo):
                return self.lt(
                    "{name} claimed the {kind} {other} missed ({end}), {tiles}: {score} points.",
                    name=names[seat],
                    kind=term(combo.kind),
                    other=names[from_seat],
                    end=term(combo.end),
                    tiles=" + ".join(map(str, combo.tiles)),
                    score=combo.score,
                )
        return describe_event(event, self.human, self.names)

    def computer_step(self, seat: int) -> None:
        legal = legal_actions(self.state)
        action = self.players[seat].choose(view(self.state, seat), legal, self.rng)
        try:
            self.state, events = apply(self.state, action)
        except IllegalAction as error:
            fallback = legal[0]
            self.fallback(seat, action, error, fallback)
            self.state, events = apply(self.state, fallback)
        self.narrate(events)

    def human_step(self, seen: FishingView) -> _Leave | None:
        """Prompt until one legal action is played (None) or the player leaves."""
        legal = legal_actions(self.state)
        self.show_status(seen, legal)
        while True:
            line = self.read()
            if line is None:
                return _Leave(
                    self.lt("End of input: you leave the table and the game is abandoned.")
                )
            text = " ".join(line.split())
            try:
                reply = self.interpret(text, seen, legal)
            except NotationError as error:
                self.refusal(str(error), N_("type 'help' for the notation"), " ".join(line.split()))
                continue
            if isinstance(reply, _Leave):
                return reply
            if isinstance(reply, str):
                if reply:
                    self.error(reply)
                continue
            try:
                self.state, events = apply(self.state, reply)
            except IllegalAction as error:
                self.refusal(str(error), N_("type '?' for your legal moves"))
                continue
            self.narrate(events)
            return None

    def interpret(
        self, text: str, seen: FishingView, legal: Sequence[FishingAction]
    ) -> FishingAction | str | _Leave:
        """An action to play, a message to show ('' for none) or a request to leave.

        Raises NotationError for an unreadable action.
        """
        lower = text.lower()
        if not text:
            if len(legal) == 1:
                return legal[0]
            return self.lt("type a move, or '?' for the legal moves")
        command = _FISHING_COMMANDS.get(lower)
        if command == "quit":
            return _Leave(self.lt("You leave the table; the game is abandoned."))
        if command == "help":
            self.show_help()
            return ""
        if command == "legal":
            self.show_legal(legal)
            return ""
        if command == "look":
            self.show_status(seen, legal)
            return ""
        if lower in _FISHING_SHORTCUTS:
            return _FISHING_SHORTCUTS[lower]
        if lower in ("c", "capture"):
            captures = [a for a in legal if isinstance(a, Capture)]
            if len(captures) == 1:
                return captures[0]
            if not captures:
                return self.lt("your tile captures nothing now")
            return self.lt(
                "say which capture: {options}", options=", ".join(f"'{a}'" for a in captures)
            )
        return cast(FishingAction, parse_action(text, Game.TSUNG_SHAP))

    # -- display -----------------------------------------------------------------------------

    def show_status(self, seen: FishingView, legal: Sequence[FishingAction]) -> None:
        """The row, the scores, the piles, a claimable miss, the turned tile, the legal list."""
        self.show_row(seen)
        you, them = self.human, self.other()
        self.say(
            self.lt(
                "Scores: {you} {your_score}, {them} {their_score}.",
                you=self.names[you],
                your_score=seen.scores[you],
                them=self.names[them],
                their_score=seen.scores[them],
            )
        )
        self.say(
            self.lt(
                "Tiles left in the piles: {you} {your_pile}, {them} {their_pile}.",
                you=self.names[you],
                your_pile=seen.pile_sizes[you],
                them=self.names[them],
                their_pile=seen.pile_sizes[them],
            )
        )
        if seen.phase is FishingPhase.TURN_OVER:
            if seen.pending and seen.missed_by is not None:
                options = "; ".join(
                    f"'{c.claim}' ({' + '.join(map(str, c.tiles))}: {c.score})"
                    for c in seen.pending
                )
                self.say(
                    self.lt(
                        "{name} missed a capture: you may claim one before turning over: "
                        "{options}.",
                        name=self.names[seen.missed_by],
                        options=options,
                    )
                )
            self.say(self.lt("Turn over your next tile with 'draw'."))
        elif seen.turned is not None:
            self.say(
                self.lt(
                    "Your tile: {tile}{note}.",
                    tile=self.label(seen.turned),
                    note=self.value_note(seen.turned),
                )
            )
            if seen.options:
                captures = "; ".join(f"'{c.capture}' ({self.combo_text(c)})" for c in seen.options)
                self.say(self.lt("It can capture: {captures}.", captures=captures))
            else:
                self.say(
                    self.lt("It captures nothing: place it at the left or right end of the row.")
                )
        self.show_legal(legal)

    def combo_text(self, combo: Combination) -> str:
        sweep = self.lt(" - a sweep") if combo.sweep else ""
        return f"{' + '.join(map(str, combo.tiles))}: {combo.score}{sweep}"

    def show_row(self, seen: FishingView) -> None:
        """The row on one line, left to right, between its L and R ends."""
        if not seen.row:
            self.say(self.lt("Row: empty."))
            return
        if self.locale == "en":
            tiles = " | ".join(f"{t} {t.english}" for t in seen.row)
        else:
            tiles = " | ".join(self.label(t) for t in seen.row)
        count = _tiles(len(seen.row), self.locale)
        self.say(
            self.lt("Row ({count}, left to right):  L | {tiles} | R", count=count, tiles=tiles)
        )

    def value_note(self, tile: Tile) -> str:
        values = tile_values(tile, self.rules.four_two_value)
        if len(values) > 1:
            return self.lt(" (counts {values})", values=self.lt(" or ").join(map(str, values)))
        return self.lt(" (counts {values})", values=values[0])

    def show_legal(self, legal: Sequence[FishingAction]) -> None:
        self.legal_line(legal)

    def show_help(self) -> None:
        rules = self.rules
        four_two = {
            FourTwo.THREE: N_("4-2 counts 3"),
            FourTwo.SIX: N_("4-2 counts 6"),
            FourTwo.WILD: N_("4-2 and 2-1 each count 3 or 6"),
        }[rules.four_two_value]
        sweep = N_("40 + the pips") if rules.sweep_adds_pips else N_("a flat 40")
        triplets = (
            N_("the turned tile with both end tiles")
            if rules.triplet_both_ends_only
            else N_("the turned tile with the two tiles at one end, or with both end tiles")
        )
        end = (
            N_("when both piles are laid out")
            if rules.play_until_both_piles_empty
            else N_("as soon as a player has laid out his pile")
        )
        lines = [
            self.lt("Rules in force: {rules}.", rules=self.rules_line()),
            self.lt(
                "  A turn: optionally claim a capture the opponent missed, then turn over your "
                "next tile ('draw') and capture with it or place it at one end of the row."
            ),
            self.lt(
                "  Pair: your tile is identical to an end tile; scores 10 x the values of both."
            ),
            self.lt(
                "  Triplet: {triplets}, totalling 10, 20 or 30; scores the total ({four_two}).",
                triplets=self.lt(triplets),
                four_two=self.lt(four_two),
            ),
            self.lt(
                "  Sweep: a triplet that empties a 2-tile row scores {sweep}; you then start a "
                "new row with your next tile.",
                sweep=self.lt(sweep),
            ),
            self.lt(
                "  Placing a tile that could have captured lets the opponent claim the capture "
                "at the start of his next turn (auto_capture: you must take the best capture)."
                if rules.auto_capture
                else "  Placing a tile that could have captured lets the opponent claim the "
                "capture at the start of his next turn."
            ),
            self.lt("  The game ends {end}; the higher score wins.", end=self.lt(end)),
            self.lt("Moves (the prompt lists the legal ones):"),
            self.lt("  draw | d                       turn over your next tile"),
            self.lt("  capture pair left|right        capture a pair at an end ('c' if only one)"),
            self.lt("  capture triplet left|right|ends  capture a triplet"),
            self.lt("  place left|right | l | r       place your tile at an end"),
            self.lt("  claim pair|triplet left|right|ends  claim the opponent's missed capture"),
            self.lt("Commands: ? or legal (legal moves), look (the table), help, quit."),
        ]
        for line in lines:
            self.say(line)

    def game_over(self, seen: FishingView, result: FishingResult) -> None:
        self.say()
        self.say(self.lt("=== Game over ==="))
        you, them = self.human, self.other()
        self.say(
            self.lt(
                "Final scores: {you} {your_score}, {them} {their_score}.",
                you=self.names[you],
                your_score=result.scores[you],
                them=self.names[them],
                their_score=result.scores[them],
            )
        )
        if seen.row:
            self.say(
                self.lt(
                    "{tiles} left on the row score nothing.",
                    tiles=_tiles(len(seen.row), self.locale),
                )
            )
        if result.winner is None:
            self.say(self.lt("Equal scores: the game is drawn."))
            return
        margin = result.difference
        if result.winner == self.human and self.locale == "en":
            self.say(f"You win by {margin} points.")
        else:
            self.say(
                self.lt(
                    "{name} wins by {margin} points.",
                    name=self.names[result.winner],
                    margin=margin,
                )
            )
        if self.rules.settlement is Settlement.DIFFERENCE:
            chips = difference_payment(self.rules, result)
            self.say(
                self.lt(
                    "Settlement: {chips} chips ({rate} per point).",
                    chips=chips,
                    rate=self.rules.settle_rate,
                )
            )


def _turn_rule(rules: RuleSet, locale: str = "en") -> str:
    """One sentence: what a turn consists of under these rules."""
    what = (
        tr(locale, "any face-up discard")
        if rules.offer is Offer.ANY
        else tr(locale, "the most recent discard")
    )
    if rules.draw_after_take:
        text = tr(
            locale,
            "optionally take {what} and discard a tile, then draw from the wall and discard "
            "a tile.",
            what=what,
        )
    else:
        text = tr(
            locale, "either take {what} or draw from the wall, then discard a tile.", what=what
        )
    if rules.offer is Offer.LAST and not rules.draw_after_take:
        text += tr(locale, " A discard the next player does not take is dead.")
    return text


def _pair_values(a: Tile, b: Tile, four_two: FourTwo) -> tuple[int, int]:
    """The values two tiles take to make 10 or 20 (their pips if they do not)."""
    values = ten_pair_values(a, b, four_two)
    return values if values is not None else (a.pips, b.pips)


def _one_line(text: str) -> str:
    return " ".join(text.split())


def _tiles(count: int, locale: str = "en") -> str:
    return nt(locale, "{n} tile", "{n} tiles", count)
