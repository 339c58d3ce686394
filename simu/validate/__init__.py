"""Checks of simu's fidelity against real OpenCL / CUDA implementations."""
