/* simu shim <fcntl.h>: the system's header when there is one; otherwise open() and its flags
 * (host declarations). */
#if __has_include_next(<fcntl.h>)
#include_next <fcntl.h>
#elif !defined(__SIMU_FCNTL_H)
#define __SIMU_FCNTL_H
#include <sys/types.h>
#define O_RDONLY 00
#define O_WRONLY 01
#define O_RDWR 02
#define O_CREAT 0100
#define O_TRUNC 01000
#define O_APPEND 02000
extern "C" {
int open(const char *path, int flags, ...);
int creat(const char *path, mode_t mode);
int fcntl(int fd, int cmd, ...);
}
#endif
