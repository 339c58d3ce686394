/* simu shim <malloc.h>: glibc's allocation extras (memalign, malloc_usable_size, ...). malloc
 * and free themselves come from simu's device-callable declarations (via <stdlib.h>); the
 * system <malloc.h> is not used because it redeclares them host-only. */
#ifndef __SIMU_MALLOC_H
#define __SIMU_MALLOC_H
#include <stdlib.h>
extern "C" {
void *memalign(size_t alignment, size_t size) noexcept;
void *valloc(size_t size) noexcept;
void *pvalloc(size_t size) noexcept;
size_t malloc_usable_size(void *ptr) noexcept;
int malloc_trim(size_t pad) noexcept;
int mallopt(int param, int value) noexcept;
}
#endif
