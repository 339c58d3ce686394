/* simu shim <sys/types.h>: the system's header when there is one; otherwise the POSIX integer
 * types host code names. */
#if __has_include_next(<sys/types.h>)
#include_next <sys/types.h>
#elif !defined(__SIMU_SYS_TYPES_H)
#define __SIMU_SYS_TYPES_H
#include <stddef.h>
typedef long ssize_t;
typedef long off_t;
typedef int pid_t;
typedef unsigned int uid_t;
typedef unsigned int gid_t;
typedef unsigned int mode_t;
typedef long time_t;
typedef long clock_t;
typedef long suseconds_t;
typedef unsigned int useconds_t;
typedef unsigned char u_char;
typedef unsigned int u_int;
typedef unsigned long u_long;
typedef unsigned short u_short;
typedef unsigned int uint;
typedef unsigned short ushort;
typedef unsigned long ulong;
#endif
