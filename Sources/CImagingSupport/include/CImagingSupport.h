// CImagingSupport: thin C wrappers around libjpeg(-turbo) and libpng for the Imaging module.
//
// Both libraries report fatal errors by jumping out of the failing call (longjmp). That must
// never cross Swift frames, so every libjpeg/libpng call happens inside these C functions,
// which catch the jump with setjmp and turn it into a status code plus a message. No function
// here exits or aborts the process on bad input.
//
// The header uses only standard C types so that it can be imported on every platform; the
// implementation is compiled only where libjpeg and libpng are available (Linux, Android).
#ifndef VT_IMAGING_SUPPORT_H
#define VT_IMAGING_SUPPORT_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Status codes returned by every function below.
typedef enum {
    VT_STATUS_OK = 0,
    /// The data is not a valid file of the expected format.
    VT_STATUS_CORRUPT = 1,
    /// The data ends before the image is complete.
    VT_STATUS_TRUNCATED = 2,
    /// Valid file, but a feature this decoder does not support (for example 12-bit JPEG).
    VT_STATUS_UNSUPPORTED = 3,
    /// The header announces dimensions beyond the caller's limits.
    VT_STATUS_TOO_LARGE = 4,
    /// A memory allocation failed.
    VT_STATUS_OUT_OF_MEMORY = 5,
    /// The caller passed inconsistent arguments (buffer too small, dimensions differ, ...).
    VT_STATUS_INVALID_ARGUMENT = 6,
    /// The library is not available on this platform.
    VT_STATUS_UNAVAILABLE = 7,
    /// A progressive JPEG has more scans than `vt_decode_limits.max_scans`.
    VT_STATUS_TOO_MANY_SCANS = 8
} vt_status;

/// Header facts of an encoded image.
typedef struct {
    int32_t width;
    int32_t height;
    /// Number of color components in the file (1 gray, 2 gray+alpha, 3 color, 4 color+alpha or CMYK).
    int32_t components;
    /// Bits per sample in the file (8 or 16 for PNG, 8 or 12 for JPEG).
    int32_t bit_depth;
    /// 1 for progressive JPEG or interlaced PNG.
    int32_t progressive;
    /// JPEG: 1 when the file is CMYK or YCCK. PNG: 1 when the file has a palette.
    int32_t special_color;
} vt_image_info;

/// Limits checked against the header before any pixel memory is allocated.
typedef struct {
    int32_t max_width;
    int32_t max_height;
    /// Largest width * height accepted.
    int64_t max_pixels;
    /// JPEG only: largest number of progressive scans accepted (guards against scan bombs).
    int32_t max_scans;
} vt_decode_limits;

/// Reads the header of a JPEG file. `message` receives a NUL-terminated text on failure.
int vt_jpeg_read_info(const uint8_t *data, size_t size, vt_decode_limits limits,
                      vt_image_info *info, char *message, size_t message_capacity);

/// Decodes a JPEG file into 8-bit RGB rows (`height` rows of `bytes_per_row` bytes, each
/// starting with `width` * 3 bytes). `width` and `height` must match the header. Gray is
/// expanded to R=G=B, CMYK and YCCK are converted to RGB.
int vt_jpeg_decode_rgb(const uint8_t *data, size_t size, vt_decode_limits limits,
                       uint8_t *pixels, size_t bytes_per_row, int32_t width, int32_t height,
                       char *message, size_t message_capacity);

/// Reads the header of a PNG file.
int vt_png_read_info(const uint8_t *data, size_t size, vt_decode_limits limits,
                     vt_image_info *info, char *message, size_t message_capacity);

/// Decodes a PNG file into 8-bit RGB rows. Palette, gray, low bit depths and 16-bit samples
/// are expanded or scaled to 8-bit RGB; alpha (including tRNS) is dropped, never premultiplied.
int vt_png_decode_rgb(const uint8_t *data, size_t size, vt_decode_limits limits,
                      uint8_t *pixels, size_t bytes_per_row, int32_t width, int32_t height,
                      char *message, size_t message_capacity);

/// Encodes 8-bit RGB rows as a baseline JPEG with the given quality (1...100). When
/// `exif` is non-NULL its bytes are written as an APP1 segment payload (starting with
/// "Exif\0\0"). On success `*output` is a malloc'd buffer to release with `vt_free`.
int vt_jpeg_encode_rgb(const uint8_t *pixels, size_t bytes_per_row, int32_t width, int32_t height,
                       int32_t quality, const uint8_t *exif, size_t exif_size,
                       uint8_t **output, size_t *output_size,
                       char *message, size_t message_capacity);

/// Encodes 8-bit RGB rows as a non-interlaced 8-bit RGB PNG. When `exif` is non-NULL its
/// bytes (a TIFF structure) are written as an eXIf chunk.
int vt_png_encode_rgb(const uint8_t *pixels, size_t bytes_per_row, int32_t width, int32_t height,
                      const uint8_t *exif, size_t exif_size,
                      uint8_t **output, size_t *output_size,
                      char *message, size_t message_capacity);

/// Encodes grayscale rows as a non-interlaced grayscale PNG of `bit_depth` 8 or 16 bits per
/// sample; 16-bit samples are given big-endian, as PNG stores them.
int vt_png_encode_gray(const uint8_t *samples, size_t bytes_per_row, int32_t width, int32_t height,
                       int32_t bit_depth, uint8_t **output, size_t *output_size,
                       char *message, size_t message_capacity);

/// Releases a buffer returned by an encoder.
void vt_free(void *pointer);

#ifdef __cplusplus
}
#endif

#endif
