/* simu shim <omp.h>: the OpenMP runtime calls host code makes (declarations only). simu never
 * compiles host code, and `#pragma omp` is ignored because -fopenmp is not passed. */
#ifndef __SIMU_OMP_H
#define __SIMU_OMP_H
typedef struct { void *__simu_lock; } omp_lock_t;
typedef struct { void *__simu_lock; } omp_nest_lock_t;
typedef enum omp_sched_t { omp_sched_static = 1, omp_sched_dynamic = 2, omp_sched_guided = 3, omp_sched_auto = 4 } omp_sched_t;
extern "C" {
double omp_get_wtime(void);
double omp_get_wtick(void);
int omp_get_thread_num(void);
int omp_get_num_threads(void);
int omp_get_max_threads(void);
int omp_get_num_procs(void);
void omp_set_num_threads(int n);
int omp_in_parallel(void);
void omp_set_dynamic(int flag);
int omp_get_dynamic(void);
void omp_set_nested(int flag);
int omp_get_nested(void);
void omp_set_schedule(omp_sched_t kind, int chunk);
int omp_get_level(void);
void omp_init_lock(omp_lock_t *lock);
void omp_destroy_lock(omp_lock_t *lock);
void omp_set_lock(omp_lock_t *lock);
void omp_unset_lock(omp_lock_t *lock);
int omp_test_lock(omp_lock_t *lock);
void omp_init_nest_lock(omp_nest_lock_t *lock);
void omp_destroy_nest_lock(omp_nest_lock_t *lock);
void omp_set_nest_lock(omp_nest_lock_t *lock);
void omp_unset_nest_lock(omp_nest_lock_t *lock);
}
#endif
