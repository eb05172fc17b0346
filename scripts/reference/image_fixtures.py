"""Writes the small decoder fixtures of Tests/ImagingTests/Golden/fixtures.

Every fixture shows the same 24x16 pattern (see `pattern`), stored in a different PNG or JPEG
variant, so the Swift tests can check the decoded pixels against the formula:

  red = x * 255 // 23, green = y * 255 // 15, blue = (x + y) * 255 // 38

PNG: 8-bit RGB, RGBA (alpha varies and is 0 on some pixels), gray, gray+alpha, 16-bit gray,
16-bit RGB and RGBA (sample = value * 257), palette with and without tRNS, 1-bit gray, Adam7
interlaced RGB (written by hand below: neither Pillow nor OpenCV writes interlaced PNGs), and an
RGB PNG with an eXIf chunk (orientation 6).
JPEG (Pillow, quality 95): baseline RGB, gray, CMYK (Adobe, inverted), progressive, and baseline
with an EXIF orientation 6.

usage: image_fixtures.py [--out DIR]     (oracle venv: Pillow, OpenCV, NumPy)
"""
import argparse
import io
import os
import struct
import zlib

import cv2
import numpy as np
from PIL import Image

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", ".."))
WIDTH, HEIGHT = 24, 16


def pattern():
    y, x = np.mgrid[0:HEIGHT, 0:WIDTH]
    return np.stack([x * 255 // 23, y * 255 // 15, (x + y) * 255 // 38], axis=-1).astype(np.uint8)


def alpha():
    y, x = np.mgrid[0:HEIGHT, 0:WIDTH]
    return ((x * 11 + y * 7) % 256).astype(np.uint8)  # 0 at (0, 0) among others


def chunk(kind, data):
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)


def interlaced_png(rgb):
    """Adam7-interlaced 8-bit RGB PNG, filter type 0 on every row."""
    height, width = rgb.shape[:2]
    passes = [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)]
    raw = bytearray()
    for x0, y0, dx, dy in passes:
        sub = rgb[y0::dy, x0::dx]
        if sub.size == 0:
            continue
        for row in sub:
            raw.append(0)
            raw.extend(row.tobytes())
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 1)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(bytes(raw), 9)) \
        + chunk(b"IEND", b"")


def exif_tiff(orientation):
    """Little-endian TIFF block with one IFD entry: Orientation (SHORT)."""
    return b"II*\x00" + struct.pack("<I", 8) + struct.pack("<H", 1) \
        + struct.pack("<HHIHH", 0x0112, 3, 1, orientation, 0) + struct.pack("<I", 0)


def with_exif_chunk(png, orientation):
    """Inserts an eXIf chunk right after IHDR."""
    ihdr_end = 8 + 8 + 13 + 4
    return png[:ihdr_end] + chunk(b"eXIf", exif_tiff(orientation)) + png[ihdr_end:]


def save_pil(image, **kwargs):
    buffer = io.BytesIO()
    image.save(buffer, **kwargs)
    return buffer.getvalue()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default=os.path.join(ROOT, "Tests", "ImagingTests", "Golden", "fixtures"))
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    rgb = pattern()
    gray = rgb[..., 0]
    files = {}
    files["rgb8.png"] = save_pil(Image.fromarray(rgb, "RGB"), format="PNG")
    files["rgba8.png"] = save_pil(Image.fromarray(np.dstack([rgb, alpha()]), "RGBA"), format="PNG")
    files["gray8.png"] = save_pil(Image.fromarray(gray, "L"), format="PNG")
    files["gray_alpha8.png"] = save_pil(Image.fromarray(np.dstack([gray, alpha()]), "LA"), format="PNG")
    ok, encoded = cv2.imencode(".png", gray.astype(np.uint16) * 257)
    assert ok
    files["gray16.png"] = encoded.tobytes()
    ok, encoded = cv2.imencode(".png", cv2.cvtColor(rgb, cv2.COLOR_RGB2BGR).astype(np.uint16) * 257)
    assert ok
    files["rgb16.png"] = encoded.tobytes()
    bgra16 = np.dstack([cv2.cvtColor(rgb, cv2.COLOR_RGB2BGR), alpha()]).astype(np.uint16) * 257
    ok, encoded = cv2.imencode(".png", bgra16)
    assert ok
    files["rgba16.png"] = encoded.tobytes()
    y, x = np.mgrid[0:HEIGHT, 0:WIDTH]
    indices = ((x + y) % 16).astype(np.uint8)
    palette = []
    for i in range(16):
        palette += [i * 16, 255 - i * 16, (i * 37) % 256]
    paletted = Image.fromarray(indices, "P")
    paletted.putpalette(palette)
    files["palette.png"] = save_pil(paletted, format="PNG", bits=4)
    files["palette_trns.png"] = save_pil(paletted, format="PNG", transparency=bytes([0, 128] + [255] * 14))
    files["gray1.png"] = save_pil(Image.fromarray(((x + y) % 2 * 255).astype(np.uint8), "L").convert("1"),
                                  format="PNG")
    files["rgb8_interlaced.png"] = interlaced_png(rgb)
    files["rgb8_exif6.png"] = with_exif_chunk(files["rgb8.png"], 6)

    image = Image.fromarray(rgb, "RGB")
    files["rgb.jpg"] = save_pil(image, format="JPEG", quality=95)
    files["gray.jpg"] = save_pil(Image.fromarray(gray, "L"), format="JPEG", quality=95)
    files["cmyk.jpg"] = save_pil(image.convert("CMYK"), format="JPEG", quality=95)
    files["progressive.jpg"] = save_pil(image, format="JPEG", quality=95, progressive=True)
    exif = Image.Exif()
    exif[0x0112] = 6
    files["rgb_exif6.jpg"] = save_pil(image, format="JPEG", quality=95, exif=exif.tobytes())

    total = 0
    for name, data in sorted(files.items()):
        with open(os.path.join(a.out, name), "wb") as f:
            f.write(data)
        total += len(data)
        print(f"{name:22s} {len(data):6d} bytes")
    print(f"total {total} bytes in {a.out}")


if __name__ == "__main__":
    main()
