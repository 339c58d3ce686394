/* simu shim <cooperative_groups/memcpy_async.h>: cooperative_groups::memcpy_async and wait.
 *
 * memcpy_async(group, dst, src, bytes) is modelled as a synchronous copy shared by the group's
 * threads (thread r copies bytes r, r + size, ...); wait(group) / wait_prior<N>(group) are the
 * group's barrier, which is what makes the copied data visible to every thread of the group on a
 * real GPU. The copy's accesses are ordinary loads and stores, so a read of the destination
 * before wait() is reported as a race, as it is one on the hardware. */
#ifndef __SIMU_CG_MEMCPY_ASYNC_H
#define __SIMU_CG_MEMCPY_ASYNC_H
#include "../cooperative_groups.h"

namespace cooperative_groups {
template <class Group>
__device__ __forceinline__ void memcpy_async(const Group &g, void *dst, const void *src, size_t bytes) {
  unsigned char *d = (unsigned char *)dst;
  const unsigned char *s = (const unsigned char *)src;
  for (size_t i = g.thread_rank(); i < bytes; i += g.size()) d[i] = s[i];
}
template <class Group, class T>
__device__ __forceinline__ void memcpy_async(const Group &g, T *dst, const T *src, size_t count) {
  for (size_t i = g.thread_rank(); i < count; i += g.size()) dst[i] = src[i];
}
template <class Group> __device__ __forceinline__ void wait(const Group &g) { g.sync(); }
template <unsigned int N, class Group> __device__ __forceinline__ void wait_prior(const Group &g) { g.sync(); }
}  // namespace cooperative_groups
#endif
