// 1-D three-point blur through a local tile with halo cells: correct.
#define GROUP 64
__kernel __attribute__((reqd_work_group_size(GROUP, 1, 1)))
void blur(__global const float *in, __global float *out, int n) {
  __local float tile[GROUP + 2];
  int l = get_local_id(0);
  int g = get_global_id(0);
  tile[l + 1] = g < n ? in[g] : 0.0f;
  if (l == 0) tile[0] = (g > 0 && g - 1 < n) ? in[g - 1] : 0.0f;
  if (l == GROUP - 1) tile[GROUP + 1] = g + 1 < n ? in[g + 1] : 0.0f;
  barrier(CLK_LOCAL_MEM_FENCE);
  if (g < n) out[g] = (tile[l] + tile[l + 1] + tile[l + 2]) / 3.0f;
}
