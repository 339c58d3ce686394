"""Include discovery that never shadows: nearest folder, after the shim and the system; fragments analysed
through their includer; a header's kernel analysed once; stand-ins for headers the build generates."""

import json
import subprocess
from pathlib import Path

import jsonschema
from typer.testing import CliRunner

import simu
from simu.cli import app
from simu.frontend.discover import IgnoreRules
from simu.frontend.generated import configure
from simu.frontend.includes import HeaderIndex, provided_outside, resolve_includes
from simu.scan import ScanOverrides, resolve_options, scan

runner = CliRunner()

KERNEL = """
__global__ void {name}(float *out) {{
  out[threadIdx.x] = {value};
}}
"""


def write(root: Path, files: dict[str, str]) -> Path:
    for rel, text in files.items():
        p = root / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(text)
    return root


def run_scan(root: Path):
    return scan(*resolve_options([root], ScanOverrides(budget=0.5, jobs=1, no_cache=True)))


def files_of(result) -> dict:
    return {f.rel: f for f in result.files}


def test_sibling_benchmarks_each_compile_against_their_own_helper(tmp_path):
    # two benchmarks with a helper header of the same name; `a` also includes a header only `b` has, so that
    # b's folder is discovered for `a` too: a's own folder must still come first
    root = write(tmp_path, {
        "bench/a/a.cu": "#include <extra.h>\n#include <bench_helper.h>\n#ifndef HELPER_A\n#error wrong helper\n"
                        "#endif\n" + KERNEL.format(name="ka", value="HELPER_VALUE + EXTRA"),
        "bench/a/inc/bench_helper.h": "#define HELPER_A 1\n#define HELPER_VALUE 1.0f\n",
        "bench/b/b.cu": "#include <bench_helper.h>\n#ifndef HELPER_B\n#error wrong helper\n#endif\n"
                        + KERNEL.format(name="kb", value="HELPER_VALUE"),
        "bench/b/inc/bench_helper.h": "#define HELPER_B 1\n#define HELPER_VALUE 2.0f\n",
        "bench/b/inc/extra.h": "#define EXTRA 0.5f\n",
    })
    result = run_scan(root)
    files = files_of(result)
    for rel, kernel in (("bench/a/a.cu", "ka"), ("bench/b/b.cu", "kb")):
        assert files[rel].status == "ok", files[rel].first
        assert [k.name for k in files[rel].kernels] == [kernel]
        assert files[rel].kernels[0].status == "analysed"
    after = files["bench/a/a.cu"].compile_options.after_dirs
    assert after == (str((root / "bench/a/inc").resolve()), str((root / "bench/b/inc").resolve()))
    assert files["bench/a/a.cu"].compile_options.include_dirs == ()  # discovered folders are never -I


def test_a_project_unistd_shim_never_shadows_the_system_one(tmp_path):
    # a Windows port's own unistd.h / stdint.h would break a Linux compile if it came first
    root = write(tmp_path, {
        "win/unistd.h": '#error "the Windows unistd.h shim was used"\n',
        "win/stdint.h": '#error "the project stdint.h was used"\n',
        "src/k.cu": "#include <stdint.h>\n#include <unistd.h>\n" + KERNEL.format(name="k", value="1.0f"),
    })
    info = resolve_includes(root / "src/k.cu", [], HeaderIndex(root, IgnoreRules(root)))
    assert provided_outside("stdint.h")  # simu's shim has it: the project copy is not even a candidate
    if provided_outside("unistd.h"):  # the system's (or simu's shim's) unistd.h comes first
        assert info.folders == [] and info.headers == set()
        f = files_of(run_scan(root))["src/k.cu"]
        assert f.status == "ok", f.first
        assert [k.status for k in f.kernels] == ["analysed"]
    else:  # nothing else provides it: the nearest project file does, after the system folders
        assert info.folders == [(root / "win").resolve()]


def test_quoted_include_next_to_the_file_wins_over_the_shim(tmp_path):
    root = write(tmp_path, {"k.cu": '#include "helper_math.h"\n' + KERNEL.format(name="k", value="MINE"),
                            "helper_math.h": "#define MINE 3.0f\n"})
    info = resolve_includes(root / "k.cu", [], HeaderIndex(root))
    assert info.headers == {(root / "helper_math.h").resolve()} and info.folders == []
    assert files_of(run_scan(root))["k.cu"].kernels[0].status == "analysed"


FRAGMENT = """
__global__ void frag_kernel(Elem *out) {
  out[threadIdx.x] = Elem(2);
}
"""


def test_included_cu_fragment_is_analysed_through_its_includer(tmp_path, monkeypatch):
    root = write(tmp_path, {
        "src/main.cu": "typedef float Elem;\n#include \"parts/frag.cu\"\n" + KERNEL.format(name="main_k", value="1"),
        "src/parts/frag.cu": FRAGMENT,
    })
    result = run_scan(root)
    files = files_of(result)
    frag = files["src/parts/frag.cu"]
    assert frag.included_by == "src/main.cu" and frag.status == "ok" and frag.kernels == []
    main = files["src/main.cu"]
    assert sorted(k.name for k in main.kernels) == ["frag_kernel", "main_k"]
    fk = next(k for k in main.kernels if k.name == "frag_kernel")
    assert fk.status == "analysed" and fk.defined_in == "src/parts/frag.cu"
    assert not any(f.status == "compile-error" for f in result.files)
    assert result.stats.kernels == 2
    from simu.report.jsonreport import scan_to_dict

    doc = json.loads(json.dumps(scan_to_dict(result)))
    jsonschema.validate(doc, json.loads((Path(simu.__file__).parent / "report/schema/scan.schema.json").read_text()))
    assert [f["included_by"] for f in doc["files"] if f["path"] == "src/parts/frag.cu"] == ["src/main.cu"]
    # named explicitly, the fragment is still compiled alone; the failure names its includer
    monkeypatch.chdir(root)
    r = runner.invoke(app, ["check", "src/parts/frag.cu", "--budget", "2"])
    assert r.exit_code == 2
    text = " ".join(r.output.split())
    assert "'Elem'" in text
    assert "frag.cu is included by src/main.cu" in text


def test_a_header_kernel_reached_through_two_files_is_analysed_once(tmp_path):
    root = write(tmp_path, {
        "common/shared.cuh": "#pragma once\n" + KERNEL.format(name="shared_k", value="3.0f"),
        "a.cu": '#include "common/shared.cuh"\n' + KERNEL.format(name="only_a", value="1.0f"),
        "b.cu": '#include "common/shared.cuh"\n' + KERNEL.format(name="only_b", value="2.0f"),
    })
    result = run_scan(root)
    names = [(f.rel, k.name) for f, k in result.kernels()]
    assert sorted(names) == [("a.cu", "only_a"), ("a.cu", "shared_k"), ("b.cu", "only_b")]
    shared = next(k for _, k in result.kernels() if k.name == "shared_k")
    assert shared.defined_in == "common/shared.cuh" and shared.also_through == ["b.cu"]
    assert result.stats.kernels == 3 and result.stats.analysed == 3
    # the shared header is not compiled on its own either (a.cu and b.cu include it)
    assert "common/shared.cuh" not in files_of(result)
    assert files_of(result)["b.cu"].analysed_through == {"shared_k": "a.cu"}
    from simu.report.jsonreport import scan_to_dict

    doc = json.loads(json.dumps(scan_to_dict(result)))
    jsonschema.validate(doc, json.loads((Path(simu.__file__).parent / "report/schema/scan.schema.json").read_text()))
    kd = [k for f in doc["files"] for k in f["kernels"] if k["name"] == "shared_k"]
    assert kd == [dict(kd[0], defined_in="common/shared.cuh", also_through=["b.cu"])]
    assert [f.get("analysed_through") for f in doc["files"] if f["path"] == "b.cu"] == [{"shared_k": "a.cu"}]


CONFIG_IN = """#pragma once
#cmakedefine USE_FAST_PATH
#cmakedefine01 WITH_CHECKS
#define TILE @TILE_SIZE@
#define LIMIT ${MAX_ITEMS}
#define NAME "@PROJECT_NAME@ ${PROJECT_VERSION}"
"""


def test_cmake_template_gives_a_stand_in(tmp_path):
    text = configure(CONFIG_IN)
    assert "/* #undef USE_FAST_PATH */" in text and "#define WITH_CHECKS 0" in text
    assert "#define TILE 0" in text and "#define LIMIT 0" in text and '#define NAME " "' in text
    root = write(tmp_path, {
        "CMakeLists.txt": "configure_file(config.h.in config.h)\n",
        "config.h.in": CONFIG_IN,
        "src/k.cu": '#include "config.h"\n#ifdef USE_FAST_PATH\n#error options are off\n#endif\n'
                    "__global__ void k(float *out) {\n  __shared__ float t[TILE + 32 + WITH_CHECKS];\n"
                    "  t[threadIdx.x] = 1.0f;\n  __syncthreads();\n  out[threadIdx.x] = t[31 - threadIdx.x % 32];\n}\n",
    })
    info = resolve_includes(root / "src/k.cu", [], HeaderIndex(root))
    assert info.generated == {"config.h": (root / "config.h.in").resolve()} and info.missing == []
    stand_in = info.folders[0] / "config.h"
    assert "#define TILE 0" in stand_in.read_text()
    f = files_of(run_scan(root))["src/k.cu"]
    assert f.status == "ok", f.first
    assert [k.status for k in f.kernels] == ["analysed"]
    subprocess.run(["git", "init", "-q"], cwd=root, check=True)  # the project's root for `simu check`
    r = runner.invoke(app, ["check", str(root / "src/k.cu"), "--budget", "2"])  # check discovers the same way
    assert r.exit_code in (0, 1) and "does not compile" not in r.output, r.output
    assert not (root / "config.h").exists()  # the project is never written to


def test_missing_generated_header_without_template_is_one_clear_line(tmp_path):
    root = write(tmp_path, {
        "CMakeLists.txt": "configure_file(${SRC}/gen_defs.hpp.template ${BIN}/gen_defs.hpp)\n",
        # the kernels need what the missing headers define (else a device-only slice compiles them)
        "src/k.cu": '#include "gen_defs.hpp"\n' + KERNEL.format(name="k", value="GEN_VALUE"),
        "src/other.cu": '#include "plain_missing.hpp"\n' + KERNEL.format(name="o", value="PLAIN_VALUE"),
    })
    files = files_of(run_scan(root))
    f = files["src/k.cu"]
    assert f.status == "compile-error" and "\n" not in f.first
    assert f.first.startswith("src/k.cu:1:")
    assert "'gen_defs.hpp' not found: it looks generated by the build (CMakeLists.txt mentions it)" in f.first
    assert "--compile-commands" in f.first and "-I" in f.first
    # a header that nothing suggests the build makes keeps clang's own line
    other = files["src/other.cu"]
    assert other.status == "compile-error" and "'plain_missing.hpp' file not found" in other.first


def test_a_header_in_a_discovered_folder_gets_the_spaced_launch_overlay_too(tmp_path):
    root = write(tmp_path, {
        "inc/launch.cuh": "#pragma once\n__global__ void k(float *a) { a[threadIdx.x] = 1; }\n"
                          "inline void run(float *a) { k<< <1, 32 >> >(a); }\n",
        "src/m.cu": '#include "launch.cuh"\n',
    })
    f = files_of(run_scan(root))["src/m.cu"]
    assert f.status == "ok", f.first
    assert [(k.name, k.defined_in, k.status) for k in f.kernels] == [("k", "inc/launch.cuh", "analysed")]


def test_a_fragment_whose_includer_fails_is_compiled_on_its_own(tmp_path):
    root = write(tmp_path, {
        # a library simu cannot see, which a kernel of the includer needs (no device-only slice compiles it)
        "main.cu": '#include <no_sdk/api.hpp>\n#include "parts/k.cu"\n'
                   '__global__ void uses_sdk(float *a) { a[0] = NO_SDK_SCALE; }\n',
        "parts/k.cu": KERNEL.format(name="frag_k", value="1.0f"),
    })
    result = run_scan(root)
    files = files_of(result)
    assert files["main.cu"].status == "compile-error"
    frag = files["parts/k.cu"]
    assert frag.included_by == "" and frag.status == "ok"
    assert [(k.name, k.status) for k in frag.kernels] == [("frag_k", "analysed")]
    assert any(w.startswith("parts/k.cu: compiled on its own") and "(main.cu)" in w for w in result.warnings)


def test_a_toolkit_header_the_shim_lacks_is_named_as_such_not_as_generated(tmp_path):
    """A build file that finds ``rocwmma/rocwmma.hpp`` does not name ``mma.h``, the CUDA toolkit's tensor-core
    header: the line says what the header is and how to give it."""
    root = write(tmp_path, {
        "CMakeLists.txt": "find_path(ROCWMMA NAMES rocwmma/rocwmma.hpp)\n",
        "src/k.cu": "#include <mma.h>\n" + KERNEL.format(name="k", value="nvcuda::wmma::mem_row_major"),
    })
    f = files_of(run_scan(root))["src/k.cu"]
    assert f.status == "compile-error"
    assert "'mma.h' not found: a CUDA toolkit header simu's shim does not provide; give a toolkit with --cuda-path" \
        in f.first
