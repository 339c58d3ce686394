"""A kernel file's `// constrain:` line is the user's word for `simu check` and `simu scan`, as in simu.toml: the
search honours it (found by `simu generate`: an off-by-one read that only launches with the lengths tied to `n`
show was missed)."""

from __future__ import annotations

from simu.api import load_file
from simu.check import CheckRequest, check_file
from simu.config import Config
from simu.frontend import CompileOptions
from simu.pipeline import CheckSettings


def _check(path):
    return check_file(path, load_file(path, CompileOptions()), CheckSettings(), CheckRequest(), config=Config(),
                      root=path.parent)

KERNEL = """// constrain: len:x=n len:d=n
__kernel void forward_diff(__global const float *x, __global float *d, const int n)
{
    const int i = get_global_id(0);
    if (i < n)
        d[i] = x[i + 1] - x[i];
}
"""


def _kinds(path) -> list[tuple[str, str]]:
    result = _check(path)
    return [(f.kind, f.severity) for k in result.files[0].kernels for f in k.findings]


def test_the_constrain_line_ties_the_lengths_and_the_off_by_one_read_is_an_error(tmp_path):
    path = tmp_path / "diff.cl"
    path.write_text(KERNEL)
    assert _kinds(path) == [("out-of-bounds", "error")]


def test_a_constrain_line_for_another_kernel_is_not_this_ones(tmp_path):
    path = tmp_path / "diff.cl"
    path.write_text("// kernel: forward_diff\n" + KERNEL + "__kernel void other(__global float *x, const int n) {}\n")
    result = _check(path)  # `other` has no `d`: the line applied to it would be an error
    assert {k.name: k.status for k in result.files[0].kernels} == {"forward_diff": "analysed", "other": "analysed"}
    assert [f.kind for k in result.files[0].kernels for f in k.findings] == ["out-of-bounds"]
