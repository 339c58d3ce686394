/* simu shim <cooperative_groups.h>: namespace cooperative_groups (alias it as cg yourself).
 *
 * Provides:
 *   thread_block        this_thread_block(): sync() (= __syncthreads), thread_rank(), size(),
 *                       num_threads(), group_index(), thread_index(), group_dim(), dim_threads()
 *   thread_block_tile<N> tiled_partition<N>(block or tile), N a power of two <= 32:
 *                       sync() (= __syncwarp(tile mask)), thread_rank(), size(), num_threads(),
 *                       meta_group_rank(), meta_group_size(), shfl, shfl_up, shfl_down, shfl_xor
 *                       (width N), any, all, ballot (tile-relative bits), match_any, match_all
 *   thread_group        type-erased block or tile (also tiled_partition(block, n), n <= 32):
 *                       sync(), thread_rank(), size(), num_threads()
 *   coalesced_group     coalesced_threads(): sync(), thread_rank(), size(), num_threads(),
 *                       shfl (by rank), any, all, ballot (compacted bits)
 *   grid_group          this_grid(): thread_rank(), size(), num_threads(), is_valid(),
 *                       block_rank(), num_blocks(), sync() -> call @__simu_grid_sync()
 *   sync(g), thread_rank(g), group_size(g), and the functors plus/less/greater/bit_and/
 *   bit_or/bit_xor used by <cooperative_groups/reduce.h> and <cooperative_groups/scan.h>.
 * Lanes come from llvm.nvvm.read.ptx.sreg.laneid; the tile mask of a thread is
 * ((1 << N) - 1) << (lane & ~(N - 1)) (all ones for N = 32).
 */
#ifndef __SIMU_COOPERATIVE_GROUPS_H
#define __SIMU_COOPERATIVE_GROUPS_H

#include "cuda_runtime.h"

/* A grid-wide barrier has no PTX equivalent without a cooperative launch: it stays a call. */
extern "C" __device__ void __simu_grid_sync(void);

namespace cooperative_groups {

namespace __simu_detail {
__SIMU_DEV unsigned int block_thread_rank() {
  return threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
}
__SIMU_DEV unsigned int block_num_threads() { return blockDim.x * blockDim.y * blockDim.z; }
/* lanes [lane & ~(n-1), +n) of the calling thread's warp, n a power of two <= 32 */
__SIMU_DEV unsigned int tile_mask(unsigned int n) {
  return n >= 32u ? 0xffffffffu : ((1u << n) - 1u) << (__simu_laneid() & ~(n - 1u));
}
/* lane of the k-th (0-based) set bit of mask */
__SIMU_DEV int nth_lane(unsigned int mask, unsigned int k) {
  int lane = 0;
  for (int l = 0; l < 32; ++l) {
    if (mask & (1u << l)) {
      if (k == 0u) { lane = l; break; }
      --k;
    }
  }
  return lane;
}
}  // namespace __simu_detail

/* ---- thread_block ----------------------------------------------------------------------- */
class thread_block {
 public:
  __device__ thread_block() {}
  __device__ void sync() const { __syncthreads(); }
  __device__ unsigned int thread_rank() const { return __simu_detail::block_thread_rank(); }
  __device__ unsigned int size() const { return __simu_detail::block_num_threads(); }
  __device__ unsigned int num_threads() const { return __simu_detail::block_num_threads(); }
  __device__ dim3 group_index() const { return dim3(blockIdx.x, blockIdx.y, blockIdx.z); }
  __device__ dim3 thread_index() const { return dim3(threadIdx.x, threadIdx.y, threadIdx.z); }
  __device__ dim3 group_dim() const { return dim3(blockDim.x, blockDim.y, blockDim.z); }
  __device__ dim3 dim_threads() const { return group_dim(); }
};
__SIMU_DEV thread_block this_thread_block() { return thread_block(); }

/* ---- thread_block_tile<N> ------------------------------------------------------------------ */
template <unsigned int N, typename ParentT = void> class thread_block_tile;

template <unsigned int N> class thread_block_tile<N, void> {
  static_assert(N >= 1 && N <= 32 && (N & (N - 1)) == 0,
                "simu: thread_block_tile size must be a power of two <= 32");

 protected:
  unsigned int __meta_rank, __meta_size;

 public:
  __device__ thread_block_tile(unsigned int meta_rank, unsigned int meta_size)
      : __meta_rank(meta_rank), __meta_size(meta_size) {}
  __device__ unsigned int __mask() const {
    if constexpr (N == 32u)
      return 0xffffffffu;
    else
      return ((1u << N) - 1u) << (__simu_laneid() & ~(N - 1u));
  }
  __device__ unsigned int __shift() const {
    if constexpr (N == 32u)
      return 0u;
    else
      return __simu_laneid() & ~(N - 1u);
  }

  __device__ void sync() const { __syncwarp(__mask()); }
  __device__ unsigned int thread_rank() const { return __simu_laneid() & (N - 1u); }
  __host__ __device__ static constexpr unsigned int size() { return N; }
  __host__ __device__ static constexpr unsigned int num_threads() { return N; }
  __device__ unsigned int meta_group_rank() const { return __meta_rank; }
  __device__ unsigned int meta_group_size() const { return __meta_size; }

  template <typename T> __device__ T shfl(T var, int srcRank) const {
    return __shfl_sync(__mask(), var, srcRank, N);
  }
  template <typename T> __device__ T shfl_down(T var, unsigned int delta) const {
    return __shfl_down_sync(__mask(), var, delta, N);
  }
  template <typename T> __device__ T shfl_up(T var, unsigned int delta) const {
    return __shfl_up_sync(__mask(), var, delta, N);
  }
  template <typename T> __device__ T shfl_xor(T var, unsigned int laneMask) const {
    return __shfl_xor_sync(__mask(), var, laneMask, N);
  }
  __device__ int any(int predicate) const { return __any_sync(__mask(), predicate); }
  __device__ int all(int predicate) const { return __all_sync(__mask(), predicate); }
  __device__ unsigned int ballot(int predicate) const {
    return __ballot_sync(__mask(), predicate) >> __shift();
  }
  template <typename T> __device__ unsigned int match_any(T value) const {
    return __match_any_sync(__mask(), value) >> __shift();
  }
  template <typename T> __device__ unsigned int match_all(T value, int &pred) const {
    return __match_all_sync(__mask(), value, &pred) >> __shift();
  }
};

/* A tile that remembers its parent's type converts to thread_block_tile<N>. */
template <unsigned int N, typename ParentT> class thread_block_tile : public thread_block_tile<N, void> {
 public:
  __device__ thread_block_tile(unsigned int meta_rank, unsigned int meta_size)
      : thread_block_tile<N, void>(meta_rank, meta_size) {}
};

template <unsigned int N>
__SIMU_DEV thread_block_tile<N, thread_block> tiled_partition(const thread_block &) {
  unsigned int rank = __simu_detail::block_thread_rank();
  unsigned int count = __simu_detail::block_num_threads();
  return thread_block_tile<N, thread_block>(rank / N, (count + N - 1u) / N);
}
template <unsigned int N, unsigned int M, typename P>
__SIMU_DEV thread_block_tile<N, thread_block_tile<M, P> > tiled_partition(const thread_block_tile<M, P> &parent) {
  static_assert(N <= M, "simu: a tile can only be split into smaller tiles");
  return thread_block_tile<N, thread_block_tile<M, P> >(parent.thread_rank() / N, M / N);
}

/* ---- thread_group (type-erased) ----------------------------------------------------------- */
class thread_group {
 protected:
  unsigned int __tile;  // 0: whole block; otherwise the tile size (power of two <= 32)

 public:
  __device__ thread_group(const thread_block &) : __tile(0u) {}
  template <unsigned int N, typename P>
  __device__ thread_group(const thread_block_tile<N, P> &) : __tile(N) {}
  __device__ explicit thread_group(unsigned int tile) : __tile(tile) {}

  __device__ void sync() const {
    if (__tile == 0u)
      __syncthreads();
    else
      __syncwarp(__simu_detail::tile_mask(__tile));
  }
  __device__ unsigned int thread_rank() const {
    return __tile == 0u ? __simu_detail::block_thread_rank() : (__simu_laneid() & (__tile - 1u));
  }
  __device__ unsigned int size() const {
    return __tile == 0u ? __simu_detail::block_num_threads() : __tile;
  }
  __device__ unsigned int num_threads() const { return size(); }
};

__SIMU_DEV thread_group tiled_partition(const thread_block &, unsigned int tile_size) {
  return thread_group(tile_size);
}
__SIMU_DEV thread_group tiled_partition(const thread_group &, unsigned int tile_size) {
  return thread_group(tile_size);
}

/* ---- coalesced_group -------------------------------------------------------------------- */
class coalesced_group {
  unsigned int __mask_bits;

 public:
  __device__ explicit coalesced_group(unsigned int mask) : __mask_bits(mask) {}
  __device__ void sync() const { __syncwarp(__mask_bits); }
  __device__ unsigned int thread_rank() const { return __popc(__mask_bits & __lanemask_lt()); }
  __device__ unsigned int size() const { return __popc(__mask_bits); }
  __device__ unsigned int num_threads() const { return size(); }
  template <typename T> __device__ T shfl(T var, unsigned int srcRank) const {
    return __shfl_sync(__mask_bits, var, __simu_detail::nth_lane(__mask_bits, srcRank));
  }
  template <typename T> __device__ T shfl_down(T var, unsigned int delta) const {
    unsigned int r = thread_rank() + delta;
    unsigned int src = r < size() ? r : thread_rank();
    return __shfl_sync(__mask_bits, var, __simu_detail::nth_lane(__mask_bits, src));
  }
  template <typename T> __device__ T shfl_up(T var, unsigned int delta) const {
    unsigned int r = thread_rank();
    unsigned int src = r >= delta ? r - delta : r;
    return __shfl_sync(__mask_bits, var, __simu_detail::nth_lane(__mask_bits, src));
  }
  __device__ int any(int predicate) const { return __any_sync(__mask_bits, predicate); }
  __device__ int all(int predicate) const { return __all_sync(__mask_bits, predicate); }
  __device__ unsigned int ballot(int predicate) const {
    unsigned int lanes = __ballot_sync(__mask_bits, predicate), out = 0u, k = 0u;
    for (int l = 0; l < 32; ++l) {
      if (__mask_bits & (1u << l)) {
        if (lanes & (1u << l)) out |= 1u << k;
        ++k;
      }
    }
    return out;
  }
};
__SIMU_DEV coalesced_group coalesced_threads() { return coalesced_group(__activemask()); }

/* ---- grid_group ------------------------------------------------------------------------- */
class grid_group {
 public:
  __device__ grid_group() {}
  __device__ bool is_valid() const { return true; }
  __device__ void sync() const { __simu_grid_sync(); }
  __device__ unsigned long long num_blocks() const {
    return (unsigned long long)gridDim.x * gridDim.y * gridDim.z;
  }
  __device__ unsigned long long block_rank() const {
    return blockIdx.x + (unsigned long long)gridDim.x * (blockIdx.y + (unsigned long long)gridDim.y * blockIdx.z);
  }
  __device__ unsigned long long num_threads() const {
    return num_blocks() * __simu_detail::block_num_threads();
  }
  __device__ unsigned long long size() const { return num_threads(); }
  __device__ unsigned long long thread_rank() const {
    return block_rank() * __simu_detail::block_num_threads() + __simu_detail::block_thread_rank();
  }
  __device__ dim3 group_dim() const { return dim3(gridDim.x, gridDim.y, gridDim.z); }
};
__SIMU_DEV grid_group this_grid() { return grid_group(); }

/* ---- free functions ---------------------------------------------------------------------- */
template <typename G> __SIMU_DEV void sync(const G &g) { g.sync(); }
template <typename G> __SIMU_DEV unsigned long long thread_rank(const G &g) { return g.thread_rank(); }
template <typename G> __SIMU_DEV unsigned long long group_size(const G &g) { return g.size(); }

/* ---- functors (for reduce / scan) ------------------------------------------------------- */
template <typename T> struct plus {
  __device__ T operator()(const T &a, const T &b) const { return a + b; }
};
template <typename T> struct less {
  __device__ T operator()(const T &a, const T &b) const { return b < a ? b : a; }
};
template <typename T> struct greater {
  __device__ T operator()(const T &a, const T &b) const { return a < b ? b : a; }
};
template <typename T> struct bit_and {
  __device__ T operator()(const T &a, const T &b) const { return a & b; }
};
template <typename T> struct bit_or {
  __device__ T operator()(const T &a, const T &b) const { return a | b; }
};
template <typename T> struct bit_xor {
  __device__ T operator()(const T &a, const T &b) const { return a ^ b; }
};

}  // namespace cooperative_groups

#endif /* __SIMU_COOPERATIVE_GROUPS_H */
