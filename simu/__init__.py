"""simu: find synchronization bugs in CUDA and OpenCL kernels without a GPU."""

__version__ = "0.1.0"
