"""Launches written through a function-like macro of a project header (shoc's S3D ``clLaunchKernel(k)``) are read
where the macro is used, at the use's line (``simu.host.launchmacros``)."""

from __future__ import annotations

from pathlib import Path

from simu.host import build_host_index
from simu.host.contracts import contracts_for
from simu.host.launchmacros import expand_launch_macros, launch_macros

HEADER = r"""#ifndef RUN_H
#define RUN_H
#define setArgs(kernel_name) {                                   \
    err = clSetKernelArg(kernel_name, 0, sizeof(cl_mem), (void*)&d_x); \
    err = clSetKernelArg(kernel_name, 1, sizeof(int), (void*)&n);      \
  }
#define launch(kernel_name) {                                    \
    err = clEnqueueNDRangeKernel(queue, kernel_name, 1, NULL,    \
                                 &global, &local, 0, NULL, NULL); \
  }
#define clMalloc(ptr, size) { ptr =                            \
    clCreateBuffer(ctx, CL_MEM_READ_WRITE, size, NULL, &err); }
#define CHECK(e) if ((e) != CL_SUCCESS) return 1
#define STR(x) #x
#endif
"""

HOST = """#include <CL/cl.h>
#include "run.h"
int main(void) {
    cl_int err; cl_command_queue queue; cl_context ctx; cl_program prog; cl_mem d_x;
    int n = 4096;
    clMalloc(d_x, 22 * n * sizeof(float));
    size_t global = 4096, local = 128;
    cl_kernel scale = clCreateKernel(prog, "scale", &err);
    setArgs(scale);
    launch(
        scale);
    return 0;
}
"""


def test_only_macros_that_launch_are_read_and_none_that_stringify():
    macros = launch_macros(HEADER)
    assert set(macros) == {"setArgs", "launch", "clMalloc"}  # allocating macros too: their lengths
    assert macros["launch"][0] == ("kernel_name",)


def test_a_use_is_expanded_on_its_own_line_and_later_lines_keep_their_numbers():
    text = expand_launch_macros(HOST, launch_macros(HEADER))
    lines = text.splitlines()
    assert len(lines) == len(HOST.splitlines())
    assert "clSetKernelArg(scale, 1, sizeof(int), (void*)&n)" in lines[8]
    assert lines[9].strip().startswith("{ err = clEnqueueNDRangeKernel(queue, scale, 1, NULL, &global, &local")
    assert lines[11].strip() == "return 0;"
    assert "#define launch(kernel_name)" in expand_launch_macros(HEADER, launch_macros(HEADER))


def test_a_launch_through_a_header_macro_is_a_host_launch(tmp_path: Path):
    (tmp_path / "run.h").write_text(HEADER)
    (tmp_path / "main.c").write_text(HOST)
    index = build_host_index(tmp_path, [tmp_path / "main.c"], headers=[tmp_path / "run.h"])
    (h,) = index.files
    (site,) = h.launches
    assert (site.kernel_name, site.line, site.global_size, site.local_size) == ("scale", 10, (4096,), (128,))
    assert [(a.index, a.value) for a in h.args if a.kernel == "scale"] == [(0, None), (1, 4096)]
    (c,) = contracts_for(index, "scale", [("x", 4), ("n", None)], None, api="opencl").contracts
    assert c.buffer_lengths == {"x": str(22 * 4096)}  # S3D's clMalloc(d_y, n_species*base): the length is read
