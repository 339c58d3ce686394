/* simu CUDA shim: warp-level primitives.
 *
 * Provides __shfl_sync, __shfl_up_sync, __shfl_down_sync, __shfl_xor_sync (int, unsigned,
 * long, unsigned long, long long, unsigned long long, float, double; optional width),
 * the votes __ballot_sync, __any_sync, __all_sync, __uni_sync, __activemask, the matches
 * __match_any_sync / __match_all_sync, the sm_80 reductions __reduce_{add,min,max,and,or,xor}_sync
 * (emulated with shuffles), the legacy unsynchronised forms (__shfl, __shfl_up, __shfl_down,
 * __shfl_xor, __any, __all, __ballot: full mask) and __lanemask_{lt,le,eq,ge,gt}().
 *
 * Lowering (relied on by the simu interpreter):
 *   __shfl_sync       -> llvm.nvvm.shfl.sync.idx.{i32,f32}(mask, v, lane,  ((32-w)<<8) | 0x1f)
 *   __shfl_up_sync    -> llvm.nvvm.shfl.sync.up.{i32,f32}(mask, v, delta,  (32-w)<<8)
 *   __shfl_down_sync  -> llvm.nvvm.shfl.sync.down.{i32,f32}(mask, v, delta, ((32-w)<<8) | 0x1f)
 *   __shfl_xor_sync   -> llvm.nvvm.shfl.sync.bfly.{i32,f32}(mask, v, lanemask, ((32-w)<<8) | 0x1f)
 *     (the last operand is PTX's packed "c": segment mask in bits 8..12, clamp in bits 0..4;
 *      64-bit values are two i32 shuffles of the low and high halves)
 *   __ballot_sync     -> llvm.nvvm.vote.ballot.sync(mask, i1)
 *   __any_sync        -> llvm.nvvm.vote.any.sync(mask, i1)
 *   __all_sync        -> llvm.nvvm.vote.all.sync(mask, i1)
 *   __uni_sync        -> llvm.nvvm.vote.uni.sync(mask, i1)
 *   __activemask      -> llvm.nvvm.activemask()
 *   __match_any_sync  -> llvm.nvvm.match.any.sync.{i32,i64}(mask, v)
 *   __match_all_sync  -> llvm.nvvm.match.all.sync.{i32,i64}p(mask, v) -> {i32, i1}
 *   __lanemask_*      -> computed from llvm.nvvm.read.ptx.sreg.laneid
 */
#ifndef __SIMU_WARP_H
#define __SIMU_WARP_H

#define __SIMU_FULL_MASK 0xffffffffu
/* PTX "c" operand for a shuffle over segments of `width` lanes */
#define __SIMU_SHFL_C(width) (((32 - (width)) << 8) | 0x1f)
#define __SIMU_SHFL_UP_C(width) ((32 - (width)) << 8)

/* ---- shuffles ---------------------------------------------------------------------------- */
/* __SIMU_SHFL(name, mode, C): name for every supported type; 32-bit types go straight to the
 * i32/f32 builtins, 64-bit ones are split into two i32 shuffles. */
#define __SIMU_SHFL_64(NAME, T, BUILTIN, C, ARG)                                              \
  __SIMU_DEV T NAME(unsigned int mask, T var, ARG, int width = 32) {                         \
    unsigned long long bits = __builtin_bit_cast(unsigned long long, var);                   \
    int lo = BUILTIN(mask, (int)(unsigned int)bits, __simu_arg, C(width));                  \
    int hi = BUILTIN(mask, (int)(unsigned int)(bits >> 32), __simu_arg, C(width));          \
    bits = ((unsigned long long)(unsigned int)hi << 32) | (unsigned int)lo;                  \
    return __builtin_bit_cast(T, bits);                                                       \
  }

#define __SIMU_SHFL(NAME, MODE, C, ARG)                                                        \
  __SIMU_DEV int NAME(unsigned int mask, int var, ARG, int width = 32) {                     \
    return __nvvm_shfl_sync_##MODE##_i32(mask, var, __simu_arg, C(width));                   \
  }                                                                                           \
  __SIMU_DEV unsigned int NAME(unsigned int mask, unsigned int var, ARG, int width = 32) {   \
    return (unsigned int)__nvvm_shfl_sync_##MODE##_i32(mask, (int)var, __simu_arg, C(width)); \
  }                                                                                           \
  __SIMU_DEV float NAME(unsigned int mask, float var, ARG, int width = 32) {                 \
    return __nvvm_shfl_sync_##MODE##_f32(mask, var, __simu_arg, C(width));                   \
  }                                                                                           \
  __SIMU_SHFL_64(NAME, long, __nvvm_shfl_sync_##MODE##_i32, C, ARG)                          \
  __SIMU_SHFL_64(NAME, unsigned long, __nvvm_shfl_sync_##MODE##_i32, C, ARG)                 \
  __SIMU_SHFL_64(NAME, long long, __nvvm_shfl_sync_##MODE##_i32, C, ARG)                     \
  __SIMU_SHFL_64(NAME, unsigned long long, __nvvm_shfl_sync_##MODE##_i32, C, ARG)            \
  __SIMU_SHFL_64(NAME, double, __nvvm_shfl_sync_##MODE##_i32, C, ARG)

__SIMU_SHFL(__shfl_sync, idx, __SIMU_SHFL_C, int __simu_arg)
__SIMU_SHFL(__shfl_up_sync, up, __SIMU_SHFL_UP_C, unsigned int __simu_arg)
__SIMU_SHFL(__shfl_down_sync, down, __SIMU_SHFL_C, unsigned int __simu_arg)
__SIMU_SHFL(__shfl_xor_sync, bfly, __SIMU_SHFL_C, int __simu_arg)
#undef __SIMU_SHFL
#undef __SIMU_SHFL_64

/* ---- votes ------------------------------------------------------------------------------- */
__SIMU_DEV unsigned int __ballot_sync(unsigned int mask, int predicate) {
  return __nvvm_vote_ballot_sync(mask, predicate != 0);
}
__SIMU_DEV int __any_sync(unsigned int mask, int predicate) {
  return __nvvm_vote_any_sync(mask, predicate != 0);
}
__SIMU_DEV int __all_sync(unsigned int mask, int predicate) {
  return __nvvm_vote_all_sync(mask, predicate != 0);
}
__SIMU_DEV int __uni_sync(unsigned int mask, int predicate) {
  return __nvvm_vote_uni_sync(mask, predicate != 0);
}
__SIMU_DEV unsigned int __activemask() { return __nvvm_activemask(); }

/* ---- matches ----------------------------------------------------------------------------- */
#define __SIMU_MATCH(T, BITS)                                                                  \
  __SIMU_DEV unsigned int __match_any_sync(unsigned int mask, T value) {                     \
    return __nvvm_match_any_sync_i##BITS(mask, __builtin_bit_cast(__simu_u##BITS, value));    \
  }                                                                                           \
  __SIMU_DEV unsigned int __match_all_sync(unsigned int mask, T value, int *pred) {          \
    return __nvvm_match_all_sync_i##BITS##p(mask, __builtin_bit_cast(__simu_u##BITS, value), \
                                             pred);                                           \
  }
typedef unsigned int __simu_u32;
typedef unsigned long long __simu_u64;
__SIMU_MATCH(int, 32)
__SIMU_MATCH(unsigned int, 32)
__SIMU_MATCH(float, 32)
__SIMU_MATCH(long, 64)
__SIMU_MATCH(unsigned long, 64)
__SIMU_MATCH(long long, 64)
__SIMU_MATCH(unsigned long long, 64)
__SIMU_MATCH(double, 64)
#undef __SIMU_MATCH

/* ---- lane masks -------------------------------------------------------------------------- */
__SIMU_DEV unsigned int __lanemask_eq() { return 1u << __simu_laneid(); }
__SIMU_DEV unsigned int __lanemask_lt() { return (1u << __simu_laneid()) - 1u; }
__SIMU_DEV unsigned int __lanemask_le() { return (2u << __simu_laneid()) - 1u; }
__SIMU_DEV unsigned int __lanemask_gt() { return ~__lanemask_le(); }
__SIMU_DEV unsigned int __lanemask_ge() { return ~__lanemask_lt(); }

/* ---- warp reductions (sm_80; emulated: one shuffle per lane of the mask) -------------- */
#define __SIMU_REDUCE(NAME, T, OP)                                                             \
  __SIMU_DEV T NAME(unsigned int mask, T value) {                                             \
    T acc = value;                                                                            \
    bool first = true;                                                                        \
    for (int lane = 0; lane < 32; ++lane) {                                                   \
      if (mask & (1u << lane)) {                                                              \
        T other = __shfl_sync(mask, value, lane);                                             \
        acc = first ? other : OP(acc, other);                                                 \
        first = false;                                                                        \
      }                                                                                       \
    }                                                                                         \
    return acc;                                                                               \
  }
#define __SIMU_OP_ADD(a, b) ((a) + (b))
#define __SIMU_OP_MIN(a, b) ((b) < (a) ? (b) : (a))
#define __SIMU_OP_MAX(a, b) ((a) < (b) ? (b) : (a))
#define __SIMU_OP_AND(a, b) ((a) & (b))
#define __SIMU_OP_OR(a, b) ((a) | (b))
#define __SIMU_OP_XOR(a, b) ((a) ^ (b))
__SIMU_REDUCE(__reduce_add_sync, int, __SIMU_OP_ADD)
__SIMU_REDUCE(__reduce_add_sync, unsigned int, __SIMU_OP_ADD)
__SIMU_REDUCE(__reduce_min_sync, int, __SIMU_OP_MIN)
__SIMU_REDUCE(__reduce_min_sync, unsigned int, __SIMU_OP_MIN)
__SIMU_REDUCE(__reduce_max_sync, int, __SIMU_OP_MAX)
__SIMU_REDUCE(__reduce_max_sync, unsigned int, __SIMU_OP_MAX)
__SIMU_REDUCE(__reduce_and_sync, unsigned int, __SIMU_OP_AND)
__SIMU_REDUCE(__reduce_or_sync, unsigned int, __SIMU_OP_OR)
__SIMU_REDUCE(__reduce_xor_sync, unsigned int, __SIMU_OP_XOR)
#undef __SIMU_REDUCE
#undef __SIMU_OP_ADD
#undef __SIMU_OP_MIN
#undef __SIMU_OP_MAX
#undef __SIMU_OP_AND
#undef __SIMU_OP_OR
#undef __SIMU_OP_XOR

/* ---- legacy (pre-CUDA 9) forms: full-warp mask ---------------------------------------- */
template <typename T>
__SIMU_DEV T __shfl(T var, int srcLane, int width = 32) {
  return __shfl_sync(__SIMU_FULL_MASK, var, srcLane, width);
}
template <typename T>
__SIMU_DEV T __shfl_up(T var, unsigned int delta, int width = 32) {
  return __shfl_up_sync(__SIMU_FULL_MASK, var, delta, width);
}
template <typename T>
__SIMU_DEV T __shfl_down(T var, unsigned int delta, int width = 32) {
  return __shfl_down_sync(__SIMU_FULL_MASK, var, delta, width);
}
template <typename T>
__SIMU_DEV T __shfl_xor(T var, int laneMask, int width = 32) {
  return __shfl_xor_sync(__SIMU_FULL_MASK, var, laneMask, width);
}
__SIMU_DEV int __any(int predicate) { return __any_sync(__SIMU_FULL_MASK, predicate); }
__SIMU_DEV int __all(int predicate) { return __all_sync(__SIMU_FULL_MASK, predicate); }
__SIMU_DEV unsigned int __ballot(int predicate) { return __ballot_sync(__SIMU_FULL_MASK, predicate); }

#endif /* __SIMU_WARP_H */
