// Layout of packed sparse 1x1-convolution weights, shared by the packing code and every
// instruction-set build of the kernel.
//
// Words 0-2: the group count G, the input-channel block size and the block count B (blocks keep
// a tile's transposed inputs in the first-level cache); words 3...3+G-1: each group's offset (in
// words). A group is four output channels: words 0-3 their channel indices (n marks a spare
// channel when n is not a multiple of 4), words 8-11 their biases, words 12...12+B-1 the step
// count of each block, then the steps, block by block: four input-channel indices (relative to
// the block) and four weights. Channels are sorted by their number of non-zero weights, so a
// group's channels need few padding steps (index 0, weight 0).
#ifndef VK_SPARSE_LAYOUT_H
#define VK_SPARSE_LAYOUT_H

#include <stddef.h>
#include <stdint.h>

typedef uint32_t vk_u32 __attribute__((may_alias));

static inline uint32_t vk_sparse_word(const float *packed, size_t index) { return ((const vk_u32 *)packed)[index]; }

static inline size_t vk_sparse_group_offset(const float *packed, size_t group) {
    return vk_sparse_word(packed, 3 + group);
}

#endif
