"""Cross-validation on hardware: replay findings on real OpenCL / CUDA devices.

* :func:`validate_kernel` / :func:`validate_file` / :func:`validate_finding`: replay launches
  on devices (PoCL's CPU device by default), amplify schedules on the device
  (:mod:`simu.validate.amplify`) and in the model (:class:`simu.interp.Schedule`), and give
  each launch and finding a verdict (:mod:`simu.validate.core`).
* :func:`emit_replay_script`: a standalone Python script (numpy + pyopencl, or CuPy for CUDA)
  that reproduces a finding's launch on any device.
* :mod:`simu.validate.commands`: the functions behind ``simu validate`` and ``simu replay``.
* :mod:`simu.validate.opencl_runner` / :mod:`simu.validate.cuda_runner`: run one launch.

Exports are loaded lazily so that the runners import without simu's compiler (a GPU machine
replaying emitted scripts needs only numpy and CuPy).
"""

from __future__ import annotations

from typing import Any

__all__ = ["LaunchValidation", "ValidationReport", "Tolerance", "emit_replay_script", "launch_from_record",
           "validate_file", "validate_finding", "validate_kernel", "validate_launch", "VERDICTS"]

_LAZY = {
    "LaunchValidation": "simu.validate.core",
    "ValidationReport": "simu.validate.core",
    "VERDICTS": "simu.validate.core",
    "validate_file": "simu.validate.core",
    "validate_finding": "simu.validate.core",
    "validate_kernel": "simu.validate.core",
    "validate_launch": "simu.validate.core",
    "Tolerance": "simu.validate.compare",
    "launch_from_record": "simu.validate.replay",
    "emit_replay_script": "simu.validate.script",
}


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'simu.validate' has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value
