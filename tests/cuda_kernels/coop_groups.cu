// Cooperative-groups tiles: tiled_partition<16>/<32>, thread_rank, meta_group_rank and a
// shfl_down reduction inside each tile.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__global__ void cg_tiles(const int *in, int *sum16, int *sum32, int *rank16, int *meta16,
                         int *rank32, int *meta32) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<16> t16 = cg::tiled_partition<16>(block);
  cg::thread_block_tile<32> t32 = cg::tiled_partition<32>(block);
  int g = blockIdx.x * block.size() + block.thread_rank();
  int v = in[g];
  int s16 = v, s32 = v;
  for (int off = t16.size() / 2; off > 0; off /= 2) s16 += t16.shfl_down(s16, off);
  for (int off = t32.size() / 2; off > 0; off /= 2) s32 += t32.shfl_down(s32, off);
  sum16[g] = t16.shfl(s16, 0);
  sum32[g] = t32.shfl(s32, 0);
  rank16[g] = t16.thread_rank();
  meta16[g] = t16.meta_group_rank();
  rank32[g] = t32.thread_rank();
  meta32[g] = t32.meta_group_rank();
  block.sync();
}
