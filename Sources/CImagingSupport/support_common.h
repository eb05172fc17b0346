// Shared helpers of the CImagingSupport implementation files (not part of the public header).
#ifndef VT_SUPPORT_COMMON_H
#define VT_SUPPORT_COMMON_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "CImagingSupport.h"

/// A growable output buffer owned by an encoder until it is handed to the caller.
typedef struct {
    uint8_t *data;
    size_t size;
    size_t capacity;
} vt_buffer;

/// Makes room for at least `extra` more bytes; returns 0 when memory is exhausted.
static inline int vt_buffer_reserve(vt_buffer *buffer, size_t extra) {
    if (extra <= buffer->capacity - buffer->size) {
        return 1;
    }
    size_t wanted = buffer->size + extra;
    if (wanted < buffer->size) {
        return 0;
    }
    size_t capacity = buffer->capacity < 4096 ? 4096 : buffer->capacity;
    while (capacity < wanted) {
        if (capacity > SIZE_MAX / 2) {
            return 0;
        }
        capacity *= 2;
    }
    uint8_t *grown = (uint8_t *)realloc(buffer->data, capacity);
    if (grown == NULL) {
        return 0;
    }
    buffer->data = grown;
    buffer->capacity = capacity;
    return 1;
}

/// Copies `text` into the caller's message buffer, truncating it and always terminating it.
static inline void vt_set_message(char *message, size_t capacity, const char *text) {
    if (message == NULL || capacity == 0) {
        return;
    }
    size_t length = text == NULL ? 0 : strlen(text);
    if (length >= capacity) {
        length = capacity - 1;
    }
    if (length > 0) {
        memcpy(message, text, length);
    }
    message[length] = '\0';
}

/// Checks header dimensions against the caller's limits.
static inline int vt_dimensions_allowed(int64_t width, int64_t height, vt_decode_limits limits) {
    if (width <= 0 || height <= 0) {
        return 0;
    }
    if (width > limits.max_width || height > limits.max_height) {
        return 0;
    }
    return width * height <= limits.max_pixels;
}

#endif
