"""What a differential run of one launch on several OpenCL implementations shares: the source as every
implementation sees it, the build options, private copies of the inputs and the float tolerance.

Used by the differential tests (``tests/differential``) and ``simu bench --suite fidelity``.
"""

from __future__ import annotations

import re
from dataclasses import replace

import numpy as np

from simu.launch.model import Launch

# no multiply-add is fused by either side (clang contracts within expressions by default, PoCL as it likes)
FP_PRAGMA = "#pragma OPENCL FP_CONTRACT OFF\n"
BUILD_OPTIONS = "-cl-fp32-correctly-rounded-divide-sqrt"  # PoCL: divide and sqrt correctly rounded, as simu's
TRANSCENDENTAL_ULPS = 2  # the ulp tolerance of kernels that call transcendental functions (OpenCL allows more)
_TRANSCENDENTAL = re.compile(
    r"\b(?:native_|half_)?(?:a?sinh?|a?cosh?|a?tanh?|atan2|exp2?|exp10|expm1|log2?|log10|log1p|pow[nr]?|rootn|"
    r"cbrt|rsqrt|erfc?|tgamma|lgamma|hypot|sinpi|cospi|tanpi|sincos)\s*\(")


def with_fp_pragma(source: str) -> str:
    """``source`` behind the FP_CONTRACT OFF pragma, on an extra first line."""
    return FP_PRAGMA + source


def float_ulps(source: str) -> int:
    """0 (bit-exact) for kernels without transcendental functions, else :data:`TRANSCENDENTAL_ULPS`."""
    return TRANSCENDENTAL_ULPS if _TRANSCENDENTAL.search(source) else 0


def byte_copy(a: np.ndarray) -> np.ndarray:
    """A copy that keeps every byte, struct padding included (``ndarray.copy`` copies
    structured arrays field by field and leaves padding undefined)."""
    return np.frombuffer(bytearray(np.ascontiguousarray(a).tobytes()), dtype=a.dtype).reshape(a.shape)


def copy_launch(launch: Launch) -> Launch:
    """A launch whose argument arrays are private copies (runners must not share them)."""
    args = {k: (byte_copy(v) if isinstance(v, np.ndarray) else v) for k, v in launch.args.items()}
    return replace(launch, args=args)
