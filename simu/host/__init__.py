"""The host-code index: what a project's C/C++ host code says about its kernels (OpenCL build options,
programs, kernels, arguments, NDRanges), read lexically, cached per scan."""

from simu.host.index import HostIndex, build_host_index, host_files
from simu.host.model import ArgSite, BuildSite, HostFile, KernelSite, LaunchSite
from simu.host.opencl import ClangFlags, parse_build_options

__all__ = ["ArgSite", "BuildSite", "ClangFlags", "HostFile", "HostIndex", "KernelSite", "LaunchSite",
           "build_host_index", "host_files", "parse_build_options"]
