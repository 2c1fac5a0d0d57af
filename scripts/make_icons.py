"""Draw the web app's icons (the installable app's manifest, the favicon) with Pillow.

    python scripts/make_icons.py    # writes src/paohuzi/server/client/icons/

A 大字 card (跑) on the felt: the glyph in the table's red on the cream of a big card.
Needs a CJK font (Debian: fonts-wqy-microhei). The PNGs are committed; run this only to
change them.
"""

from __future__ import annotations

from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

OUT = Path(__file__).resolve().parents[1] / "src/paohuzi/server/client/icons"
FONT = "/usr/share/fonts/truetype/wqy/wqy-microhei.ttc"
FELT, CREAM, RIM, RED = (31, 90, 64), (243, 221, 158), (90, 61, 16), (200, 16, 46)


def icon(size: int, maskable: bool = False) -> Image.Image:
    im = Image.new("RGBA", (size, size), (*FELT, 255) if maskable else (0, 0, 0, 0))
    d = ImageDraw.Draw(im)
    if not maskable:  # a rounded felt square; a maskable icon is cut by the system
        d.rounded_rectangle((0, 0, size - 1, size - 1), radius=size // 5, fill=FELT)
    inset = size * (0.22 if maskable else 0.14)
    w = (size - 2 * inset) * 0.74
    box = ((size - w) / 2, inset, (size + w) / 2, size - inset)
    d.rounded_rectangle(box, radius=size // 14, fill=CREAM, outline=RIM, width=max(1, size // 40))
    font = ImageFont.truetype(FONT, int(w * 0.8))
    d.text((size / 2, size / 2), "跑", font=font, fill=RED, anchor="mm")
    return im


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    for n in (192, 512):
        icon(n).save(OUT / f"icon-{n}.png", optimize=True)
    icon(512, maskable=True).save(OUT / "icon-maskable-512.png", optimize=True)
    icon(180, maskable=True).convert("RGB").save(OUT / "apple-touch-icon.png", optimize=True)
    icon(64).save(OUT / "favicon.ico", sizes=[(16, 16), (32, 32), (48, 48)])


if __name__ == "__main__":
    main()
