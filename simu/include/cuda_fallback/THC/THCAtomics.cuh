// simu stand-in for the legacy THC atomics header (device side only): see ATen/cuda/Atomic.cuh
#pragma once

#include "ATen/cuda/Atomic.cuh"
