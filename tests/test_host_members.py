"""Relations through a class's members: ``stride_ = h_ * w_`` written in one method and passed beside ``h_`` and ``w_``
to a launch in another is that expression of the launch's arguments (every write the program makes to the member
gives it), so the search draws the three as the program makes them, where drawing each alone overlaps the planes a
kernel writes -- a race no launch of the program's makes."""

from __future__ import annotations

from pathlib import Path

from simu.host.contracts import contracts_for
from simu.host.index import build_host_index
from simu.scan import ScanOverrides, resolve_options, scan

LAYER = """#include <cuda_runtime.h>
#include <cstdlib>
__global__ void plane(float *out, int h, int w, int stride) {
    int c = blockIdx.y, y = threadIdx.y, x = threadIdx.x;
    if (y >= h || x >= w) return;
    out[c * stride + y * w + x] = (float)c;
}
class Layer {
public:
    void prepare(int height, int width) {
        h_ = height; w_ = width;
        stride_ = STRIDE;
    }
    void run(float *out, int channels) {
        plane<<<dim3(1, channels), dim3(w_, h_)>>>(out, h_, w_, stride_);
    }
private:
    int h_, w_, stride_;
};
int main(int argc, char **argv) {
    int h = atoi(argv[1]), w = atoi(argv[2]);
    float *out; cudaMalloc(&out, 64 * 64 * 8 * sizeof(float));
    Layer l; l.prepare(h, w); l.run(out, 8);
    return 0;
}
"""


def _program(root: Path, stride: str) -> Path:
    (root / "m.cu").write_text(LAYER.replace("STRIDE", stride))
    return root / "m.cu"


def test_a_member_every_write_makes_of_other_members_is_that_expression_of_the_launch_s_arguments(tmp_path):
    index = build_host_index(tmp_path, [_program(tmp_path, "h_ * w_")])
    made = contracts_for(index, "plane", [("out", 4), ("h", None), ("w", None), ("stride", None)], None).contracts
    assert [c.derived for c in made] == [{"stride": "h*w"}]
    assert "stride = h*w" in made[0].origin


def _errors(root: Path) -> list:
    result = scan(*resolve_options([root], ScanOverrides(budget=1.0, jobs=1, no_cache=True)))
    kernels = [k for _, k in result.kernels()]
    assert kernels and all(k.status == "analysed" for k in kernels)
    return [f for k in kernels for f in k.findings if f.severity == "error"]


def test_planes_as_the_program_lays_them_out_do_not_overlap(tmp_path):
    _program(tmp_path, "h_ * w_")
    assert _errors(tmp_path) == []


def test_planes_one_element_short_overlap_at_the_program_s_launch(tmp_path):
    _program(tmp_path, "h_ * w_ - 1")
    errors = _errors(tmp_path)
    assert errors and {f.kind for f in errors} == {"race"}
    assert all(f.launch is not None and "stride = h*w-1" in f.launch.origin for f in errors)
