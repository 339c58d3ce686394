// Arrays of structs with mixed field types, nested structs, structs in local memory.

typedef struct {
    float4 pos;     // offset 0
    float4 vel;     // 16
    int id;         // 32
    short flags;    // 36
    uchar kind;     // 38
    float mass;     // 40   (sizeof = 48, aligned to 16)
} Particle;

__kernel void struct_particles(__global Particle* particles, const float dt, const int n)
{
    const int i = get_global_id(0);
    if (i >= n)
        return;
    Particle q = particles[i];
    const float4 g = (float4)(0.0f, -9.75f, 0.0f, 0.0f);
    q.vel = q.vel + g * dt / q.mass;
    q.pos = q.pos + q.vel * dt;
    if (q.pos.y < 0.0f) {
        q.pos.y = -q.pos.y;
        q.vel.y = -q.vel.y * 0.5f;
        q.flags |= 1;
    }
    q.kind = (uchar)(q.kind + 1);
    q.id = q.id * 2 + (q.flags & 1);
    particles[i] = q;
}

typedef struct {
    char tag;       // 0
    int value;      // 4
    short s;        // 8
    float f;        // 12   (sizeof = 16)
} Rec;

// Array of structs to structure of arrays, plus a reversed, modified copy.
__kernel void struct_aos_to_soa(__global const Rec* recs, __global int* values,
                                __global float* scaled, __global Rec* out, const int n)
{
    const int i = get_global_id(0);
    if (i >= n)
        return;
    const Rec r = recs[i];
    values[i] = r.value * r.tag + r.s;
    scaled[i] = r.f * (float)r.tag;
    Rec o;
    o.tag = (char)(r.tag ^ 0x55);
    o.value = r.value - r.s;
    o.s = (short)(r.s * 3);
    o.f = r.f + 1.0f;
    out[n - 1 - i] = o;
}

typedef struct {
    int2 ij;        // 0
    float w;        // 8     (sizeof = 16)
} Pair;

typedef struct {
    Pair p;         // 0
    uchar flags[3]; // 16
    long key;       // 24    (sizeof = 32)
} Edge;

#define EDGE_BLOCK 128

// Nested structs with an array member, staged through local memory and reversed within
// each group (local size at most EDGE_BLOCK).
__kernel void struct_edges_reverse(__global const Edge* in, __global Edge* out, const int n)
{
    __local Edge buf[EDGE_BLOCK];
    const int lid = get_local_id(0);
    const int lsize = get_local_size(0);
    const int gid = get_global_id(0);

    Edge e;
    if (gid < n) {
        e = in[gid];
    } else {
        e.p.ij = (int2)(0, 0);
        e.p.w = 0.0f;
        e.flags[0] = e.flags[1] = e.flags[2] = 0;
        e.key = 0;
    }
    e.key = (long)(((ulong)(uint)e.p.ij.x << 32) | (uint)e.p.ij.y);
    e.p.w = e.p.w * 2.0f + (float)e.flags[0];
    e.flags[2] = (uchar)(e.flags[0] + e.flags[1]);
    buf[lid] = e;
    barrier(CLK_LOCAL_MEM_FENCE);
    if (gid < n)
        out[gid] = buf[lsize - 1 - lid];
}
