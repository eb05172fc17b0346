// PNG decoding and encoding through libpng, with every fatal error caught here.
//
// libpng reports errors by calling our error function, which records a status and jumps back
// (png_longjmp) to the setjmp in the calling function of this file.
#include "support_common.h"

#if defined(__linux__) || defined(__ANDROID__)

#include <setjmp.h>

#include <png.h>

// MARK: - Shared state

/// Heap-held state of one call: objects changed between setjmp and longjmp must not be
/// automatic variables of the function that called setjmp.
typedef struct {
    png_structp png;
    png_infop info;
    int writing;
    int status;
    char *message;
    size_t message_capacity;
    // Reading.
    const uint8_t *data;
    size_t size;
    size_t offset;
    /// Largest single allocation libpng may make while reading (see vt_png_allocate).
    size_t allocation_cap;
    // Writing.
    vt_buffer output;
} vt_png_context;

static void vt_png_record(vt_png_context *context, int status, const char *text) {
    if (context->status == VT_STATUS_OK) {
        context->status = status;
        vt_set_message(context->message, context->message_capacity, text);
    }
}

static void vt_png_error(png_structp png, png_const_charp text) {
    vt_png_context *context = (vt_png_context *)png_get_error_ptr(png);
    vt_png_record(context, VT_STATUS_CORRUPT, text);
    png_longjmp(png, 1);
}

/// Problems in ancillary chunks (bad CRC in a text chunk, odd ICC profile) are only warnings
/// and are ignored. libpng also reports a compressed image stream that ends early ("Not enough
/// image data") as a warning and fills the rest with zeros; that is turned into an error.
static void vt_png_warning(png_structp png, png_const_charp text) {
    if (text != NULL && (strstr(text, "image data") != NULL || strstr(text, "compressed data") != NULL)) {
        vt_png_context *context = (vt_png_context *)png_get_error_ptr(png);
        vt_png_record(context, VT_STATUS_CORRUPT, text);
        png_longjmp(png, 1);
    }
}

static vt_png_context *vt_png_context_create(char *message, size_t message_capacity) {
    vt_png_context *context = (vt_png_context *)calloc(1, sizeof(vt_png_context));
    if (context == NULL) {
        vt_set_message(message, message_capacity, "out of memory");
        return NULL;
    }
    context->message = message;
    context->message_capacity = message_capacity;
    context->status = VT_STATUS_OK;
    return context;
}

/// Releases the libpng structures and the context; returns the recorded status.
static int vt_png_context_finish(vt_png_context *context) {
    const int status = context->status;
    if (context->png != NULL) {
        if (context->writing) {
            png_destroy_write_struct(&context->png, &context->info);
        } else {
            png_destroy_read_struct(&context->png, &context->info, NULL);
        }
    }
    free(context->output.data);
    free(context);
    return status;
}

// MARK: - Reading

static void vt_png_read(png_structp png, png_bytep destination, size_t count) {
    vt_png_context *context = (vt_png_context *)png_get_io_ptr(png);
    if (count > context->size - context->offset) {
        vt_png_record(context, VT_STATUS_TRUNCATED, "PNG data ends before the image is complete");
        png_longjmp(png, 1);
    }
    memcpy(destination, context->data + context->offset, count);
    context->offset += count;
}

/// libpng's allocator while reading. libpng allocates some ancillary chunks (eXIf in 1.6.39)
/// at their declared length before reading them, without its chunk limit, so a 74-byte file
/// could make it allocate 2 GB (found by fuzzing). No legitimate allocation is larger than the
/// file itself or a few image rows, so larger requests fail; libpng then skips the chunk with
/// a warning, or stops with "out of memory" when the image data itself is concerned.
static png_voidp vt_png_allocate(png_structp png, png_alloc_size_t size) {
    const vt_png_context *context = (const vt_png_context *)png_get_mem_ptr(png);
    if (context != NULL && size > context->allocation_cap) {
        return NULL;
    }
    return malloc(size);
}

static void vt_png_deallocate(png_structp png, png_voidp pointer) {
    (void)png;
    free(pointer);
}

/// Opens a read struct on `data` and reads everything up to the first IDAT chunk.
/// Must be called after setjmp(png_jmpbuf(...)) is armed, hence split in two steps.
static int vt_png_begin(vt_png_context *context, const uint8_t *data, size_t size,
                        vt_decode_limits limits) {
    if (data == NULL || size < 8 || png_sig_cmp((png_const_bytep)data, 0, 8) != 0) {
        vt_png_record(context, size < 8 ? VT_STATUS_TRUNCATED : VT_STATUS_CORRUPT,
                      "not a PNG file (bad signature)");
        return 0;
    }
    context->data = data;
    context->size = size;
    context->offset = 0;
    // The file, plus rows of the widest accepted image at 8 bytes per pixel (16-bit RGBA),
    // plus 1 MiB for libpng's and zlib's own state.
    const size_t widest_row = (size_t)(limits.max_width > 0 ? limits.max_width : 0) * 8;
    context->allocation_cap = size + widest_row + ((size_t)1 << 20);
    context->png = png_create_read_struct_2(PNG_LIBPNG_VER_STRING, context, vt_png_error, vt_png_warning,
                                            context, vt_png_allocate, vt_png_deallocate);
    if (context->png == NULL) {
        vt_png_record(context, VT_STATUS_OUT_OF_MEMORY, "cannot create the PNG reader");
        return 0;
    }
    context->info = png_create_info_struct(context->png);
    if (context->info == NULL) {
        vt_png_record(context, VT_STATUS_OUT_OF_MEMORY, "cannot create the PNG reader");
        return 0;
    }
    return 1;
}

static void vt_png_read_header(vt_png_context *context, vt_decode_limits limits, vt_image_info *info) {
    png_structp png = context->png;
    png_infop png_info = context->info;
    png_set_read_fn(png, context, vt_png_read);
    // Our own limits are checked below with a precise status; libpng's defaults (1,000,000
    // pixels per side) would reject earlier with a generic message.
    png_set_user_limits(png, 0x7fffffffU, 0x7fffffffU);
    // Chunk limits on top of vt_png_allocate: 8,000,000 bytes per chunk (also bounds the
    // decompressed size of zTXt/iCCP) and 1000 ancillary chunks, libpng's own suggested values
    // (PNG_USER_CHUNK_MALLOC_MAX and PNG_USER_CHUNK_CACHE_MAX, libpng scripts/pnglibconf.dfa);
    // distributions build with 0 (unlimited). Image data (IDAT) is streamed and not affected.
    png_set_chunk_malloc_max(png, 8000000);
    png_set_chunk_cache_max(png, 1000);
    png_read_info(png, png_info);
    png_uint_32 width = 0, height = 0;
    int bit_depth = 0, color_type = 0, interlace = 0;
    png_get_IHDR(png, png_info, &width, &height, &bit_depth, &color_type, &interlace, NULL, NULL);
    info->width = (int32_t)width;
    info->height = (int32_t)height;
    info->components = png_get_channels(png, png_info);
    info->bit_depth = bit_depth;
    info->progressive = interlace != PNG_INTERLACE_NONE ? 1 : 0;
    info->special_color = color_type == PNG_COLOR_TYPE_PALETTE ? 1 : 0;
    if (!vt_dimensions_allowed(width, height, limits)) {
        vt_png_record(context, VT_STATUS_TOO_LARGE, "PNG dimensions exceed the decoding limits");
        png_longjmp(png, 1);
    }
}

int vt_png_read_info(const uint8_t *data, size_t size, vt_decode_limits limits,
                     vt_image_info *info, char *message, size_t message_capacity) {
    if (info == NULL) {
        vt_set_message(message, message_capacity, "missing info argument");
        return VT_STATUS_INVALID_ARGUMENT;
    }
    vt_png_context *const context = vt_png_context_create(message, message_capacity);
    if (context == NULL) {
        return VT_STATUS_OUT_OF_MEMORY;
    }
    if (!vt_png_begin(context, data, size, limits)) {
        return vt_png_context_finish(context);
    }
    if (setjmp(png_jmpbuf(context->png))) {
        return vt_png_context_finish(context);
    }
    vt_png_read_header(context, limits, info);
    return vt_png_context_finish(context);
}

int vt_png_decode_rgb(const uint8_t *data, size_t size, vt_decode_limits limits,
                      uint8_t *pixels, size_t bytes_per_row, int32_t width, int32_t height,
                      char *message, size_t message_capacity) {
    if (pixels == NULL || width <= 0 || height <= 0 || bytes_per_row < (size_t)width * 3) {
        vt_set_message(message, message_capacity, "invalid output buffer for PNG decoding");
        return VT_STATUS_INVALID_ARGUMENT;
    }
    vt_png_context *const context = vt_png_context_create(message, message_capacity);
    if (context == NULL) {
        return VT_STATUS_OUT_OF_MEMORY;
    }
    if (!vt_png_begin(context, data, size, limits)) {
        return vt_png_context_finish(context);
    }
    if (setjmp(png_jmpbuf(context->png))) {
        return vt_png_context_finish(context);
    }
    png_structp png = context->png;
    png_infop info = context->info;
    vt_image_info header;
    vt_png_read_header(context, limits, &header);
    if (header.width != width || header.height != height) {
        vt_png_record(context, VT_STATUS_INVALID_ARGUMENT, "PNG dimensions differ from the output buffer");
        png_longjmp(png, 1);
    }
    const int color_type = png_get_color_type(png, info);
    const int bit_depth = png_get_bit_depth(png, info);
    // Stored sample values, without gamma or color management: palette -> RGB, low bit
    // depths -> 8 bits, 16 bits -> 8 bits (rounded), alpha dropped (tRNS ignored), gray -> RGB.
    if (color_type == PNG_COLOR_TYPE_PALETTE) {
        png_set_palette_to_rgb(png);
    }
    if ((color_type & PNG_COLOR_MASK_COLOR) == 0 && bit_depth < 8) {
        png_set_expand_gray_1_2_4_to_8(png);
    }
    if (bit_depth == 16) {
        png_set_scale_16(png);
    }
    // Palette expansion also turns a tRNS chunk into an alpha channel; strip that one too.
    if ((color_type & PNG_COLOR_MASK_ALPHA) != 0 ||
        (color_type == PNG_COLOR_TYPE_PALETTE && png_get_valid(png, info, PNG_INFO_tRNS) != 0)) {
        png_set_strip_alpha(png);
    }
    if ((color_type & PNG_COLOR_MASK_COLOR) == 0) {
        png_set_gray_to_rgb(png);
    }
    const int passes = png_set_interlace_handling(png);
    png_read_update_info(png, info);
    if (png_get_channels(png, info) != 3 || png_get_bit_depth(png, info) != 8 ||
        png_get_rowbytes(png, info) != (size_t)width * 3) {
        vt_png_record(context, VT_STATUS_UNSUPPORTED, "unexpected PNG output layout");
        png_longjmp(png, 1);
    }
    for (int pass = 0; pass < passes; pass++) {
        for (int32_t y = 0; y < height; y++) {
            png_read_row(png, (png_bytep)(pixels + (size_t)y * bytes_per_row), NULL);
        }
    }
    // The chunks after the image data (IEND, text) are not read: a file whose last chunk is
    // missing still holds a complete image.
    return vt_png_context_finish(context);
}

// MARK: - Writing

static void vt_png_write(png_structp png, png_bytep source, size_t count) {
    vt_png_context *context = (vt_png_context *)png_get_io_ptr(png);
    if (!vt_buffer_reserve(&context->output, count)) {
        vt_png_record(context, VT_STATUS_OUT_OF_MEMORY, "out of memory while encoding PNG");
        png_longjmp(png, 1);
    }
    memcpy(context->output.data + context->output.size, source, count);
    context->output.size += count;
}

static void vt_png_flush(png_structp png) {
    (void)png;
}

// Encodes `height` rows of `samples` as a non-interlaced PNG of `color_type` and `bit_depth`,
// with an optional eXIf chunk; the shared body of the RGB and grayscale encoders.
static int vt_png_encode(const uint8_t *samples, size_t bytes_per_row, int32_t width, int32_t height,
                         int bit_depth, int color_type, const uint8_t *exif, size_t exif_size,
                         uint8_t **output, size_t *output_size, char *message, size_t message_capacity) {
    *output = NULL;
    *output_size = 0;
    vt_png_context *const context = vt_png_context_create(message, message_capacity);
    if (context == NULL) {
        return VT_STATUS_OUT_OF_MEMORY;
    }
    context->writing = 1;
    context->png = png_create_write_struct(PNG_LIBPNG_VER_STRING, context, vt_png_error, vt_png_warning);
    if (context->png == NULL) {
        vt_png_record(context, VT_STATUS_OUT_OF_MEMORY, "cannot create the PNG writer");
        return vt_png_context_finish(context);
    }
    context->info = png_create_info_struct(context->png);
    if (context->info == NULL) {
        vt_png_record(context, VT_STATUS_OUT_OF_MEMORY, "cannot create the PNG writer");
        return vt_png_context_finish(context);
    }
    if (setjmp(png_jmpbuf(context->png))) {
        return vt_png_context_finish(context);
    }
    png_structp png = context->png;
    png_infop info = context->info;
    png_set_write_fn(png, context, vt_png_write, vt_png_flush);
    png_set_IHDR(png, info, (png_uint_32)width, (png_uint_32)height, bit_depth, color_type,
                 PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    if (exif != NULL && exif_size > 0) {
        png_set_eXIf_1(png, info, (png_uint_32)exif_size, (png_bytep)exif);
    }
    png_write_info(png, info);
    for (int32_t y = 0; y < height; y++) {
        png_write_row(png, (png_const_bytep)(samples + (size_t)y * bytes_per_row));
    }
    png_write_end(png, NULL);
    // Hand the encoded bytes to the caller; finish() must not free them.
    *output = context->output.data;
    *output_size = context->output.size;
    context->output.data = NULL;
    return vt_png_context_finish(context);
}

int vt_png_encode_rgb(const uint8_t *pixels, size_t bytes_per_row, int32_t width, int32_t height,
                      const uint8_t *exif, size_t exif_size,
                      uint8_t **output, size_t *output_size,
                      char *message, size_t message_capacity) {
    if (output == NULL || output_size == NULL || pixels == NULL || width <= 0 || height <= 0 ||
        bytes_per_row < (size_t)width * 3 || (exif != NULL && exif_size > 0x7fffffffU)) {
        vt_set_message(message, message_capacity, "invalid arguments for PNG encoding");
        return VT_STATUS_INVALID_ARGUMENT;
    }
    return vt_png_encode(pixels, bytes_per_row, width, height, 8, PNG_COLOR_TYPE_RGB, exif, exif_size, output,
                         output_size, message, message_capacity);
}

int vt_png_encode_gray(const uint8_t *samples, size_t bytes_per_row, int32_t width, int32_t height,
                       int32_t bit_depth, uint8_t **output, size_t *output_size,
                       char *message, size_t message_capacity) {
    if (output == NULL || output_size == NULL || samples == NULL || width <= 0 || height <= 0 ||
        (bit_depth != 8 && bit_depth != 16) || bytes_per_row < (size_t)width * (size_t)(bit_depth / 8)) {
        vt_set_message(message, message_capacity, "invalid arguments for grayscale PNG encoding");
        return VT_STATUS_INVALID_ARGUMENT;
    }
    return vt_png_encode(samples, bytes_per_row, width, height, bit_depth, PNG_COLOR_TYPE_GRAY, NULL, 0, output,
                         output_size, message, message_capacity);
}

#else // no libpng on this platform

int vt_png_read_info(const uint8_t *data, size_t size, vt_decode_limits limits,
                     vt_image_info *info, char *message, size_t message_capacity) {
    (void)data; (void)size; (void)limits; (void)info;
    vt_set_message(message, message_capacity, "libpng is not available on this platform");
    return VT_STATUS_UNAVAILABLE;
}

int vt_png_decode_rgb(const uint8_t *data, size_t size, vt_decode_limits limits,
                      uint8_t *pixels, size_t bytes_per_row, int32_t width, int32_t height,
                      char *message, size_t message_capacity) {
    (void)data; (void)size; (void)limits; (void)pixels; (void)bytes_per_row; (void)width; (void)height;
    vt_set_message(message, message_capacity, "libpng is not available on this platform");
    return VT_STATUS_UNAVAILABLE;
}

int vt_png_encode_rgb(const uint8_t *pixels, size_t bytes_per_row, int32_t width, int32_t height,
                      const uint8_t *exif, size_t exif_size,
                      uint8_t **output, size_t *output_size,
                      char *message, size_t message_capacity) {
    (void)pixels; (void)bytes_per_row; (void)width; (void)height; (void)exif; (void)exif_size;
    (void)output; (void)output_size;
    vt_set_message(message, message_capacity, "libpng is not available on this platform");
    return VT_STATUS_UNAVAILABLE;
}

int vt_png_encode_gray(const uint8_t *samples, size_t bytes_per_row, int32_t width, int32_t height,
                       int32_t bit_depth, uint8_t **output, size_t *output_size,
                       char *message, size_t message_capacity) {
    (void)samples; (void)bytes_per_row; (void)width; (void)height; (void)bit_depth;
    (void)output; (void)output_size;
    vt_set_message(message, message_capacity, "libpng is not available on this platform");
    return VT_STATUS_UNAVAILABLE;
}

#endif
