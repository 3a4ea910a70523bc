"""Make the game's fonts in fonts/: DejaVu in four cuts, and the fallback for Chinese and Japanese names.

    python scripts/pack_fonts.py

- DejaVu Sans, Sans Bold, Serif and Serif Bold (Debian's fonts-dejavu-core, /usr/share/fonts/truetype/dejavu/),
  each as it is, stored as WOFF: the same tables, each deflated (1.07 MB less than the four TTF files).
- Droid Sans Fallback (Apache License 2.0; Debian's fonts-droid-fallback, /usr/share/fonts/truetype/droid/),
  cut down to what names are written with: the Han characters of GB 2312 (simplified Chinese), JIS X 0208
  (Japanese) and the first level of Big5 (traditional Chinese), the kana, CJK punctuation and the full-width
  forms; no hinting, no layout tables; as WOFF. The whole font is 4 MB, this cut 0.83 MB.

Panda3D's FreeType reads WOFF as it reads TrueType. Every build ships these files, and the Linux build must stay
under 130 MB unpacked. Needs fontTools (`pip install fonttools`), which the game itself does not.
"""

from __future__ import annotations

from pathlib import Path

from fontTools import subset
from fontTools.ttLib import TTFont

FONTS = Path(__file__).resolve().parents[1] / "fonts"
DEJAVU = Path("/usr/share/fonts/truetype/dejavu")
DEJAVU_CUTS = ("DejaVuSans", "DejaVuSans-Bold", "DejaVuSerif", "DejaVuSerif-Bold")
DROID = Path("/usr/share/fonts/truetype/droid/DroidSansFallbackFull.ttf")
FALLBACK = FONTS / "DroidSansFallback-CJK.woff"
HAN = range(0x4E00, 0xA000)
KEPT_WHOLE = [range(0x3000, 0x3100), range(0x31F0, 0x3200), range(0xFF00, 0xFFF0)]   # punctuation, kana, full width


def _encodes(character: str, codec: str) -> bool:
    try:
        character.encode(codec)
    except UnicodeEncodeError:
        return False
    return True


def _big5_first_level(character: str) -> bool:
    try:
        code = character.encode("big5")
    except UnicodeEncodeError:
        return False
    return len(code) == 2 and 0xA440 <= int.from_bytes(code, "big") <= 0xC67E


def names_characters(cmap: dict[int, str]) -> list[int]:
    """The characters of the fallback: the Han characters of the three character sets, and the blocks kept whole."""
    han = [cp for cp in HAN if cp in cmap and (_encodes(chr(cp), "gb2312") or _encodes(chr(cp), "shift_jis")
                                               or _big5_first_level(chr(cp)))]
    return sorted(set(han) | {cp for block in KEPT_WHOLE for cp in block if cp in cmap})


def _woff(font: TTFont, target: Path) -> None:
    font.flavor = "woff"
    font.save(target)
    print(f"{target.name}: {target.stat().st_size / 1e6:.2f} MB")


def main() -> None:
    for cut in DEJAVU_CUTS:
        _woff(TTFont(DEJAVU / f"{cut}.ttf"), FONTS / f"{cut}.woff")
    font = TTFont(DROID)
    characters = names_characters(font.getBestCmap())
    options = subset.Options()
    options.layout_features, options.hinting, options.name_IDs, options.notdef_outline = [], False, ["*"], True
    cutter = subset.Subsetter(options)
    cutter.populate(unicodes=characters)
    cutter.subset(font)
    print(f"the fallback keeps {len(characters)} characters")
    _woff(font, FALLBACK)


if __name__ == "__main__":
    main()
