// Structs and CUDA vector types accessed through pointers (members read and written in place,
// whole structs copied): no struct-typed SSA values survive SROA here.

struct Particle {
  float3 pos;
  float mass;
  int id;
  int flags;
};

struct Cell {
  int count;
  float sum[3];
  short tag;
};

__global__ void struct_memory(const float4 *a, const float4 *b, float4 *c, const int2 *p, int2 *q,
                              const Particle *parts, Particle *moved, Cell *cells, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float4 x = a[i];
  float4 y = b[i];
  c[i].x = x.x + y.x;
  c[i].y = x.y * y.y;
  c[i].z = x.z - y.z;
  c[i].w = x.w * 2.0f;
  int2 v = p[i];
  q[i].x = v.x * v.y;
  q[i].y = v.x - v.y;
  Particle pt = parts[i];
  pt.pos.x += pt.mass;
  pt.pos.y -= (float)pt.id;
  pt.pos.z *= 2.0f;
  pt.flags |= (pt.id & 1) << 4;
  moved[i] = pt;
  Cell *cell = &cells[i % 7];
  atomicAdd(&cell->count, 1);
  atomicAdd(&cell->sum[i % 3], x.x);
}
