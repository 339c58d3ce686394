/* simu shim <getopt.h>: the system's header when there is one; otherwise getopt / getopt_long
 * (host declarations). */
#if __has_include_next(<getopt.h>)
#include_next <getopt.h>
#elif !defined(__SIMU_GETOPT_H)
#define __SIMU_GETOPT_H
#define no_argument 0
#define required_argument 1
#define optional_argument 2
struct option {
  const char *name;
  int has_arg;
  int *flag;
  int val;
};
extern "C" {
extern char *optarg;
extern int optind, opterr, optopt;
int getopt(int argc, char *const argv[], const char *optstring) noexcept;
int getopt_long(int argc, char *const argv[], const char *shortopts, const struct option *longopts,
                int *longind) noexcept;
}
#endif
