"""The fonts of every text drawn in a picture: Noto Sans for Latin, Noto Sans CJK for the rest.

Player names come from Discord and may be written in any script: "小明 Zoë", "Łukasz", "Ἀθηνᾶ".
Pillow's built-in font covers ASCII only and draws anything else as a box, so the pictures use
two OFL-licensed fonts that arrive as ordinary dependencies of the project (nothing to fetch by
hand, nothing large in the repository; see ``docs/architecture.md``):

* **Noto Sans** (package ``fontpkg-noto-sans``, a variable font, 2 MB): Latin with every
  extension (Polish, Czech, Turkish, Vietnamese …), Greek and Cyrillic, at the weight asked for;
* **Noto Sans CJK HK** (package ``noto-cjk-sans-otc``, face 4 of the collection, 19 MB):
  44,810 characters, every Chinese character in Traditional and Simplified forms (drawn in the
  Hong Kong style, Kap Shap being a Cantonese game), Japanese kana and Korean Hangul.

A text is written in *runs*: each character in Noto Sans when that font has it, else in Noto
Sans CJK; a character neither font has (an emoji, a control character) is left out rather than
drawn as a box. Texts are NFC-normalised first, so a name typed as "e" + combining acute is the
one glyph "é".

If the font packages are missing (a broken install), Pillow's built-in font is used and a warning
logged once: pictures then lose their accents and Chinese, but the bot keeps working.

Thread safety: FreeType faces must not be shared between threads, so the loaded fonts are kept
per thread (a handful of sizes each); which font covers which character is cached for all threads
in a bounded LRU cache.
"""

from __future__ import annotations

import enum
import importlib.resources
import logging
import threading
import unicodedata
from collections.abc import Iterator
from functools import lru_cache

from PIL import ImageDraw, ImageFont

__all__ = [
    "REGULAR",
    "SEMIBOLD",
    "Face",
    "cap_height",
    "draw_text",
    "fit_text",
    "font_files",
    "runs",
    "text_width",
]

log = logging.getLogger(__name__)

RGB = tuple[int, int, int]
Font = ImageFont.FreeTypeFont | ImageFont.ImageFont

REGULAR = 400
"""The weight of labels."""
SEMIBOLD = 600
"""The weight of captions and badges (Noto Sans only: the CJK face is one weight)."""

_LATIN_FILE = ("fontpkg_noto_sans", "files/NotoSans[wdth,wght].ttf")
_CJK_FILE = ("noto_cjk_sans_otc", "NotoSansCJK-Regular.ttc")
_CJK_FACE = 4  # JP, KR, SC, TC, HK, then the Mono faces: 4 is Noto Sans CJK HK
_NOT_A_CHARACTER = "\U0010ffff"  # mapped by no font: it draws the font's .notdef glyph


class Face(enum.Enum):
    """The two fonts a text may be drawn in."""

    LATIN = "Noto Sans"
    CJK = "Noto Sans CJK HK"


def _locate(package: str, name: str) -> str | None:
    try:
        path = importlib.resources.files(package).joinpath(name)
    except ModuleNotFoundError:
        return None
    return str(path) if path.is_file() else None


@lru_cache(maxsize=1)
def font_files() -> dict[Face, str] | None:
    """The installed font files by face, or None when a font package is missing."""
    latin, cjk = _locate(*_LATIN_FILE), _locate(*_CJK_FILE)
    if latin is None or cjk is None:
        log.warning(
            "The picture fonts (fontpkg-noto-sans, noto-cjk-sans-otc) are not installed: "
            "pictures fall back to Pillow's ASCII-only font. Reinstall the bot to fix this."
        )
        return None
    return {Face.LATIN: latin, Face.CJK: cjk}


_fonts = threading.local()


def _font(face: Face, size: int, weight: int = REGULAR) -> Font:
    """One font instance per thread, face, size and weight."""
    cache: dict[tuple[Face, int, int], Font] | None = getattr(_fonts, "cache", None)
    if cache is None:
        cache = {}
        _fonts.cache = cache
    key = (face, size, weight)
    font = cache.get(key)
    if font is None:
        files = font_files()
        if files is None:
            font = ImageFont.load_default(size=size)
        elif face is Face.LATIN:
            # BASIC layout: the same glyph placement with or without libraqm installed.
            latin = ImageFont.truetype(files[face], size, layout_engine=ImageFont.Layout.BASIC)
            latin.set_variation_by_axes([weight, 100])  # axes: weight, width
            font = latin
        else:
            font = ImageFont.truetype(
                files[face], size, index=_CJK_FACE, layout_engine=ImageFont.Layout.BASIC
            )
        cache[key] = font
    return font


@lru_cache(maxsize=8192)
def _covers(face: Face, char: str) -> bool:
    """Whether ``face`` has a glyph for ``char``: its drawing differs from the .notdef box."""
    if font_files() is None:
        return face is Face.LATIN
    font = _font(face, 32)
    mask = font.getmask(char)
    notdef = font.getmask(_NOT_A_CHARACTER)
    return bool(mask.size != notdef.size or bytes(mask) != bytes(notdef))


def runs(text: str) -> Iterator[tuple[Face, str]]:
    """``text`` cut into runs of one face each; characters neither face has are left out."""
    current: Face | None = None
    chars: list[str] = []
    for char in unicodedata.normalize("NFC", text):
        if char.isspace():
            face: Face | None = current or Face.LATIN
            char = " "
        elif _covers(Face.LATIN, char):
            face = Face.LATIN
        elif _covers(Face.CJK, char):
            face = Face.CJK
        else:
            continue
        if face is not current and chars:
            assert current is not None
            yield current, "".join(chars)
            chars = []
        current = face
        chars.append(char)
    if chars and current is not None:
        yield current, "".join(chars)


def text_width(text: str, size: int, weight: int = REGULAR) -> int:
    """The advance width of ``text`` drawn at ``size`` px, in pixels."""
    return round(sum(_font(face, size, weight).getlength(run) for face, run in runs(text)))


def cap_height(size: int) -> int:
    """Height of a capital letter at ``size`` px: texts are placed by the top of their capitals,
    so that a label with descenders or Chinese characters lines up with one without."""
    _, top, _, _ = _font(Face.LATIN, size).getbbox("H", anchor="ls")
    return round(-top)


def fit_text(text: str, size: int, width: int, weight: int = REGULAR) -> str:
    """``text``, cut and ended with "…" if it is wider than ``width`` px."""
    if text_width(text, size, weight) <= width:
        return text
    chars = list(unicodedata.normalize("NFC", text))
    while chars and text_width("".join(chars) + "…", size, weight) > width:
        chars.pop()
    return "".join(chars).rstrip() + "…"


def draw_text(
    draw: ImageDraw.ImageDraw,
    x: float,
    top: float,
    text: str,
    size: int,
    fill: RGB,
    *,
    weight: int = REGULAR,
    align: str = "left",
) -> int:
    """Draw ``text`` with the top of its capitals at ``top``; ``x`` is its left edge, centre
    (``align="center"``) or right edge (``align="right"``). Returns the width drawn."""
    width = text_width(text, size, weight)
    if align == "center":
        x -= width / 2
    elif align == "right":
        x -= width
    baseline = top + cap_height(size)
    for face, run in runs(text):
        font = _font(face, size, weight)
        draw.text((x, baseline), run, font=font, fill=fill, anchor="ls")
        x += font.getlength(run)
    return width
