/* simu shim <hip/hip_complex.h>: HIP's header on simu's CUDA model (see hip/hip_runtime.h). */
#pragma once
#include <hip/hip_runtime.h>
#include <cuComplex.h>
#define hipFloatComplex cuFloatComplex
#define hipDoubleComplex cuDoubleComplex
#define hipComplex cuComplex
#define make_hipFloatComplex make_cuFloatComplex
#define make_hipDoubleComplex make_cuDoubleComplex
#define hipCrealf cuCrealf
#define hipCimagf cuCimagf
#define hipCreal cuCreal
#define hipCimag cuCimag
#define hipCaddf cuCaddf
#define hipCmulf cuCmulf
#define hipCadd cuCadd
#define hipCmul cuCmul
#define hipCabsf cuCabsf
#define hipCabs cuCabs
#define hipConjf cuConjf
#define hipConj cuConj
