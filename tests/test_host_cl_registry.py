"""Kernels a C++ host takes from a registry by name (simu/host/clregistry.py): a method registers the kernel with
the ``.cl`` path it is built from and fetches it into a ``cl::Kernel`` member, the name a member set in a ``switch``;
another method sets the arguments through a counter and enqueues through a project macro around
``queue.enqueueNDRangeKernel``.  The launch is the host's: its global size over the argument it passes, and an
argument passed as the product of two others, so the race the search shows when it draws that argument apart is not
the program's."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from simu.cli import app
from simu.host.clregistry import counter_index, kernel_alias, registry_kernels
from simu.host.contracts import host_constraints
from simu.host.cscan import CSource
from simu.host.index import build_host_index
from simu.host.launchmacros import expand_launch_macros, launch_macros
from simu.host.opencl import extract

runner = CliRunner()

BUFFER_KERNELS = """
__kernel void plane_copy(__global const float *src, __global float *dst, const int c, const int h, const int w,
                         const int hw) {
  const int ci = get_global_id(0), hi = get_global_id(1), wi = get_global_id(2);
  if (ci >= c || hi >= h || wi >= w) return;
  dst[ci * hw + hi * w + wi] = src[hi * w + wi] + (float)ci;  // planes of hw: they overlap when hw < h * w
}
__kernel void scale(__global const float *src, __global float *dst, const int count) {
  const int i = get_global_id(0);
  if (i < count) dst[i] = 2.0f * src[i];
}
"""

IMAGE_KERNELS = """
__kernel void scale(__read_only image2d_t src, __write_only image2d_t dst, const int count) {
  const int2 p = (int2)(get_global_id(0), get_global_id(1));
  write_imagef(dst, p, read_imagef(src, CLK_NORMALIZED_COORDS_FALSE | CLK_FILTER_NEAREST, p) * (float)count);
}
"""

UTILITY_H = """#pragma once
#define EnqueueKernel(ctx, kernel, offset, gws, lws, events, event) \\
  ctx.queue().enqueueNDRangeKernel(kernel, offset, gws, lws, events, &event)
"""

HOST = """#include "utility.h"
class PlaneCompute {
 public:
  void Prepare(int mode) {
    switch (mode) {
      case 0:
        kernel_func_name_ = "plane_copy";
        break;
      default:
        kernel_func_name_ = "scale";
    }
    ctx_->AddKernel(kernel_func_name_, "buffer/kernels.cl", build_options_);
    std::stringstream key;
    key << kernel_func_name_ << build_options_;
    kernel_ = ctx_->GetKernel(key.str());
  }
  void Run(const Tensor& x, Tensor* out) {
    auto& kernel = kernel_;
    const int c = x.dims()[0], h = x.dims()[1], w = x.dims()[2];
    int arg_idx = 0;
    cl_int status = kernel.setArg(arg_idx, *x.buffer());
    status = kernel.setArg(++arg_idx, *out->buffer());
    status = kernel.setArg(++arg_idx, c);
    status = kernel.setArg(++arg_idx, h);
    status = kernel.setArg(++arg_idx, w);
    status = kernel.setArg(++arg_idx, h * w);
    auto global_work_size = cl::NDRange{static_cast<size_t>(c), static_cast<size_t>(h), static_cast<size_t>(w)};
    status = EnqueueKernel((*ctx_), kernel, cl::NullRange, global_work_size, cl::NullRange, nullptr, event_);
  }
 private:
  cl::Kernel kernel_;
  std::string kernel_func_name_{"plane_copy"};
  std::string build_options_{""};
};
"""


def _sites():
    text = expand_launch_macros(HOST, launch_macros(UTILITY_H))
    return CSource(text), extract(CSource(text), "host/plane_compute.cc")


def test_registered_kernels_take_every_name_the_member_holds_and_the_path_they_are_built_from():
    src, _ = _sites()
    made = registry_kernels(src, "host/plane_compute.cc")
    assert {(k.var, k.name, k.sources) for k in made} == {("kernel_", "plane_copy", ("buffer/kernels.cl",)),
                                                          ("kernel_", "scale", ("buffer/kernels.cl",))}


def test_argument_counters_and_references_to_the_kernel_member():
    src, sites = _sites()
    assert [(a.kernel, a.index) for a in sites.args] == [("kernel_", i) for i in range(6)]
    at = src.code.index("EnqueueKernel") if "EnqueueKernel" in src.code else src.code.index("enqueueNDRangeKernel")
    assert kernel_alias(src, "kernel", at) == "kernel_"
    pos = src.code.index("kernel.setArg(++arg_idx, c)")
    assert counter_index(src, "++arg_idx", pos) == 2
    assert counter_index(src, "arg_idx++", pos) == 1
    for code, at, text, want in (
            ("int i = 0; if (x) { k.setArg(i++, a); } k.setArg(i++, b);", "k.setArg(i++, b)", "i++", None),
            ("int i = 0; if (two) { k.setArg(i++, a); k.setArg(i++, b); }", "k.setArg(i++, b)", "i++", 1),
            ("int i = 0; for (int j = 0; j < n; j++) { k.setArg(i++, a); }", "k.setArg(i++, a)", "i++", None),
            ("int i = 0; k.setArg(i++, a); if (c) k.setArg(i++, b); k.setArg(i++, d);", "k.setArg(i++, d)", "i++",
             None),
            ("int i; for (int j = 0; j < n; j++) { i = 0; k.setArg(i, a); k.setArg(++i, b); }", "k.setArg(++i, b)",
             "++i", 1),
            # both branches of an if/else step once: the count after them is known, and inside each
            ("int i = 0; if (m) { k.setArg(i++, a); } else { k.setArg(i++, b); } k.setArg(i++, c);",
             "k.setArg(i++, c)", "i++", 1),
            ("int i = 0; if (m) { k.setArg(i++, a); } else if (n) { k.setArg(i++, b); } else { k.setArg(i++, d); }"
             " k.setArg(i++, c);", "k.setArg(i++, c)", "i++", 1),
            ("int i = 0; k.setArg(i++, z); if (m) { k.setArg(i++, a); } else { k.setArg(i++, b); }",
             "k.setArg(i++, b)", "i++", 1),
            # branches that step apart, or an if with no else: unknown
            ("int i = 0; if (m) { k.setArg(i++, a); k.setArg(i++, e); } else { k.setArg(i++, b); } k.setArg(i++, c);",
             "k.setArg(i++, c)", "i++", None),
            ("int i = 0; if (m) { k.setArg(i++, a); } else if (n) { k.setArg(i++, b); } k.setArg(i++, c);",
             "k.setArg(i++, c)", "i++", None)):
        body = CSource("void f(cl::Kernel k) { " + code + " }")
        assert counter_index(body, text, body.code.index(at)) == want, code


def test_the_macro_enqueue_is_one_launch_per_registered_name_with_its_relations():
    _, sites = _sites()
    launches = {s.kernel_name: s for s in sites.launches}
    assert set(launches) == {"plane_copy", "scale"}
    copy = launches["plane_copy"]
    assert copy.kernel == "kernel_"
    assert copy.grid_sym == ("(_a2_)/blockDim_x", "(_a3_)/blockDim_y", "(_a4_)/blockDim_z")
    assert copy.arg_sym[5] == "_a3_*_a4_"


def _project(tmp_path: Path) -> None:
    (tmp_path / ".git").mkdir()
    (tmp_path / "kernels" / "buffer").mkdir(parents=True)
    (tmp_path / "kernels" / "image").mkdir(parents=True)
    (tmp_path / "kernels" / "buffer" / "kernels.cl").write_text(BUFFER_KERNELS)
    (tmp_path / "kernels" / "image" / "kernels.cl").write_text(IMAGE_KERNELS)
    (tmp_path / "host").mkdir()
    (tmp_path / "host" / "utility.h").write_text(UTILITY_H)
    (tmp_path / "host" / "plane_compute.cc").write_text(HOST)


def test_the_host_launch_is_of_the_kernel_built_from_the_registered_path(tmp_path: Path):
    _project(tmp_path)
    index = build_host_index(tmp_path, [tmp_path / "host" / "plane_compute.cc", tmp_path / "host" / "utility.h"])
    params = [("src", 4), ("dst", 4), ("c", None), ("h", None), ("w", None), ("hw", None)]
    (copy, _), = host_constraints(index, "plane_copy", params, cl_file="kernels/buffer/kernels.cl", api="opencl")
    assert copy.origin.startswith("host launch at host/plane_compute.cc:")
    assert copy.derived == {"hw": "h*w"}
    assert copy.dims == {"grid.x": "(c)/blockDim_x", "grid.y": "(h)/blockDim_y", "grid.z": "(w)/blockDim_z"}
    scale = [("src", 4), ("dst", 4), ("count", None), ("a", None), ("b", None), ("c", None)]  # as many as are set
    assert host_constraints(index, "scale", scale, cl_file="kernels/image/kernels.cl", api="opencl") == []
    assert host_constraints(index, "scale", scale, cl_file="kernels/buffer/kernels.cl", api="opencl")


def _scan(tmp_path: Path) -> dict:
    _project(tmp_path)
    out = runner.invoke(app, ["scan", str(tmp_path), "--no-cache", "--budget", "2", "-j", "1", "--format", "json"])
    return json.loads(out.stdout)


def test_a_registered_kernel_is_judged_at_its_host_launch(tmp_path: Path):
    data = _scan(tmp_path)
    kernels = {(Path(f["path"]).parent.name, k["name"]): k for f in data["files"] for k in f["kernels"]}
    copy = kernels[("buffer", "plane_copy")]  # the search alone draws hw below h * w: a race no launch makes
    assert copy["status"] == "analysed" and copy["launches"] > 0
    assert not [f for f in copy["findings"] if f["severity"] == "error"], copy["findings"]


def test_an_argument_that_passes_a_component_of_the_local_size_is_that_block_dimension():
    src = CSource("""
class Norm {
  void Run(cl::CommandQueue& queue, int n) {
    kernel_.setArg(0, n);
    kernel_.setArg(1, static_cast<int>(lws_[1]));
    queue.enqueueNDRangeKernel(kernel_, cl::NullRange, gws_, lws_);
  }
  cl::Kernel kernel_;
  cl::NDRange gws_, lws_;
};
""")
    (launch,) = extract(src, "norm.cc").launches
    assert launch.arg_sym == (None, "blockDim_y")


def test_a_name_a_helper_stores_through_the_pointer_it_is_passed():
    src = CSource("""
static void Pick(int axis, std::string* kernel_func_name) {
  switch (axis) {
    case 0: *kernel_func_name = "split_rows"; break;
    default: *kernel_func_name = "split_cols";
  }
}
class Split {
  void Prepare(int axis) {
    Pick(axis, &kernel_func_name_);
    ctx_->AddKernel(kernel_func_name_, "image/split.cl", options_);
    kernel_ = ctx_->GetKernel(kernel_func_name_ + options_);
  }
  void Run() { kernel_.setArg(0, n_); }
  std::string kernel_func_name_;
};
""")
    assert sorted(k.name for k in registry_kernels(src, "split.cc")) == ["split_cols", "split_rows"]


BRANCHES = """
class Pick {
  void Prepare(bool two) {
    kernel_func_name_ = two ? "pair" : "many";
    if (two) kernel_func_name_ = "pair"; else kernel_func_name_ = "many";
    ctx_->AddKernel(kernel_func_name_, "buffer/concat.cl", options_);
    kernel_ = ctx_->GetKernel(kernel_func_name_);
  }
  void Run(cl::CommandQueue& q) {
    if (kernel_func_name_ == "pair") {
      kernel_.setArg(0, a); kernel_.setArg(1, b); kernel_.setArg(2, c); kernel_.setArg(3, d);
      q.enqueueNDRangeKernel(kernel_, cl::NullRange, cl::NDRange{n}, cl::NullRange);
    } else {
      kernel_.setArg(0, a); kernel_.setArg(1, b);
      q.enqueueNDRangeKernel(kernel_, cl::NullRange, cl::NDRange{n}, cl::NullRange);
    }
  }
  std::string kernel_func_name_;
};
"""


def test_a_launch_in_a_branch_on_the_name_is_of_the_names_it_allows(tmp_path: Path):
    launches = extract(CSource(BRANCHES), "pick.cc").launches
    assert sorted((x.line, x.kernel_name) for x in launches) == [(12, "pair"), (15, "many")]
    (tmp_path / "pick.cc").write_text(BRANCHES.replace('if (kernel_func_name_ == "pair")', "if (two_)"))
    (tmp_path / "buffer").mkdir()
    (tmp_path / "buffer" / "concat.cl").write_text("__kernel void many(__global float *x, int n) { x[0] = n; }")
    index = build_host_index(tmp_path, [tmp_path / "pick.cc"])
    # both launches may be of `many` by the names alone; the first sets four arguments, `many` has two
    (site,) = host_constraints(index, "many", [("x", 4), ("n", None)], cl_file="buffer/concat.cl", api="opencl")
    assert site[0].origin.startswith("host launch at pick.cc:15")


PAIRED = """
class MatMul {
  void Prepare(int rank, bool transpose) {
    if (rank == 2) {
      kernel_func_name_ = "mm";
      kernel_file_name_ = "image/mm.cl";
      if (transpose) {
        kernel_func_name_ = "mm_t";
        kernel_file_name_ = "image/mm_t.cl";
      }
    } else {
      kernel_func_name_ = rank == 4 ? "mm_4d" : (rank == 3 ? "mm_3d" : "mm_nd");
      kernel_file_name_ = "image/mm_high.cl";
    }
    ctx_->AddKernel(kernel_func_name_, kernel_file_name_, options_);
    std::stringstream key;
    key << kernel_func_name_ << options_;
    kernel_ = ctx_->GetKernel(key.str());
  }
  void Run() { auto kernel = &kernel_; kernel->setArg(0, n_); }
  std::string kernel_func_name_, kernel_file_name_;
};
"""

VECTORS = """
class Winograd {
  void Prepare(bool mali, bool wino) {
    if (wino) {
      names_.push_back("from_input");
      if (mali) {
        names_.push_back("inner_mali");
        names_.push_back("to_output_mali");
      } else {
        names_.push_back("inner");
        names_.push_back("to_output");
      }
      paths_.push_back("image/winograd.cl");
    } else {
      kernel_name_ = "direct";
      names_.push_back(kernel_name_);
      paths_.push_back("image/direct.cl");
    }
    for (size_t i = 0; i < names_.size(); i++) ctx_->AddKernel(names_[i], paths_[0], options_);
  }
  void Fetch() {
    std::stringstream key;
    key << names_[0] << options_;
    kernel_ = ctx_->GetKernel(key.str());
    key.str("");
    key << names_[2] << options_;
    output_kernel_ = ctx_->GetKernel(key.str());
  }
  void Run() { kernel_.setArg(0, n_); output_kernel_.setArg(0, n_); }
  std::vector<std::string> names_, paths_;
};
"""


def test_a_name_is_built_from_the_path_set_beside_it_when_both_are_variables():
    made = registry_kernels(CSource(PAIRED), "mm.cc")
    assert {(k.var, k.name, k.sources) for k in made} == {
        ("kernel_", "mm", ("image/mm.cl",)), ("kernel_", "mm_t", ("image/mm_t.cl",)),
        ("kernel_", "mm_4d", ("image/mm_high.cl",)), ("kernel_", "mm_3d", ("image/mm_high.cl",)),
        ("kernel_", "mm_nd", ("image/mm_high.cl",))}


def test_a_kernel_fetched_by_a_vector_element_is_of_the_names_pushed_at_that_element():
    made = registry_kernels(CSource(VECTORS), "winograd.cc")
    assert {(k.var, k.name, k.sources) for k in made} == {
        ("kernel_", "from_input", ("image/winograd.cl",)), ("kernel_", "direct", ("image/direct.cl",)),
        ("output_kernel_", "to_output", ("image/winograd.cl",)),
        ("output_kernel_", "to_output_mali", ("image/winograd.cl",))}


VECTOR_HOST = """
class PlaneCompute {
 public:
  void Prepare() {
    names_.push_back("scale");
    names_.push_back("plane_copy");
    paths_.push_back("buffer/kernels.cl");
    for (size_t i = 0; i < names_.size(); i++) ctx_->AddKernel(names_[i], paths_[0], build_options_);
    std::stringstream key;
    key << names_[1] << build_options_;
    copy_kernel_ = ctx_->GetKernel(key.str());
  }
  void Run(const Tensor& x, Tensor* out) {
    auto kernel = &copy_kernel_;
    const int c = x.dims()[0], h = x.dims()[1], w = x.dims()[2];
    int arg_idx = 0;
    kernel->setArg(arg_idx++, *x.buffer());
    kernel->setArg(arg_idx++, *out->buffer());
    kernel->setArg(arg_idx++, c);
    kernel->setArg(arg_idx++, h);
    kernel->setArg(arg_idx++, w);
    kernel->setArg(arg_idx++, h * w);
    auto global_work_size = cl::NDRange{static_cast<size_t>(c), static_cast<size_t>(h), static_cast<size_t>(w)};
    ctx_->queue().enqueueNDRangeKernel(copy_kernel_, cl::NullRange, global_work_size, cl::NullRange);
  }
 private:
  std::vector<std::string> names_, paths_;
  std::string build_options_;
};
"""


def test_a_kernel_a_vector_registry_names_is_judged_at_its_host_launch(tmp_path: Path):
    _project(tmp_path)
    (tmp_path / "host" / "plane_compute.cc").write_text(VECTOR_HOST)
    data = json.loads(runner.invoke(app, ["scan", str(tmp_path), "--no-cache", "--budget", "2", "-j", "1",
                                          "--format", "json"]).stdout)
    kernels = {(Path(f["path"]).parent.name, k["name"]): k for f in data["files"] for k in f["kernels"]}
    copy = kernels[("buffer", "plane_copy")]  # the search alone draws hw below h * w: a race no launch makes
    assert copy["status"] == "analysed"
    assert copy["findings"] == [] or all(f["severity"] != "error" for f in copy["findings"]), copy["findings"]
    origins = {(f.get("launch") or {}).get("origin", "") for f in copy["findings"]}
    assert not any(o.startswith("searched") for o in origins), origins


TWO_CLASSES = """
class ToImage {
  void Prepare() {
    if (pre255_) kernel_func_name_ = "to_image_pre255";
    ctx_->AddKernel(kernel_func_name_, "image/layout.cl", options_);
  }
  void Run() {
    kernel_ = ctx_->GetKernel(kernel_func_name_ + options_);
    kernel_.setArg(0, n_);
  }
  std::string kernel_func_name_{"to_image"};
};
class ToBuffer {
  void Prepare() { ctx_->AddKernel(kernel_func_name_, "buffer/layout.cl", options_); }
  void Run() {
    kernel_ = ctx_->GetKernel(kernel_func_name_ + options_);
    kernel_.setArg(0, n_);
  }
  std::string kernel_func_name_{"to_buffer"};
};
"""


def test_each_class_of_a_file_fetches_the_names_and_paths_it_sets():
    made = registry_kernels(CSource(TWO_CLASSES), "layout.cc")
    assert {(k.line, k.name, k.sources) for k in made} == {
        (8, "to_image", ("image/layout.cl",)), (8, "to_image_pre255", ("image/layout.cl",)),
        (16, "to_buffer", ("buffer/layout.cl",))}


def test_a_launch_is_of_each_path_its_fetch_pairs_the_name_with(tmp_path: Path):
    host = TWO_CLASSES.replace('ctx_->AddKernel(kernel_func_name_, "image/layout.cl", options_);',
                               'if (image_) ctx_->AddKernel(kernel_func_name_, "image/layout.cl", options_);\n'
                               '    else ctx_->AddKernel(kernel_func_name_, "buffer/layout.cl", options_);')
    host = host.replace("kernel_.setArg(0, n_);\n  }\n  std::string kernel_func_name_{\"to_image\"};",
                        "kernel_.setArg(0, n_);\n    q_.enqueueNDRangeKernel(kernel_, cl::NullRange, cl::NDRange(n_),"
                        " cl::NullRange);\n  }\n  std::string kernel_func_name_{\"to_image\"};")
    (tmp_path / "layout.cc").write_text(host)
    for folder in ("image", "buffer"):
        (tmp_path / folder).mkdir()
        (tmp_path / folder / "layout.cl").write_text("__kernel void to_image(int n) { }\n")
    index = build_host_index(tmp_path, [tmp_path / "layout.cc"])
    for folder in ("image", "buffer"):  # the fetch's sites pair the name with both paths: a launch of each
        (site,) = host_constraints(index, "to_image", [("n", None)], cl_file=f"{folder}/layout.cl", api="opencl")
        assert site[0].origin.startswith("host launch at layout.cc:"), folder


DISPATCH = """
class Conv {
  void Prepare(bool depthwise) {
    if (depthwise) {
      names_.push_back("depthwise");
      impl_ = &Conv::Depthwise;
      is_depthwise_ = true;
    } else {
      names_.push_back("plane_copy");
      impl_ = &Conv::Common;
    }
    paths_.push_back("buffer/kernels.cl");
    ctx_->AddKernel(names_[0], paths_[0], options_);
    if (is_depthwise_) {
      std::stringstream key;
      key << names_[0] << options_;
      depthwise_kernel_ = ctx_->GetKernel(key.str());
    }
    std::stringstream key;
    key << names_[0] << options_;
    kernel_ = ctx_->GetKernel(key.str());
  }
  void Common() {
    kernel_.setArg(0, *x_); kernel_.setArg(1, *out_); kernel_.setArg(2, c_); kernel_.setArg(3, h_);
    kernel_.setArg(4, w_); kernel_.setArg(5, h_ * w_);
  }
  void Depthwise() {
    kernel_.setArg(0, *x_); kernel_.setArg(1, *out_); kernel_.setArg(2, c_); kernel_.setArg(3, h_);
    kernel_.setArg(4, w_); kernel_.setArg(5, 7);
  }
  void Run() {
    (this->*impl_)();
    queue_.enqueueNDRangeKernel(kernel_, cl::NullRange, cl::NDRange{c_, h_, w_}, cl::NullRange);
  }
  std::vector<std::string> names_, paths_;
  cl::Kernel depthwise_kernel_;
};
"""


def test_a_fetch_under_a_flag_takes_the_names_set_beside_the_flag():
    made = {(k.var, k.name) for k in registry_kernels(CSource(DISPATCH), "conv.cc")}
    assert {n for v, n in made if v == "depthwise_kernel_"} == {"depthwise"}
    assert {n for v, n in made if v == "kernel_"} == {"depthwise", "plane_copy"}


def test_arguments_set_in_a_method_a_pointer_chooses_are_not_another_methods_launch_s(tmp_path: Path):
    """``(this->*impl_)(); enqueue(kernel_)``: which method set the arguments is not known at the launch, so neither
    method's values are the launch's (the last in the file, ``hw = 7`` of the depthwise method, was taken)."""
    (tmp_path / "conv.cc").write_text(DISPATCH)
    (tmp_path / "buffer").mkdir()
    (tmp_path / "buffer" / "kernels.cl").write_text(BUFFER_KERNELS)
    index = build_host_index(tmp_path, [tmp_path / "conv.cc"])
    params = [("src", 4), ("dst", 4), ("c", None), ("h", None), ("w", None), ("hw", None)]
    (copy, _), = host_constraints(index, "plane_copy", params, cl_file="buffer/kernels.cl", api="opencl")
    assert copy.origin.startswith("host launch at conv.cc:")
    assert "hw" not in copy.args and copy.dims["grid.x"] == "(c)/blockDim_x"


def test_an_argument_passed_as_a_local_computed_from_other_arguments_relates_to_them():
    src = CSource("""
void Run(cl::CommandQueue& q, int h, int w) {
  const int hw = h * w;
  kernel_.setArg(0, h);
  kernel_.setArg(1, w);
  kernel_.setArg(2, hw);
  kernel_.setArg(3, h);
  q.enqueueNDRangeKernel(kernel_, cl::NullRange, cl::NDRange{h, w}, cl::NullRange);
}
cl::Kernel kernel_;
""")
    (launch,) = extract(src, "plane.cc").launches
    assert launch.arg_sym == ("_a3_", None, "(_a3_*_a1_)", None)  # h passed twice; hw = h * w


def test_an_argument_a_size_macro_computes_from_another_argument_relates_to_it():
    src = CSource("""
#define UP_DIV(x, y) (((x) + (y) - (1)) / (y))
void Run(cl::CommandQueue& q) {
  const int round_w = UP_DIV(out_w_, 2);
  int idx = 0;
  kernel_.setArg(idx++, *in_);
  if (mali_) {
    kernel_.setArg(idx++, *bias_buffer_);
  } else {
    kernel_.setArg(idx++, *bias_image_);
  }
  kernel_.setArg(idx++, round_w);
  kernel_.setArg(idx++, out_w_);
  q.enqueueNDRangeKernel(kernel_, cl::NullRange, cl::NDRange{gws_[0], gws_[1]}, cl::NullRange);
}
cl::Kernel kernel_;
""")
    (launch,) = extract(src, "wino.cc").launches
    assert launch.arg_sym == (None, None, "((_a3_+2-1)/2)", None)  # the bias branches both step the counter


def test_a_launch_under_a_flag_is_of_the_names_set_beside_the_flag():
    """``if (is_wino_) { …; enqueue(kernel_) } else { …; enqueue(kernel_) }`` with ``is_wino_ = true;`` beside the
    Winograd kernel's name: the first launch is of that kernel only, not of every name ``kernel_`` may hold (whose
    relations, an image passed where another kernel takes an integer, made those unlaunchable)."""
    src = CSource("""
class Conv {
  void Prepare(bool wino) {
    if (wino) {
      names_.push_back("transform_from_input");
      is_wino_ = true;
    } else if (one_) {
      names_.push_back("conv2d_1x1");
    } else {
      names_.push_back("conv2d_common");
    }
    paths_.push_back("image/conv.cl");
    ctx_->AddKernel(names_[0], paths_[0], options_);
    std::stringstream key;
    key << names_[0] << options_;
    kernel_ = ctx_->GetKernel(key.str());
  }
  void Run() {
    if (is_wino_) {
      kernel_.setArg(0, *in_); kernel_.setArg(1, UP_DIV(w_, 2));
      queue_.enqueueNDRangeKernel(kernel_, cl::NullRange, cl::NDRange{c_, h_}, cl::NullRange);
    } else {
      kernel_.setArg(0, *in_); kernel_.setArg(1, *filter_); kernel_.setArg(2, w_);
      queue_.enqueueNDRangeKernel(kernel_, cl::NullRange, cl::NDRange{c_, h_, w_}, cl::NullRange);
    }
  }
  std::vector<std::string> names_, paths_;
};
""")
    launches = extract(src, "conv.cc").launches
    by_line: dict[int, set[str | None]] = {}
    for x in launches:
        by_line.setdefault(x.line, set()).add(x.kernel_name)
    first, second = sorted(by_line)
    assert by_line[first] == {"transform_from_input"}
    assert by_line[second] == {"transform_from_input", "conv2d_1x1", "conv2d_common"}


def test_an_argument_passed_through_a_static_cast_relates_as_its_variable():
    src = CSource("""
void Run(cl::CommandQueue& q, int h, int w) {
  kernel_.setArg(0, static_cast<const int>(h));
  kernel_.setArg(1, static_cast<const int>(w));
  kernel_.setArg(2, h * w);
  q.enqueueNDRangeKernel(kernel_, cl::NullRange, cl::NDRange{h, w}, cl::NullRange);
}
cl::Kernel kernel_;
""")
    (launch,) = extract(src, "plane.cc").launches
    assert launch.arg_sym == (None, None, "_a0_*_a1_")
    assert launch.grid_sym[:2] == ("(_a0_)/blockDim_x", "(_a1_)/blockDim_y")


LAYER_NORM_CC = """
class LayerNorm {
  void SetGlobalLocal() {
    global_work_size_ = cl::NDRange{static_cast<cl::size_type>(c_), static_cast<cl::size_type>(w_), 1};
  }
  void Run(cl::CommandQueue& q) {
    int height = dims_[2], width = dims_[3];
    int arg_idx = 0;
    kernel_.setArg(arg_idx++, *x_buf);
    kernel_.setArg(arg_idx++, *y_buf);
    if (has_scale_) {
      kernel_.setArg(arg_idx++, *scale_buf);
    }
    kernel_.setArg(arg_idx++, static_cast<const int>(height));
    kernel_.setArg(arg_idx++, static_cast<const int>(c_));
    kernel_.setArg(arg_idx++, static_cast<const int>(width));
    kernel_.setArg(arg_idx++, 1e-5f);
    q.enqueueNDRangeKernel(kernel_, cl::NullRange, global_work_size_, cl::NullRange);
  }
  cl::NDRange global_work_size_;
  cl::Kernel kernel_;
};
"""


def test_arguments_after_an_optional_one_are_counted_from_the_kernel_s_last_parameter(tmp_path: Path):
    """``if (has_scale_) setArg(idx++, *scale)`` for a parameter a ``-DSCALE`` build adds: the arguments after it
    have no index from the start, but OpenCL enqueues only with every argument set, so the last one set is the
    kernel's last parameter; the global size a member holds, set in another method, relates to one of them."""
    (launch,) = extract(CSource(LAYER_NORM_CC), "layer_norm.cc").launches
    args = extract(CSource(LAYER_NORM_CC), "layer_norm.cc").args
    assert [(a.index, a.tail) for a in args] == [(0, None), (1, None), (2, None), (None, 3), (None, 2), (None, 1),
                                                 (None, 0)]
    assert launch.grid_sym[0] == "(_a1002_)/blockDim_x"  # c_, the third last argument
    (tmp_path / "layer_norm.cc").write_text(LAYER_NORM_CC)
    index = build_host_index(tmp_path, [tmp_path / "layer_norm.cc"])
    params = [("x", 4), ("y", 4), ("height", None), ("channel", None), ("width", None), ("epsilon", None)]
    ((c, _),) = host_constraints(index, None, params, api="opencl")
    assert c.dims["grid.x"] == "(channel)/blockDim_x"
    assert set(c.state) == {"height", "channel", "width"} and "c_" in c.state["channel"]  # each at its position


def test_the_known_components_of_a_local_size_the_host_gives_are_the_launch_s(tmp_path: Path):
    """``local_work_size_ = cl::NDRange{1, min(256, w_), 1}`` with ``w_`` read off a tensor: the work-group is one
    work-item wide along x and z whatever y is (before, the whole block was searched: three work-items along x ran
    past the channels the host launches)."""
    text = LAYER_NORM_CC.replace(
        "static_cast<cl::size_type>(w_), 1};\n  }",
        "static_cast<cl::size_type>(w_), 1};\n"
        "    local_work_size_ = cl::NDRange{1, static_cast<cl::size_type>(std::min(256, w_)), 1};\n  }").replace(
        "global_work_size_, cl::NullRange);", "global_work_size_, local_work_size_);").replace(
        "cl::NDRange global_work_size_;", "cl::NDRange global_work_size_;\n  cl::NDRange local_work_size_;")
    (tmp_path / "layer_norm.cc").write_text(text)
    index = build_host_index(tmp_path, [tmp_path / "layer_norm.cc"])
    params = [("x", 4), ("y", 4), ("height", None), ("channel", None), ("width", None), ("epsilon", None)]
    ((c, _),) = host_constraints(index, None, params, api="opencl")
    assert c.block is None and (c.dims["block.x"], c.dims["block.z"]) == ("1", "1") and "block.y" not in c.dims
    assert c.dims["grid.x"] == "(channel)/1"
