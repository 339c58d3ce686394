/* simu shim <assert.h>: assert(e) calls __assertfail(message, file, line, function, 1) when e
 * is false (as CUDA's device assert does); it expands to nothing under NDEBUG. Like the C
 * header, it has no include guard: each inclusion re-reads NDEBUG. */
#include "cuda_runtime.h"
#undef assert
#ifdef NDEBUG
#define assert(e) ((void)0)
#else
#define assert(e) ((e) ? (void)0 : __assertfail(#e, __FILE__, __LINE__, __func__, sizeof(char)))
#endif
