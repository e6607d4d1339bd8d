"""python -m tools.icons: draw the site's icons (static/icons/*.png) from the shapes
of static/icons/icon.svg, with Pillow (already installed with the dev tools).

PNGs because a phone's home screen (the web app manifest, apple-touch-icon) wants
bitmaps; the SVG is the favicon of browsers that take one. Run again after
changing the SVG, and keep the two in step.
"""

from __future__ import annotations

from pathlib import Path

from PIL import Image, ImageDraw

OUT = Path(__file__).resolve().parents[1] / "static" / "icons"
SIZES = {
    "icon-192.png": 192,
    "icon-512.png": 512,
    "apple-touch-icon.png": 180,
    "favicon-32.png": 32,
}


def draw(size: int) -> Image.Image:
    """icon.svg's shapes on a 512 grid, drawn 4x and scaled down (smooth edges)."""
    big = 512 * 4
    img = Image.new("RGB", (big, big), "#0b6e4f")
    d = ImageDraw.Draw(img)

    def box(x: float, y: float, w: float, h: float) -> tuple[int, int, int, int]:
        return (int(x * 4), int(y * 4), int((x + w) * 4), int((y + h) * 4))

    d.rounded_rectangle(box(136, 112, 240, 304), radius=28 * 4, fill="#2f7d5b",
                        outline="#06402e", width=6 * 4)  # fmt: skip
    d.rounded_rectangle(box(136, 96, 240, 296), radius=28 * 4, fill="#fbf8ef")
    d.rectangle(box(186 - 14, 186 - 14, 140 + 28, 100 + 28), fill="#b3261e")
    d.rectangle(box(186 + 14, 186 + 14, 140 - 28, 100 - 28), fill="#fbf8ef")
    d.rectangle(box(242, 136, 28, 206), fill="#b3261e")
    return img.resize((size, size), Image.Resampling.LANCZOS)


def main() -> None:
    for name, size in SIZES.items():
        draw(size).save(OUT / name, optimize=True)
        print(OUT / name)


if __name__ == "__main__":
    main()
