#include "layout.h"

void configure(Layout *layout, int count) {
    layout->count = count;
    layout->width = 64;
}
