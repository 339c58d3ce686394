/* simu shim <stdlib.h>: the C library's stdlib functions and types (host declarations; printf,
 * malloc, free, memcpy, memset and memmove are also device functions). See __simu_libc.h. */
#ifndef __SIMU_STDLIB_H
#define __SIMU_STDLIB_H
#include "__simu_libc.h"
#endif
