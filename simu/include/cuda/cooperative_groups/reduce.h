/* simu shim <cooperative_groups/reduce.h>: cooperative_groups::reduce(tile, value, op) for a
 * thread_block_tile<N>: a butterfly of N/2, N/4, ..., 1 shfl_xor steps (every thread of the
 * tile gets the result). op is any binary functor: cg::plus<T>(), cg::less<T>() (minimum),
 * cg::greater<T>() (maximum), cg::bit_and/bit_or/bit_xor<T>(), or a lambda. */
#ifndef __SIMU_CG_REDUCE_H
#define __SIMU_CG_REDUCE_H
#include "../cooperative_groups.h"

namespace cooperative_groups {
template <unsigned int N, typename P, typename T, typename Op>
__device__ __forceinline__ T reduce(const thread_block_tile<N, P> &tile, T value, Op op) {
  for (unsigned int offset = N / 2; offset > 0; offset /= 2)
    value = op(value, tile.shfl_xor(value, offset));
  return value;
}
}  // namespace cooperative_groups

#endif /* __SIMU_CG_REDUCE_H */
