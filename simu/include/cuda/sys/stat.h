/* simu shim <sys/stat.h>: the system's header when there is one; otherwise struct stat, stat,
 * fstat and mkdir (host declarations). */
#if __has_include_next(<sys/stat.h>)
#include_next <sys/stat.h>
#elif !defined(__SIMU_SYS_STAT_H)
#define __SIMU_SYS_STAT_H
#include <sys/types.h>
#define S_IFMT 0170000
#define S_IFDIR 0040000
#define S_IFREG 0100000
#define S_ISDIR(m) (((m) & S_IFMT) == S_IFDIR)
#define S_ISREG(m) (((m) & S_IFMT) == S_IFREG)
struct stat {
  unsigned long st_dev;
  unsigned long st_ino;
  mode_t st_mode;
  unsigned long st_nlink;
  uid_t st_uid;
  gid_t st_gid;
  off_t st_size;
  time_t st_mtime;
};
extern "C" {
int stat(const char *path, struct stat *buf) noexcept;
int fstat(int fd, struct stat *buf) noexcept;
int mkdir(const char *path, mode_t mode) noexcept;
}
#endif
