/* simu shim <sys/time.h>: the system's header when there is one; otherwise struct timeval,
 * struct timezone and gettimeofday (host declarations), so host timing code parses anywhere. */
#if __has_include_next(<sys/time.h>)
#include_next <sys/time.h>
#elif !defined(__SIMU_SYS_TIME_H)
#define __SIMU_SYS_TIME_H
typedef long time_t;
typedef long suseconds_t;
struct timeval {
  time_t tv_sec;
  suseconds_t tv_usec;
};
struct timezone {
  int tz_minuteswest;
  int tz_dsttime;
};
extern "C" int gettimeofday(struct timeval *tv, void *tz) noexcept;
#endif
