#!/usr/bin/env python3
"""Render resources/icons/attention-explorer.svg to the raster icons the app and
its installers use.

Writes, next to the SVG:
  attention-explorer.png            256x256
  attention-explorer-<N>.png        N in 64, 128, 512
  attention-explorer.ico            16..256, PNG-compressed entries (Windows Vista+)
  attention-explorer.icns           PNG chunks ic07..ic14, icp4/icp5 (macOS 10.7+)

Only PySide6 (QtSvg, from PySide6-Essentials) and the standard library are used;
runs headless (QT_QPA_PLATFORM defaults to "offscreen").

    python packaging/make_icons.py [--svg PATH] [--out DIR]
"""

from __future__ import annotations

import argparse
import os
import struct
import sys
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import QBuffer, QByteArray, QIODevice, Qt
from PySide6.QtGui import QGuiApplication, QImage, QPainter
from PySide6.QtSvg import QSvgRenderer

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_SVG = ROOT / "resources" / "icons" / "attention-explorer.svg"
NAME = "attention-explorer"

PNG_SIZES = (64, 128, 512)  # extra attention-explorer-<N>.png files
ICO_SIZES = (16, 24, 32, 48, 64, 128, 256)
# (OSType, pixel size) of the PNG-capable ICNS element types.
ICNS_TYPES = (
    (b"icp4", 16),
    (b"icp5", 32),
    (b"ic11", 32),  # 16x16@2x
    (b"ic12", 64),  # 32x32@2x
    (b"ic07", 128),
    (b"ic13", 256),  # 128x128@2x
    (b"ic08", 256),
    (b"ic14", 512),  # 256x256@2x
    (b"ic09", 512),
    (b"ic10", 1024),  # 512x512@2x
)


def render_png(renderer: QSvgRenderer, size: int) -> bytes:
    """Render the SVG at size x size with a transparent background; return PNG bytes."""
    image = QImage(size, size, QImage.Format.Format_ARGB32_Premultiplied)
    image.fill(Qt.GlobalColor.transparent)
    painter = QPainter(image)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
    painter.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform, True)
    renderer.render(painter)
    painter.end()
    data = QByteArray()
    buf = QBuffer(data)
    buf.open(QIODevice.OpenModeFlag.WriteOnly)
    if not image.convertToFormat(QImage.Format.Format_ARGB32).save(buf, "PNG"):
        raise RuntimeError(f"could not encode {size}px PNG")
    buf.close()
    return bytes(data.data())


def build_ico(pngs: dict[int, bytes]) -> bytes:
    """ICONDIR + ICONDIRENTRYs + embedded PNG images."""
    sizes = sorted(pngs)
    header = struct.pack("<HHH", 0, 1, len(sizes))
    offset = len(header) + 16 * len(sizes)
    entries, blobs = b"", b""
    for size in sizes:
        blob = pngs[size]
        dim = 0 if size >= 256 else size  # 0 means 256 in an ICONDIRENTRY
        entries += struct.pack("<BBBBHHII", dim, dim, 0, 0, 1, 32, len(blob), offset)
        blobs += blob
        offset += len(blob)
    return header + entries + blobs


def build_icns(pngs: dict[int, bytes]) -> bytes:
    """'icns' header + one PNG element per type; lengths are big-endian and include headers."""
    body = b""
    for ostype, size in ICNS_TYPES:
        blob = pngs[size]
        body += ostype + struct.pack(">I", len(blob) + 8) + blob
    return b"icns" + struct.pack(">I", len(body) + 8) + body


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--svg", type=Path, default=DEFAULT_SVG)
    parser.add_argument("--out", type=Path, default=None, help="output folder (default: the SVG's folder)")
    args = parser.parse_args(argv)
    out = args.out or args.svg.parent
    out.mkdir(parents=True, exist_ok=True)

    app = QGuiApplication.instance() or QGuiApplication(sys.argv[:1])  # noqa: F841
    renderer = QSvgRenderer(str(args.svg))
    if not renderer.isValid():
        print(f"error: cannot parse {args.svg}", file=sys.stderr)
        return 1

    needed = set(PNG_SIZES) | set(ICO_SIZES) | {s for _, s in ICNS_TYPES} | {256}
    pngs = {size: render_png(renderer, size) for size in sorted(needed)}

    written = []

    def write(name: str, data: bytes) -> None:
        path = out / name
        path.write_bytes(data)
        written.append((path, len(data)))

    write(f"{NAME}.png", pngs[256])
    for size in PNG_SIZES:
        write(f"{NAME}-{size}.png", pngs[size])
    write(f"{NAME}.ico", build_ico({s: pngs[s] for s in ICO_SIZES}))
    write(f"{NAME}.icns", build_icns(pngs))

    for path, n in written:
        print(f"{n:>9,d} bytes  {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
