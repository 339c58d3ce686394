/* simu shim <pthread.h>: the system's header when there is one; otherwise threads, mutexes,
 * condition variables and barriers as opaque types with their calls (host declarations). */
#if __has_include_next(<pthread.h>)
#include_next <pthread.h>
#elif !defined(__SIMU_PTHREAD_H)
#define __SIMU_PTHREAD_H
#include <sys/types.h>
typedef unsigned long pthread_t;
typedef struct { long __simu[7]; } pthread_attr_t;
typedef struct { long __simu[5]; } pthread_mutex_t;
typedef struct { int __simu; } pthread_mutexattr_t;
typedef struct { long __simu[6]; } pthread_cond_t;
typedef struct { int __simu; } pthread_condattr_t;
typedef struct { long __simu[4]; } pthread_barrier_t;
typedef struct { int __simu; } pthread_barrierattr_t;
#define PTHREAD_MUTEX_INITIALIZER {{0, 0, 0, 0, 0}}
#define PTHREAD_COND_INITIALIZER {{0, 0, 0, 0, 0, 0}}
extern "C" {
int pthread_create(pthread_t *thread, const pthread_attr_t *attr, void *(*start)(void *), void *arg) noexcept;
int pthread_join(pthread_t thread, void **retval);
int pthread_detach(pthread_t thread) noexcept;
pthread_t pthread_self(void) noexcept;
void pthread_exit(void *retval);
int pthread_mutex_init(pthread_mutex_t *mutex, const pthread_mutexattr_t *attr) noexcept;
int pthread_mutex_destroy(pthread_mutex_t *mutex) noexcept;
int pthread_mutex_lock(pthread_mutex_t *mutex) noexcept;
int pthread_mutex_unlock(pthread_mutex_t *mutex) noexcept;
int pthread_cond_init(pthread_cond_t *cond, const pthread_condattr_t *attr) noexcept;
int pthread_cond_destroy(pthread_cond_t *cond) noexcept;
int pthread_cond_wait(pthread_cond_t *cond, pthread_mutex_t *mutex);
int pthread_cond_signal(pthread_cond_t *cond) noexcept;
int pthread_cond_broadcast(pthread_cond_t *cond) noexcept;
int pthread_barrier_init(pthread_barrier_t *barrier, const pthread_barrierattr_t *attr, unsigned count) noexcept;
int pthread_barrier_wait(pthread_barrier_t *barrier) noexcept;
int pthread_barrier_destroy(pthread_barrier_t *barrier) noexcept;
}
#endif
