/* simu shim <string.h>: the C library's string functions and types (host declarations; printf,
 * malloc, free, memcpy, memset and memmove are also device functions). See __simu_libc.h. */
#ifndef __SIMU_STRING_H
#define __SIMU_STRING_H
#include "__simu_libc.h"
#endif
