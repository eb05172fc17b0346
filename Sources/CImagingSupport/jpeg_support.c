// JPEG decoding and encoding through libjpeg(-turbo), with every fatal error caught here.
//
// libjpeg's default error handler prints and calls exit(). We install our own handler whose
// error_exit records a status and jumps back (longjmp) to the setjmp in the calling function
// of this file; the jump never leaves C code.
#include "support_common.h"

#if defined(__linux__) || defined(__ANDROID__)

#include <setjmp.h>
#include <stdio.h>

// jpeglib.h first: jerror.h's message list depends on the version macros it defines.
#include <jpeglib.h>
#include <jerror.h>

// MARK: - Error handling

typedef struct {
    struct jpeg_error_mgr base;
    jmp_buf jump;
    int status;
    char *message;
    size_t message_capacity;
    /// Largest progressive scan number accepted (decoding only).
    int max_scans;
    /// Set while jpeg_finish_decompress runs: a missing EOI after complete image data is fine.
    int finishing;
} vt_jpeg_error;

/// Maps a libjpeg message code to one of our statuses.
static int vt_jpeg_classify(int code) {
    switch (code) {
    case JERR_OUT_OF_MEMORY:
    case JERR_NO_BACKING_STORE:
    case JERR_TFILE_CREATE:
        return VT_STATUS_OUT_OF_MEMORY;
    case JERR_BAD_PRECISION:
    case JERR_NOT_COMPILED:
    case JERR_CONVERSION_NOTIMPL:
    case JERR_NOTIMPL:
    case JERR_ARITH_NOTIMPL:
        return VT_STATUS_UNSUPPORTED;
    case JERR_INPUT_EOF:
    case JERR_INPUT_EMPTY:
        return VT_STATUS_TRUNCATED;
    default:
        return VT_STATUS_CORRUPT;
    }
}

static void vt_jpeg_fail(j_common_ptr cinfo, int status) {
    vt_jpeg_error *error = (vt_jpeg_error *)cinfo->err;
    if (error->status == VT_STATUS_OK) {
        char text[JMSG_LENGTH_MAX];
        (*cinfo->err->format_message)(cinfo, text);
        error->status = status;
        vt_set_message(error->message, error->message_capacity, text);
    }
    longjmp(error->jump, 1);
}

static void vt_jpeg_error_exit(j_common_ptr cinfo) {
    vt_jpeg_fail(cinfo, vt_jpeg_classify(cinfo->err->msg_code));
}

/// Warnings that mean the entropy-coded data is damaged are turned into errors; a
/// partially gray-filled image is never returned as a success.
static void vt_jpeg_emit_message(j_common_ptr cinfo, int level) {
    if (level >= 0) {
        return; // trace messages
    }
    switch (cinfo->err->msg_code) {
    case JWRN_JPEG_EOF:
        vt_jpeg_fail(cinfo, VT_STATUS_TRUNCATED);
        break;
    case JWRN_HUFF_BAD_CODE:
#if JPEG_LIB_VERSION >= 70 || defined(C_ARITH_CODING_SUPPORTED) || defined(D_ARITH_CODING_SUPPORTED)
    case JWRN_ARITH_BAD_CODE:
#endif
    case JWRN_HIT_MARKER:
    case JWRN_MUST_RESYNC:
        vt_jpeg_fail(cinfo, VT_STATUS_CORRUPT);
        break;
    default:
        cinfo->err->num_warnings++;
        break;
    }
}

static void vt_jpeg_output_message(j_common_ptr cinfo) {
    (void)cinfo; // never print
}

static void vt_jpeg_install_error(vt_jpeg_error *error, char *message, size_t capacity) {
    jpeg_std_error(&error->base);
    error->base.error_exit = vt_jpeg_error_exit;
    error->base.emit_message = vt_jpeg_emit_message;
    error->base.output_message = vt_jpeg_output_message;
    error->status = VT_STATUS_OK;
    error->message = message;
    error->message_capacity = capacity;
    error->max_scans = 0;
    error->finishing = 0;
}

// MARK: - Memory source

typedef struct {
    struct jpeg_source_mgr base;
    const uint8_t *data;
    size_t size;
} vt_jpeg_source;

static void vt_jpeg_init_source(j_decompress_ptr cinfo) {
    (void)cinfo;
}

/// Called only when every byte has been consumed. Past the image data (while finishing) a
/// fake EOI marker ends the stream quietly; anywhere else the file is truncated.
static boolean vt_jpeg_fill_input(j_decompress_ptr cinfo) {
    static const JOCTET fake_eoi[2] = {0xFF, JPEG_EOI};
    vt_jpeg_error *error = (vt_jpeg_error *)cinfo->err;
    if (!error->finishing) {
        if (error->status == VT_STATUS_OK) {
            error->status = VT_STATUS_TRUNCATED;
            vt_set_message(error->message, error->message_capacity,
                           "JPEG data ends before the image is complete");
        }
        longjmp(error->jump, 1);
    }
    cinfo->src->next_input_byte = fake_eoi;
    cinfo->src->bytes_in_buffer = 2;
    return TRUE;
}

static void vt_jpeg_skip_input(j_decompress_ptr cinfo, long count) {
    if (count <= 0) {
        return;
    }
    struct jpeg_source_mgr *source = cinfo->src;
    while ((size_t)count > source->bytes_in_buffer) {
        count -= (long)source->bytes_in_buffer;
        (void)(*source->fill_input_buffer)(cinfo);
    }
    source->next_input_byte += (size_t)count;
    source->bytes_in_buffer -= (size_t)count;
}

static void vt_jpeg_term_source(j_decompress_ptr cinfo) {
    (void)cinfo;
}

static void vt_jpeg_attach_source(j_decompress_ptr cinfo, vt_jpeg_source *source,
                                  const uint8_t *data, size_t size) {
    source->data = data;
    source->size = size;
    source->base.init_source = vt_jpeg_init_source;
    source->base.fill_input_buffer = vt_jpeg_fill_input;
    source->base.skip_input_data = vt_jpeg_skip_input;
    source->base.resync_to_restart = jpeg_resync_to_restart;
    source->base.term_source = vt_jpeg_term_source;
    source->base.next_input_byte = data;
    source->base.bytes_in_buffer = size;
    cinfo->src = &source->base;
}

// MARK: - Scan limit

/// Progressive files are read scan by scan before any output; a file with thousands of tiny
/// scans would take very long, so the scan count is capped (same idea as djpeg -maxscans).
static void vt_jpeg_progress(j_common_ptr cinfo) {
    if (!cinfo->is_decompressor) {
        return;
    }
    j_decompress_ptr decompress = (j_decompress_ptr)cinfo;
    vt_jpeg_error *error = (vt_jpeg_error *)cinfo->err;
    if (error->max_scans > 0 && decompress->input_scan_number > error->max_scans) {
        if (error->status == VT_STATUS_OK) {
            error->status = VT_STATUS_TOO_MANY_SCANS;
            vt_set_message(error->message, error->message_capacity,
                           "JPEG has more progressive scans than allowed");
        }
        longjmp(error->jump, 1);
    }
}

// MARK: - Decoding

static void vt_jpeg_fill_info(j_decompress_ptr cinfo, vt_image_info *info) {
    info->width = (int32_t)cinfo->image_width;
    info->height = (int32_t)cinfo->image_height;
    info->components = cinfo->num_components;
    info->bit_depth = cinfo->data_precision;
    info->progressive = cinfo->progressive_mode ? 1 : 0;
    info->special_color =
        (cinfo->jpeg_color_space == JCS_CMYK || cinfo->jpeg_color_space == JCS_YCCK) ? 1 : 0;
}

/// Everything one decode call touches, on the heap: objects changed between setjmp and
/// longjmp must not be automatic variables of the function that called setjmp.
typedef struct {
    struct jpeg_decompress_struct cinfo;
    vt_jpeg_error error;
    vt_jpeg_source source;
    struct jpeg_progress_mgr progress;
    uint8_t *cmyk_row;
} vt_jpeg_decoder;

static vt_jpeg_decoder *vt_jpeg_decoder_create(char *message, size_t message_capacity) {
    vt_jpeg_decoder *decoder = (vt_jpeg_decoder *)calloc(1, sizeof(vt_jpeg_decoder));
    if (decoder == NULL) {
        vt_set_message(message, message_capacity, "out of memory");
        return NULL;
    }
    decoder->cinfo.err = &decoder->error.base;
    vt_jpeg_install_error(&decoder->error, message, message_capacity);
    return decoder;
}

static int vt_jpeg_decoder_finish(vt_jpeg_decoder *decoder) {
    const int status = decoder->error.status;
    free(decoder->cmyk_row);
    jpeg_destroy_decompress(&decoder->cinfo);
    free(decoder);
    return status;
}

int vt_jpeg_read_info(const uint8_t *data, size_t size, vt_decode_limits limits,
                      vt_image_info *info, char *message, size_t message_capacity) {
    if (data == NULL || size == 0 || info == NULL) {
        vt_set_message(message, message_capacity, "empty JPEG data");
        return VT_STATUS_TRUNCATED;
    }
    vt_jpeg_decoder *const decoder = vt_jpeg_decoder_create(message, message_capacity);
    if (decoder == NULL) {
        return VT_STATUS_OUT_OF_MEMORY;
    }
    if (setjmp(decoder->error.jump)) {
        return vt_jpeg_decoder_finish(decoder);
    }
    j_decompress_ptr cinfo = &decoder->cinfo;
    jpeg_create_decompress(cinfo);
    vt_jpeg_attach_source(cinfo, &decoder->source, data, size);
    (void)jpeg_read_header(cinfo, TRUE);
    vt_jpeg_fill_info(cinfo, info);
    if (!vt_dimensions_allowed(info->width, info->height, limits)) {
        decoder->error.status = VT_STATUS_TOO_LARGE;
        vt_set_message(message, message_capacity, "JPEG dimensions exceed the decoding limits");
    }
    return vt_jpeg_decoder_finish(decoder);
}

/// Turns one CMYK row into RGB. Adobe applications write CMYK inverted (255 = no ink).
static void vt_cmyk_to_rgb(const uint8_t *cmyk, uint8_t *rgb, int32_t width, int inverted) {
    for (int32_t x = 0; x < width; x++, cmyk += 4, rgb += 3) {
        unsigned c = cmyk[0], m = cmyk[1], y = cmyk[2], k = cmyk[3];
        if (!inverted) {
            c = 255 - c;
            m = 255 - m;
            y = 255 - y;
            k = 255 - k;
        }
        rgb[0] = (uint8_t)((c * k + 127) / 255);
        rgb[1] = (uint8_t)((m * k + 127) / 255);
        rgb[2] = (uint8_t)((y * k + 127) / 255);
    }
}

static void vt_jpeg_abort(vt_jpeg_decoder *decoder, int status, const char *text) {
    decoder->error.status = status;
    vt_set_message(decoder->error.message, decoder->error.message_capacity, text);
    longjmp(decoder->error.jump, 1);
}

int vt_jpeg_decode_rgb(const uint8_t *data, size_t size, vt_decode_limits limits,
                       uint8_t *pixels, size_t bytes_per_row, int32_t width, int32_t height,
                       char *message, size_t message_capacity) {
    if (data == NULL || size == 0) {
        vt_set_message(message, message_capacity, "empty JPEG data");
        return VT_STATUS_TRUNCATED;
    }
    if (pixels == NULL || width <= 0 || height <= 0 || bytes_per_row < (size_t)width * 3) {
        vt_set_message(message, message_capacity, "invalid output buffer for JPEG decoding");
        return VT_STATUS_INVALID_ARGUMENT;
    }
    vt_jpeg_decoder *const decoder = vt_jpeg_decoder_create(message, message_capacity);
    if (decoder == NULL) {
        return VT_STATUS_OUT_OF_MEMORY;
    }
    decoder->error.max_scans = limits.max_scans;
    if (setjmp(decoder->error.jump)) {
        return vt_jpeg_decoder_finish(decoder);
    }
    j_decompress_ptr cinfo = &decoder->cinfo;
    jpeg_create_decompress(cinfo);
    vt_jpeg_attach_source(cinfo, &decoder->source, data, size);
    decoder->progress.progress_monitor = vt_jpeg_progress;
    cinfo->progress = &decoder->progress;
    (void)jpeg_read_header(cinfo, TRUE);
    if (!vt_dimensions_allowed(cinfo->image_width, cinfo->image_height, limits)) {
        vt_jpeg_abort(decoder, VT_STATUS_TOO_LARGE, "JPEG dimensions exceed the decoding limits");
    }
    if ((int32_t)cinfo->image_width != width || (int32_t)cinfo->image_height != height) {
        vt_jpeg_abort(decoder, VT_STATUS_INVALID_ARGUMENT, "JPEG dimensions differ from the output buffer");
    }
    const int is_cmyk = cinfo->jpeg_color_space == JCS_CMYK || cinfo->jpeg_color_space == JCS_YCCK;
    // Gray is expanded to R=G=B by libjpeg's own gray -> RGB conversion.
    cinfo->out_color_space = is_cmyk ? JCS_CMYK : JCS_RGB;
    jpeg_start_decompress(cinfo);
    if ((int32_t)cinfo->output_width != width || (int32_t)cinfo->output_height != height ||
        cinfo->output_components != (is_cmyk ? 4 : 3)) {
        vt_jpeg_abort(decoder, VT_STATUS_UNSUPPORTED, "unexpected JPEG output layout");
    }
    if (is_cmyk) {
        decoder->cmyk_row = (uint8_t *)malloc((size_t)width * 4);
        if (decoder->cmyk_row == NULL) {
            vt_jpeg_abort(decoder, VT_STATUS_OUT_OF_MEMORY, "out of memory");
        }
    }
    while (cinfo->output_scanline < cinfo->output_height) {
        uint8_t *destination = pixels + (size_t)cinfo->output_scanline * bytes_per_row;
        JSAMPROW row = is_cmyk ? decoder->cmyk_row : destination;
        if (jpeg_read_scanlines(cinfo, &row, 1) != 1) {
            vt_jpeg_abort(decoder, VT_STATUS_CORRUPT, "JPEG decoder returned no scanline");
        }
        if (is_cmyk) {
            vt_cmyk_to_rgb(decoder->cmyk_row, destination, width, cinfo->saw_Adobe_marker);
        }
    }
    decoder->error.finishing = 1;
    (void)jpeg_finish_decompress(cinfo);
    return vt_jpeg_decoder_finish(decoder);
}

// MARK: - Encoding

typedef struct {
    struct jpeg_destination_mgr base;
    vt_buffer *buffer;
} vt_jpeg_destination;

static void vt_jpeg_init_destination(j_compress_ptr cinfo) {
    vt_jpeg_destination *destination = (vt_jpeg_destination *)cinfo->dest;
    if (!vt_buffer_reserve(destination->buffer, 65536)) {
        ERREXIT1(cinfo, JERR_OUT_OF_MEMORY, 1);
    }
    destination->base.next_output_byte = destination->buffer->data + destination->buffer->size;
    destination->base.free_in_buffer = destination->buffer->capacity - destination->buffer->size;
}

static boolean vt_jpeg_empty_output(j_compress_ptr cinfo) {
    vt_jpeg_destination *destination = (vt_jpeg_destination *)cinfo->dest;
    // The whole free space was filled.
    destination->buffer->size = destination->buffer->capacity;
    if (!vt_buffer_reserve(destination->buffer, destination->buffer->capacity)) {
        ERREXIT1(cinfo, JERR_OUT_OF_MEMORY, 2);
    }
    destination->base.next_output_byte = destination->buffer->data + destination->buffer->size;
    destination->base.free_in_buffer = destination->buffer->capacity - destination->buffer->size;
    return TRUE;
}

static void vt_jpeg_term_destination(j_compress_ptr cinfo) {
    vt_jpeg_destination *destination = (vt_jpeg_destination *)cinfo->dest;
    destination->buffer->size = destination->buffer->capacity - destination->base.free_in_buffer;
}

/// Heap-held state of one encode call (see vt_jpeg_decoder).
typedef struct {
    struct jpeg_compress_struct cinfo;
    vt_jpeg_error error;
    vt_jpeg_destination destination;
    vt_buffer buffer;
} vt_jpeg_encoder;

int vt_jpeg_encode_rgb(const uint8_t *pixels, size_t bytes_per_row, int32_t width, int32_t height,
                       int32_t quality, const uint8_t *exif, size_t exif_size,
                       uint8_t **output, size_t *output_size,
                       char *message, size_t message_capacity) {
    if (output == NULL || output_size == NULL || pixels == NULL || width <= 0 || height <= 0 ||
        width > JPEG_MAX_DIMENSION || height > JPEG_MAX_DIMENSION ||
        bytes_per_row < (size_t)width * 3 || (exif != NULL && exif_size > 65533)) {
        vt_set_message(message, message_capacity, "invalid arguments for JPEG encoding");
        return VT_STATUS_INVALID_ARGUMENT;
    }
    *output = NULL;
    *output_size = 0;
    vt_jpeg_encoder *const encoder = (vt_jpeg_encoder *)calloc(1, sizeof(vt_jpeg_encoder));
    if (encoder == NULL) {
        vt_set_message(message, message_capacity, "out of memory");
        return VT_STATUS_OUT_OF_MEMORY;
    }
    encoder->cinfo.err = &encoder->error.base;
    vt_jpeg_install_error(&encoder->error, message, message_capacity);
    if (setjmp(encoder->error.jump)) {
        const int status = encoder->error.status;
        jpeg_destroy_compress(&encoder->cinfo);
        free(encoder->buffer.data);
        free(encoder);
        return status;
    }
    j_compress_ptr cinfo = &encoder->cinfo;
    jpeg_create_compress(cinfo);
    encoder->destination.buffer = &encoder->buffer;
    encoder->destination.base.init_destination = vt_jpeg_init_destination;
    encoder->destination.base.empty_output_buffer = vt_jpeg_empty_output;
    encoder->destination.base.term_destination = vt_jpeg_term_destination;
    cinfo->dest = &encoder->destination.base;
    cinfo->image_width = (JDIMENSION)width;
    cinfo->image_height = (JDIMENSION)height;
    cinfo->input_components = 3;
    cinfo->in_color_space = JCS_RGB;
    jpeg_set_defaults(cinfo);
    jpeg_set_quality(cinfo, quality < 1 ? 1 : (quality > 100 ? 100 : quality), TRUE);
    jpeg_start_compress(cinfo, TRUE);
    if (exif != NULL && exif_size > 0) {
        jpeg_write_marker(cinfo, JPEG_APP0 + 1, exif, (unsigned int)exif_size);
    }
    while (cinfo->next_scanline < cinfo->image_height) {
        JSAMPROW row = (JSAMPROW)(pixels + (size_t)cinfo->next_scanline * bytes_per_row);
        (void)jpeg_write_scanlines(cinfo, &row, 1);
    }
    jpeg_finish_compress(cinfo);
    jpeg_destroy_compress(cinfo);
    *output = encoder->buffer.data;
    *output_size = encoder->buffer.size;
    free(encoder);
    return VT_STATUS_OK;
}

#else // no libjpeg on this platform

int vt_jpeg_read_info(const uint8_t *data, size_t size, vt_decode_limits limits,
                      vt_image_info *info, char *message, size_t message_capacity) {
    (void)data; (void)size; (void)limits; (void)info;
    vt_set_message(message, message_capacity, "libjpeg is not available on this platform");
    return VT_STATUS_UNAVAILABLE;
}

int vt_jpeg_decode_rgb(const uint8_t *data, size_t size, vt_decode_limits limits,
                       uint8_t *pixels, size_t bytes_per_row, int32_t width, int32_t height,
                       char *message, size_t message_capacity) {
    (void)data; (void)size; (void)limits; (void)pixels; (void)bytes_per_row; (void)width; (void)height;
    vt_set_message(message, message_capacity, "libjpeg is not available on this platform");
    return VT_STATUS_UNAVAILABLE;
}

int vt_jpeg_encode_rgb(const uint8_t *pixels, size_t bytes_per_row, int32_t width, int32_t height,
                       int32_t quality, const uint8_t *exif, size_t exif_size,
                       uint8_t **output, size_t *output_size,
                       char *message, size_t message_capacity) {
    (void)pixels; (void)bytes_per_row; (void)width; (void)height; (void)quality; (void)exif;
    (void)exif_size; (void)output; (void)output_size;
    vt_set_message(message, message_capacity, "libjpeg is not available on this platform");
    return VT_STATUS_UNAVAILABLE;
}

#endif
