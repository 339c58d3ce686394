/* simu shim <unistd.h>: the system's header when there is one; otherwise the POSIX calls host
 * code commonly makes (sleep, usleep, getopt, access, close, read, write, getpid, sysconf). */
#if __has_include_next(<unistd.h>)
#include_next <unistd.h>
#elif !defined(__SIMU_UNISTD_H)
#define __SIMU_UNISTD_H
#include <stddef.h>
typedef long ssize_t;
typedef int pid_t;
typedef unsigned int useconds_t;
#define F_OK 0
#define X_OK 1
#define W_OK 2
#define R_OK 4
#define STDIN_FILENO 0
#define STDOUT_FILENO 1
#define STDERR_FILENO 2
#define _SC_NPROCESSORS_ONLN 84
#define _SC_PAGESIZE 30
extern "C" {
unsigned int sleep(unsigned int seconds);
int usleep(useconds_t usec);
int access(const char *path, int mode) noexcept;
int close(int fd);
ssize_t read(int fd, void *buf, size_t n);
ssize_t write(int fd, const void *buf, size_t n);
pid_t getpid(void) noexcept;
long sysconf(int name) noexcept;
int unlink(const char *path) noexcept;
char *getcwd(char *buf, size_t size) noexcept;
int chdir(const char *path) noexcept;
int gethostname(char *name, size_t len) noexcept;
int getopt(int argc, char *const argv[], const char *optstring) noexcept;
extern char *optarg;
extern int optind, opterr, optopt;
}
#endif
