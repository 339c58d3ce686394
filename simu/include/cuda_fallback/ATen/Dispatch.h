// simu stand-in for PyTorch's type dispatch macros: the lambda runs once per element type the macro names, with
// scalar_t that type, so a launch inside (`k<scalar_t><<<g, b>>>(...)`) is read for each instantiation.  The
// floating types are float and double (simu's half type lacks c10::Half's arithmetic with integers), the integral
// ones int32_t and int64_t.
#pragma once

#include "ATen/ATen.h"

#define __SIMU_DISPATCH_CASE(T, ...) \
  {                                  \
    using scalar_t = T;              \
    (__VA_ARGS__)();                 \
  }
#define __SIMU_DISPATCH_FLOATING(...) \
  [&] { __SIMU_DISPATCH_CASE(float, __VA_ARGS__) __SIMU_DISPATCH_CASE(double, __VA_ARGS__) }()
#define __SIMU_DISPATCH_INTEGRAL(...) \
  [&] { __SIMU_DISPATCH_CASE(int32_t, __VA_ARGS__) __SIMU_DISPATCH_CASE(int64_t, __VA_ARGS__) }()
#define AT_DISPATCH_FLOATING_TYPES(TYPE, NAME, ...) __SIMU_DISPATCH_FLOATING(__VA_ARGS__)
#define AT_DISPATCH_FLOATING_TYPES_AND_HALF(TYPE, NAME, ...) __SIMU_DISPATCH_FLOATING(__VA_ARGS__)
#define AT_DISPATCH_FLOATING_TYPES_AND(EXTRA, TYPE, NAME, ...) __SIMU_DISPATCH_FLOATING(__VA_ARGS__)
#define AT_DISPATCH_FLOATING_TYPES_AND2(EXTRA1, EXTRA2, TYPE, NAME, ...) __SIMU_DISPATCH_FLOATING(__VA_ARGS__)
#define AT_DISPATCH_INTEGRAL_TYPES(TYPE, NAME, ...) __SIMU_DISPATCH_INTEGRAL(__VA_ARGS__)
#define AT_DISPATCH_ALL_TYPES(TYPE, NAME, ...) \
  [&] { __SIMU_DISPATCH_FLOATING(__VA_ARGS__); __SIMU_DISPATCH_INTEGRAL(__VA_ARGS__); }()
#define AT_DISPATCH_ALL_TYPES_AND_HALF(TYPE, NAME, ...) AT_DISPATCH_ALL_TYPES(TYPE, NAME, __VA_ARGS__)
