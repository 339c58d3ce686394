"""Cross-validation on hardware: replay findings on real OpenCL / CUDA devices.

* :func:`validate_kernel` / :func:`validate_file` / :func:`validate_finding`: replay launches
  on devices (PoCL's CPU device by default), amplify schedules on the device
  (:mod:`simu.validate.amplify`) and in the model (:class:`simu.launch.model.Schedule`), and give
  each launch a verdict (:mod:`simu.validate.core`).  Findings are never changed: a
  :class:`LaunchValidation` holds new ones, each with its verdict in ``detail["validation"]``;
  :func:`validated_finding` gives one finding judged.
* :func:`load_findings`: the findings of a ``simu check/scan --format json`` report.
* :func:`emit_replay_script`: a standalone Python script (numpy + pyopencl, or CuPy for CUDA)
  that reproduces a finding's launch on any device.
* :mod:`simu.validate.commands`: the functions behind ``simu validate`` and ``simu replay``.
* :mod:`simu.validate.opencl_runner` / :mod:`simu.validate.cuda_runner`: run one launch.

Modules: :mod:`~simu.validate.results` (verdicts, :class:`LaunchValidation`,
:class:`ValidationReport`), :mod:`~simu.validate.targets` (the compiled kernel, devices,
launches), :mod:`~simu.validate.core` (one launch: simulate, replay, judge),
:mod:`~simu.validate.kernels` (kernels, source files, single findings),
:mod:`~simu.validate.findings_file` (findings JSON files), :mod:`~simu.validate.replay`
(launch records back to launches), :mod:`~simu.validate.compare` (output comparison).

Exports are loaded lazily so that the runners import without simu's compiler (a GPU machine
replaying emitted scripts needs only numpy and CuPy).
"""

from __future__ import annotations

from typing import Any

__all__ = ["LaunchValidation", "ValidationReport", "Tolerance", "emit_replay_script", "launch_from_record",
           "load_findings", "validate_file", "validate_finding", "validate_kernel", "validate_launch",
           "validated_finding", "VERDICTS"]

_LAZY = {
    "LaunchValidation": "simu.validate.results",
    "ValidationReport": "simu.validate.results",
    "VERDICTS": "simu.validate.results",
    "validate_file": "simu.validate.kernels",
    "validate_finding": "simu.validate.kernels",
    "validated_finding": "simu.validate.kernels",
    "validate_kernel": "simu.validate.kernels",
    "validate_launch": "simu.validate.core",
    "load_findings": "simu.validate.findings_file",
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
