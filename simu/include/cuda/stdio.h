/* simu shim <stdio.h>: the C library's stdio functions and types (host declarations; printf,
 * malloc, free, memcpy, memset and memmove are also device functions). See __simu_libc.h. */
#ifndef __SIMU_STDIO_H
#define __SIMU_STDIO_H
#include "__simu_libc.h"
#endif
