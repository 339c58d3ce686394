/* simu shim <cooperative_groups/scan.h>: cooperative_groups::inclusive_scan and exclusive_scan
 * over a thread_block_tile<N> (Hillis-Steele with shfl_up; default operator: plus). The
 * exclusive scan of rank 0 is T() (zero for arithmetic types). */
#ifndef __SIMU_CG_SCAN_H
#define __SIMU_CG_SCAN_H
#include "../cooperative_groups.h"

namespace cooperative_groups {
template <unsigned int N, typename P, typename T, typename Op>
__device__ __forceinline__ T inclusive_scan(const thread_block_tile<N, P> &tile, T value, Op op) {
  for (unsigned int offset = 1; offset < N; offset *= 2) {
    T other = tile.shfl_up(value, offset);
    if (tile.thread_rank() >= offset) value = op(value, other);
  }
  return value;
}
template <unsigned int N, typename P, typename T>
__device__ __forceinline__ T inclusive_scan(const thread_block_tile<N, P> &tile, T value) {
  return inclusive_scan(tile, value, plus<T>());
}
template <unsigned int N, typename P, typename T, typename Op>
__device__ __forceinline__ T exclusive_scan(const thread_block_tile<N, P> &tile, T value, Op op) {
  T inclusive = inclusive_scan(tile, value, op);
  T shifted = tile.shfl_up(inclusive, 1);
  return tile.thread_rank() == 0 ? T() : shifted;
}
template <unsigned int N, typename P, typename T>
__device__ __forceinline__ T exclusive_scan(const thread_block_tile<N, P> &tile, T value) {
  return exclusive_scan(tile, value, plus<T>());
}
}  // namespace cooperative_groups

#endif /* __SIMU_CG_SCAN_H */
