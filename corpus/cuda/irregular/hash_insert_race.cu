// expect: race global write-write line 25
// launch: grid=2 block=128 nkeys=256 cap=256 keys=int32:256:small table=int32:256:const=-1 vals=int32:256:zeros
// Hash-map build with open addressing (atomicCAS, linear probing): thread i inserts key keys[i]
// (e.g. the neighbour ids of a CSR graph's edges, so keys repeat) and records its position i as
// the key's value; a slot is claimed by atomicCAS from EMPTY (-1), a slot already holding the key
// is reused.  The table has cap slots, a power of two not smaller than the number of distinct keys.
// BUG: when the key is already present (prev == k) the thread still stores its own i into
// vals[slot] with a plain store, as does the thread that claimed the slot: two occurrences of one
// key (any key array with a repeated key) race on vals[slot] (write-write; the value kept is
// unspecified).  (hash_insert_fixed.cu keeps the largest position with atomicMax.)
// Buffers: keys holds nkeys keys >= 0; table cap ints, all EMPTY (-1) at the launch; vals cap ints.
// Launch: keys=small draws 256 keys in [0, 100) (repeats, at most 100 distinct: cap = 256 holds
// them), table=const=-1.

#define EMPTY (-1)

__global__ void hash_insert(const int *keys, int nkeys, int *table, int *vals, int cap) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= nkeys) return;
  const int k = keys[i];
  unsigned int slot = ((unsigned int)k * 2654435761u) & (unsigned int)(cap - 1);
  for (int probe = 0; probe < cap; ++probe) {
    const int prev = atomicCAS(&table[slot], EMPTY, k);
    if (prev == EMPTY || prev == k) {
      vals[slot] = i;
      return;
    }
    slot = (slot + 1) & (unsigned int)(cap - 1);
  }
}
