"""Tournament pictures: valid PNGs for every bracket shape, winners marked, standings tables."""

from __future__ import annotations

import io
from random import Random
from typing import Any

import pytest
from PIL import Image, ImageDraw

from bot.render import tournament_art
from bot.render.tournament_art import (
    render_bracket,
    render_event_bracket,
    render_event_standings,
    render_standings,
)
from bot.render.typeface import Face, font_files
from bot.tournament import (
    EventSettings,
    Format,
    Player,
    double_elimination,
    single_elimination,
)
from bot.tournament.bracket import resolve
from tests.tournament.helpers import new_event, play_open_matches, run_event

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
GOLD = (244, 192, 64)


def decode(data: bytes) -> Image.Image:
    assert data.startswith(PNG_SIGNATURE)
    image = Image.open(io.BytesIO(data))
    image.load()
    return image.convert("RGB")


def has_colour(image: Image.Image, colour: tuple[int, int, int], tolerance: int = 24) -> bool:
    colours = image.getcolors(maxcolors=1 << 16) or []
    return any(
        all(abs(c - t) <= tolerance for c, t in zip(rgb, colour, strict=True)) for _, rgb in colours
    )


@pytest.mark.parametrize("n", [2, 3, 5, 8, 13, 33, 70])
@pytest.mark.parametrize("double", [False, True])
def test_every_bracket_shape_renders(n: int, double: bool) -> None:
    bracket = double_elimination(n) if double else single_elimination(n)
    seeds = list(range(1, n + 1))
    image = decode(
        render_bracket(bracket, resolve(bracket, seeds, {}), {p: f"P{p}" for p in seeds}, seeds)
    )
    assert image.height >= (n // 2) * 40, "a row for every match of the first round played"
    assert image.height < (bracket.size // 2) * 58 * 2 + 200, "bye boxes are left out"
    assert not has_colour(image, GOLD), "no winner marked before any result"


def test_winners_are_marked_as_the_bracket_goes() -> None:
    event = new_event(EventSettings(format=Format.DOUBLE_ELIMINATION), 6, ai=1)
    rng = Random(3)
    before = render_event_bracket(event, "Cup")
    assert before is not None and not has_colour(decode(before), GOLD)
    event.next_round()
    play_open_matches(event, rng)
    after = render_event_bracket(event, "Cup")
    assert after is not None and has_colour(decode(after), GOLD)
    assert after != before


def test_formats_without_a_bracket() -> None:
    assert render_event_bracket(new_event(EventSettings(), 4)) is None
    cut = new_event(EventSettings(top_cut=4), 8)
    assert render_event_bracket(cut) is None, "the playoff appears once it starts"
    cut = run_event(cut, Random(1))
    assert render_event_bracket(cut) is not None


def test_standings_pictures() -> None:
    swiss = run_event(new_event(EventSettings(buy_in=10, prize_split=(60, 40)), 9, ai=2), Random(1))
    image = decode(render_event_standings(swiss, "Swiss"))
    assert image.width >= 260 and has_colour(image, GOLD), "prize places in gold"
    tables = run_event(
        new_event(EventSettings(game="kap-tai-shap", format=Format.TABLE_ROUNDS), 13), Random(2)
    )
    decode(render_event_standings(tables, "Tables"))


def test_standings_are_cut_after_the_limit() -> None:
    event = new_event(EventSettings(seats_limit=200), 120)
    event.next_round()
    play_open_matches(event, Random(1))
    full = decode(render_event_standings(event, limit=200))
    short = decode(render_event_standings(event, limit=10))
    assert short.height < full.height / 5
    names = {r.player: f"P{r.player}" for r in event.pair_standings()}
    assert render_standings([], names, "Empty")


def test_every_text_is_drawn_by_the_typeface(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[str] = []
    real = tournament_art.draw_text

    def spy(draw: Any, x: float, top: float, text: str, *args: Any, **kwargs: Any) -> int:
        calls.append(text)
        return real(draw, x, top, text, *args, **kwargs)

    monkeypatch.setattr(tournament_art, "draw_text", spy)
    event = new_event(EventSettings(format=Format.SINGLE_ELIMINATION), 4)
    render_event_bracket(event)
    render_event_standings(event)
    assert "Bracket" in calls and "Standings" in calls, "every text goes through the typeface"


def test_byes_are_not_drawn() -> None:
    # 33 players in a 64-slot draw: 31 first-round byes. Drawn in full the first column would
    # need 32 rows; only the one real first-round match and the second round are drawn.
    bracket = single_elimination(33)
    seeds = list(range(1, 34))
    names = {p: f"P{p}" for p in seeds}
    image = decode(render_bracket(bracket, resolve(bracket, seeds, {}), names, seeds))
    assert image.height < 17 * tournament_art._PITCH + 150


def test_chinese_and_accented_names_are_drawn_in_fonts_that_have_them(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    files = font_files()
    assert files is not None
    drawn: list[tuple[str, str]] = []
    original = ImageDraw.ImageDraw.text

    def text(self: ImageDraw.ImageDraw, xy: Any, text: Any, *args: Any, **kwargs: Any) -> Any:
        drawn.append((getattr(kwargs.get("font"), "path", ""), str(text)))
        return original(self, xy, text, *args, **kwargs)

    monkeypatch.setattr(ImageDraw.ImageDraw, "text", text)
    event = new_event(EventSettings(format=Format.SINGLE_ELIMINATION), 4)
    event.players[0] = Player(event.players[0].id, "小明")
    event.players[1] = Player(event.players[1].id, "Zoë Łukasz")
    render_event_bracket(event)
    render_event_standings(event)
    assert (files[Face.CJK], "小明") in drawn
    assert (files[Face.LATIN], "Zoë Łukasz") in drawn
