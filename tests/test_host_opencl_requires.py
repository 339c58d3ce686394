"""OpenCL launches keep what the host requires of their arguments, as CUDA ones do (simu.host.relations.conditions):
an ``assert`` before the enqueue, the condition of the branch holding it (negated in an ``else``), and an earlier
``if (n < 2) return;`` negated, each over the argument index the host variable is set to; for the raw API
(``clSetKernelArg`` + ``clEnqueueNDRangeKernel``) and for launcher objects (``setConst(n); launch1D(n)``).  The
contract names them in the kernel's parameters ("requires n >= 2") and the search launches nothing that breaks them."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

from typer.testing import CliRunner

from simu.cli import app
from simu.host.contracts import host_constraints
from simu.host.cscan import CSource
from simu.host.index import build_host_index
from simu.host.opencl import extract

runner = CliRunner()

RAW = """#include <CL/cl.h>
#include <assert.h>
void run(cl_command_queue q, cl_kernel k, cl_mem buf, int n, int m, int other) {
  size_t g = 64, l = 64;
  int c = 5;
  clSetKernelArg(k, 0, sizeof(cl_mem), &buf);
  clSetKernelArg(k, 1, sizeof(int), &c);
  clSetKernelArg(k, 3, sizeof(int), &n);
  clSetKernelArg(k, 2, sizeof(int), (void *)&m);
  assert(m == n);
  if (n >= 2) clEnqueueNDRangeKernel(q, k, 1, NULL, &g, &l, 0, NULL, NULL);
  else clEnqueueNDRangeKernel(q, k, 1, NULL, &g, &l, 0, NULL, NULL);
  if (other > 3) return;
  if (c > 1) clEnqueueNDRangeKernel(q, k, 1, NULL, &g, &l, 0, NULL, NULL);
  if (n < 2) {
    g = 0;
    return;
  }
  clEnqueueNDRangeKernel(q, k, 1, NULL, &g, &l, 0, NULL, NULL);
}
"""


def test_raw_api_launches_require_their_asserts_branches_and_early_returns():
    """``assert(m == n)`` holds for every launch after it; ``if (n >= 2)`` / its ``else`` bound argument 3 each way;
    ``if (n < 2) { …; return; }`` before the last enqueue gives ``n >= 2``.  ``other`` is no argument and ``c`` is
    a constant the launch fixes: their conditions are dropped."""
    launches = extract(CSource(RAW), "h.c").launches
    assert [(x.line, x.requires) for x in launches] == [
        (11, ("_a2_ == _a3_", "_a3_ >= 2")), (12, ("_a2_ == _a3_", "_a3_ < 2")),
        (14, ("_a2_ == _a3_",)), (19, ("_a2_ == _a3_", "_a3_ >= 2"))]


def test_a_local_passed_as_an_argument_is_required_by_its_name():
    """``int leaves = count; if (leaves < 2) return;`` with ``&leaves`` as argument 1: the local is the argument
    (not written out as ``count``, which no argument carries)."""
    src = CSource("#include <CL/cl.h>\nvoid f(cl_command_queue q, cl_kernel k, int count) {\n"
                  "  int leaves = count;\n  size_t g = 64, l = 64;\n  if (leaves < 2) return;\n"
                  "  clSetKernelArg(k, 1, sizeof(int), &leaves);\n"
                  "  clEnqueueNDRangeKernel(q, k, 1, NULL, &g, &l, 0, NULL, NULL);\n}\n")
    (site,) = extract(src, "h.c").launches
    assert site.requires == ("_a1_ >= 2",)


KERNEL = """__kernel void leaf(__global int *parent, __global const int *prefix, int n) {
    int i = get_global_id(0);
    if (i >= n) return;
    parent[i] = prefix[i < n - 1 ? i : n - 2];
}
"""

LAUNCHER_H = """#include <CL/cl.h>
class Launcher {
    cl_command_queue q_;
    cl_kernel k_;
    int idx_;
public:
    Launcher(cl_command_queue q, cl_kernel k) : q_(q), k_(k), idx_(0) {}
    void setBuffer(cl_mem m) { clSetKernelArg(k_, idx_++, sizeof(cl_mem), &m); }
    template <class T> void setConst(const T &v) { clSetKernelArg(k_, idx_++, sizeof(T), &v); }
    void launch1D(int n, int l = 64) {
        size_t g = ((n + l - 1) / l) * l, loc = l;
        clEnqueueNDRangeKernel(q_, k_, 1, NULL, &g, &loc, 0, NULL, NULL);
    }
};
"""

TREE_CPP = """#include "launcher.h"
struct Tree {
    cl_kernel m_leaf;
    cl_command_queue m_q;
    Tree(cl_program p, cl_command_queue q) : m_q(q) { m_leaf = clCreateKernel(p, "leaf", 0); }
    void build(cl_mem parent, cl_mem prefix, int numSmall, int other) {
        int numLeaves = numSmall;
        if (numLeaves < 2) {
            clFinish(m_q);
            return;
        }
        if (other > 7) return;
        {
            Launcher launcher(m_q, m_leaf);
            launcher.setBuffer(parent);
            launcher.setBuffer(prefix);
            launcher.setConst(numLeaves);
            launcher.launch1D(numLeaves);
        }
    }
};
"""

PARAMS = [("parent", 4), ("prefix", 4), ("n", None)]


def test_a_launcher_object_after_an_early_return_requires_the_negated_condition(tmp_path: Path):
    """bullet3's BVH build: ``if (numLeaves < 2) { …; return; }`` then ``launcher.setConst(numLeaves);
    launcher.launch1D(numLeaves);`` in a nested block: the kernel's ``n`` (argument 2) is at least 2; ``other``
    is no argument of the launch, so its early return says nothing of the kernel."""
    (tmp_path / "launcher.h").write_text(LAUNCHER_H)
    (tmp_path / "tree.cpp").write_text(TREE_CPP)
    index = build_host_index(tmp_path, [tmp_path / "launcher.h", tmp_path / "tree.cpp"])
    (site,) = index.launches_of("leaf")
    assert site.requires == ("_a2_ >= 2",)
    ((c, origin),) = host_constraints(index, "leaf", PARAMS, api="opencl")
    assert c.requires == ["n >= 2"] and c.block == (64, 1, 1)
    assert origin == "host launch at tree.cpp:18 (grid.x = (n+63)/64 from the host code; requires n >= 2)"


BVH_CPP = """#include "launcher.h"
struct Bvh {
    cl_kernel m_leaf;
    cl_command_queue m_q;
    Array m_leaves;
    Bvh(cl_program p, cl_command_queue q) : m_q(q) { m_leaf = clCreateKernel(p, "leaf", 0); }
    void build(const Array &aabbs, cl_mem parent, cl_mem prefix, int other) {
        int numSmall = aabbs.size();
        m_leaves.resize(numSmall);
        int numLeaves = numSmall;
        if (numLeaves < 2) {
            clFinish(m_q);
            return;
        }
        construct(parent, prefix);
    }
    void construct(cl_mem parent, cl_mem prefix) {
        int numLeaves = m_leaves.size();
        Launcher launcher(m_q, m_leaf);
        launcher.setBuffer(parent);
        launcher.setBuffer(prefix);
        launcher.setConst(numLeaves);
        launcher.launch1D(numLeaves);
    }
    void query(cl_mem parent, cl_mem prefix) {
        if (m_leaves.size() > 1) {
            int n = m_leaves.size();
            Launcher launcher(m_q, m_leaf);
            launcher.setBuffer(parent);
            launcher.setBuffer(prefix);
            launcher.setConst(n);
            launcher.launch1D(n);
        }
    }
};
"""


def test_a_launch_inherits_what_every_call_of_its_function_makes_hold(tmp_path: Path):
    """bullet3's real shape: ``build`` resizes ``m_leaves`` to ``numSmall``, returns early for ``numLeaves =
    numSmall < 2`` and only then calls ``construct``, whose launch passes ``int numLeaves = m_leaves.size()``: the
    kernel's ``n`` is at least 2 there.  A launch under ``if (m_leaves.size() > 1)`` with ``n = m_leaves.size()``
    requires ``n > 1``.  A second, unguarded call of ``construct`` (or a resize after the guard) takes the
    inherited requirement away."""
    (tmp_path / "launcher.h").write_text(LAUNCHER_H)

    def requires(text: str) -> list[tuple[int, tuple[str, ...]]]:
        (tmp_path / "bvh.cpp").write_text(text)
        index = build_host_index(tmp_path, [tmp_path / "launcher.h", tmp_path / "bvh.cpp"])
        return [(x.line, x.requires) for x in index.launches_of("leaf")]

    assert requires(BVH_CPP) == [(23, ("_a2_ >= 2",)), (32, ("_a2_ > 1",))]
    query = "    void query(cl_mem parent, cl_mem prefix) {\n"
    called_twice = BVH_CPP.replace(query, query + "        construct(parent, prefix);\n")
    assert requires(called_twice)[0] == (23, ())
    resized = BVH_CPP.replace("        construct(parent, prefix);\n",
                              "        m_leaves.resize(other);\n        construct(parent, prefix);\n")
    assert requires(resized)[0][1] == ()


HOST_C = """#include <CL/cl.h>
#include <stdlib.h>

int main(int argc, char **argv) {
    cl_context ctx;
    cl_command_queue q;
    cl_program program;
    cl_int err;
    const char *name = "leaf.cl";
    (void)name;
    int n = atoi(argv[1]);
    if (n < 2)
        return 0;
    clBuildProgram(program, 0, NULL, NULL, NULL, NULL);
    cl_kernel k = clCreateKernel(program, "leaf", &err);
    cl_mem parent = clCreateBuffer(ctx, CL_MEM_WRITE_ONLY, n * sizeof(int), NULL, &err);
    cl_mem prefix = clCreateBuffer(ctx, CL_MEM_READ_ONLY, n * sizeof(int), NULL, &err);
    size_t local = 64;
    size_t global = ((n + 63) / 64) * 64;
    clSetKernelArg(k, 0, sizeof(cl_mem), &parent);
    clSetKernelArg(k, 1, sizeof(cl_mem), &prefix);
    clSetKernelArg(k, 2, sizeof(int), &n);
    clEnqueueNDRangeKernel(q, k, 1, NULL, &global, &local, 0, NULL, NULL);
    clFinish(q);
    return 0;
}
"""

# n < 1 returns early in the kernel too: the search's dictionary then tries n = 1 (the value that reads
# prefix[-1]) deterministically, whatever the budget lets it draw
GUARDED_KERNEL = KERNEL.replace("    int i = get_global_id(0);\n",
                                "    if (n < 1) return;\n    int i = get_global_id(0);\n")


def _check(root: Path) -> dict:
    r = runner.invoke(app, ["check", str(root / "leaf.cl"), "--format", "json", "--budget", "40"])
    data = json.loads(r.output)
    ((kernel,),) = [f["kernels"] for f in data["files"]]
    return kernel


def test_check_launches_only_what_the_host_returns_early_for(tmp_path: Path):
    """``leaf`` reads ``prefix[n - 2]`` for the last work-item, out of bounds when n = 1; the host returns early
    for n < 2, so with no launch given ``simu check`` (the host file beside the .cl, in a git repository) finds
    nothing; without the early return the error is found."""
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    (tmp_path / "leaf.cl").write_text(GUARDED_KERNEL)
    (tmp_path / "host.c").write_text(HOST_C)
    k = _check(tmp_path)
    assert k["status"] == "analysed" and not k["findings"], k["findings"]
    (tmp_path / "host.c").write_text(HOST_C.replace("    if (n < 2)\n        return 0;\n", ""))
    k = _check(tmp_path)
    oob = [f for f in k["findings"] if f["kind"] == "out-of-bounds" and f["severity"] == "error"]
    assert oob and all(f["launch"]["scalars"]["n"] == 1 for f in oob), k["findings"]
    assert oob[0]["launch"]["origin"].startswith("host launch at host.c:")
