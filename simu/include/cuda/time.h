/* simu shim <time.h>: the system's header when there is one; otherwise clock, time and the
 * timespec calls host code uses to time kernels. */
#if __has_include_next(<time.h>)
#include_next <time.h>
#elif !defined(__SIMU_TIME_H)
#define __SIMU_TIME_H
#include <stddef.h>
typedef long time_t;
typedef long clock_t;
typedef int clockid_t;
#define CLOCKS_PER_SEC 1000000L
#define CLOCK_REALTIME 0
#define CLOCK_MONOTONIC 1
struct timespec {
  time_t tv_sec;
  long tv_nsec;
};
struct tm {
  int tm_sec, tm_min, tm_hour, tm_mday, tm_mon, tm_year, tm_wday, tm_yday, tm_isdst;
  long tm_gmtoff;
  const char *tm_zone;
};
extern "C" {
clock_t clock(void) noexcept;
time_t time(time_t *t) noexcept;
double difftime(time_t a, time_t b) noexcept;
int clock_gettime(clockid_t clk, struct timespec *tp) noexcept;
int nanosleep(const struct timespec *req, struct timespec *rem);
struct tm *localtime(const time_t *t) noexcept;
struct tm *gmtime(const time_t *t) noexcept;
char *ctime(const time_t *t) noexcept;
char *asctime(const struct tm *tp) noexcept;
size_t strftime(char *s, size_t max, const char *fmt, const struct tm *tp) noexcept;
time_t mktime(struct tm *tp) noexcept;
}
#endif
