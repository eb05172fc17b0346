"""Writes the image fuzzers' seed corpus (Fuzz/Corpus/png, Fuzz/Corpus/jpeg): small images of our
own making that cover the decoder's variants (gray, 16-bit, palette, alpha, interlaced, CMYK,
progressive, EXIF orientation, 1x1). Run with any Python that has Pillow:
    ~/.cache/mediapipe-oracle-venv/bin/python scripts/fuzz/make_image_seeds.py
"""
import io
import os
import struct
import zlib

from PIL import Image

ROOT = os.path.join(os.path.dirname(__file__), "..", "..", "Fuzz", "Corpus")


def pattern(mode, size):
    width, height = size
    image = Image.new("RGB", size)
    image.putdata([((x * 37) % 256, (y * 53) % 256, ((x + y) * 11) % 256)
                   for y in range(height) for x in range(width)])
    return image.convert(mode)


def save(folder, name, image, **options):
    os.makedirs(os.path.join(ROOT, folder), exist_ok=True)
    buffer = io.BytesIO()
    image.save(buffer, **options)
    with open(os.path.join(ROOT, folder, name), "wb") as handle:
        handle.write(buffer.getvalue())


def exif_orientation(value):
    exif = Image.Exif()
    exif[0x0112] = value
    return exif.tobytes()


def png_chunk(kind, payload):
    body = kind + payload
    return struct.pack(">I", len(payload)) + body + struct.pack(">I", zlib.crc32(body))


def main():
    save("png", "rgb8.png", pattern("RGB", (7, 5)), format="PNG")
    save("png", "rgba8.png", pattern("RGBA", (6, 4)), format="PNG")
    save("png", "gray8.png", pattern("L", (5, 3)), format="PNG")
    save("png", "gray_alpha8.png", pattern("LA", (4, 4)), format="PNG")
    save("png", "palette.png", pattern("RGB", (8, 3)).quantize(7), format="PNG")
    save("png", "palette_trns.png", pattern("RGB", (5, 5)).quantize(4), format="PNG", transparency=1)
    save("png", "interlaced.png", pattern("RGB", (9, 9)), format="PNG", interlace=1)
    save("png", "gray1.png", pattern("1", (10, 2)), format="PNG")
    save("png", "one_pixel.png", pattern("RGB", (1, 1)), format="PNG")
    save("png", "exif6.png", pattern("RGB", (3, 2)), format="PNG", exif=exif_orientation(6))
    gray16 = Image.new("I;16", (3, 3))
    gray16.putdata([i * 7000 for i in range(9)])
    save("png", "gray16.png", gray16, format="PNG")
    # A 16-bit RGB PNG written by hand (Pillow does not write 48-bit color).
    raw = b"".join(b"\x00" + bytes(range(y * 12, y * 12 + 12)) for y in range(2))
    rgb16 = (b"\x89PNG\r\n\x1a\n" + png_chunk(b"IHDR", struct.pack(">IIBBBBB", 2, 2, 16, 2, 0, 0, 0))
             + png_chunk(b"IDAT", zlib.compress(raw)) + png_chunk(b"IEND", b""))
    with open(os.path.join(ROOT, "png", "rgb16.png"), "wb") as handle:
        handle.write(rgb16)

    save("jpeg", "rgb.jpg", pattern("RGB", (16, 8)), format="JPEG", quality=80)
    save("jpeg", "rgb444.jpg", pattern("RGB", (9, 7)), format="JPEG", quality=90, subsampling=0)
    save("jpeg", "gray.jpg", pattern("L", (8, 8)), format="JPEG")
    save("jpeg", "cmyk.jpg", pattern("CMYK", (8, 8)), format="JPEG")
    save("jpeg", "progressive.jpg", pattern("RGB", (24, 16)), format="JPEG", progressive=True)
    save("jpeg", "one_pixel.jpg", pattern("RGB", (1, 1)), format="JPEG")
    save("jpeg", "exif6.jpg", pattern("RGB", (8, 8)), format="JPEG", exif=exif_orientation(6))
    save("jpeg", "restart.jpg", pattern("RGB", (32, 16)), format="JPEG", restart_marker_blocks=1)


if __name__ == "__main__":
    main()
