#include "support_common.h"

void vt_free(void *pointer) {
    free(pointer);
}
