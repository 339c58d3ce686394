"""simu.generate: deterministic kernels whose headers parse, that compile, and whose labels simu agrees with."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from simu import generate
from simu.bench.corpus import check_corpus_file, parse
from simu.generate.model import APPLICABLE, GenerateError

LANG_MODES = [(lang, m) for lang in ("opencl", "cuda") for m in generate.MODES if m != "warp" or lang == "cuda"]


def _write(tmp_path: Path, k: generate.GeneratedKernel) -> Path:
    f = tmp_path / k.filename
    f.write_text(k.source)
    return f


def test_same_seed_same_kernel():
    for mode in ("basic", "barrier", "all"):
        a = generate.kernel(11, mode, "opencl", "random", emi=True)
        b = generate.kernel(11, mode, "opencl", "random", emi=True)
        assert a == b
        assert generate.kernel(12, mode).source != generate.kernel(11, mode).source


def test_emi_keeps_the_kernel_around_the_dead_code():
    plain = generate.kernel(5, "barrier", "cuda")
    dead = generate.kernel(5, "barrier", "cuda", emi=True)
    kept = [ln for i, ln in enumerate(dead.source.splitlines(), 1) if i not in dead.emi_lines]
    assert dead.emi_lines and "emi_guard < 0" in dead.source
    strip = re.compile(r", const int emi_guard| ?emi_guard=1|emi=\d")  # the extra argument and header words
    assert [strip.sub("", ln) for ln in kept] == [strip.sub("", ln) for ln in plain.source.splitlines()]


@pytest.mark.parametrize(("lang", "mode"), LANG_MODES)
def test_headers_parse_for_every_plant(tmp_path, lang, mode):
    for plant in ("none", *APPLICABLE[mode]):
        k = generate.kernel(3, mode, lang, plant)
        lines = k.source.splitlines()
        assert lines[0] == f"// generated: seed=3 mode={mode} lang={lang} plant={plant} emi=0"
        cf = parse(_write(tmp_path, k))
        assert cf.clean == (plant == "none") and len(cf.expectations) == len(k.expectations)
        assert len(cf.launches) == 1 and cf.constraints is not None
        for e in cf.expectations:  # the labelled lines are the planted statements, not comments
            assert all(lines[n - 1].strip() and not lines[n - 1].lstrip().startswith("//") for n in e.lines)


def test_bad_choices_are_clear_errors():
    with pytest.raises(GenerateError, match="CUDA only"):
        generate.kernel(1, "warp", "opencl")
    with pytest.raises(GenerateError, match="does not apply"):
        generate.kernel(1, "basic", "opencl", "drop-barrier")
    with pytest.raises(GenerateError, match="unknown plant"):
        generate.kernel(1, "basic", "opencl", "bogus")


def test_random_plant_is_one_that_applies():
    for seed in range(20):
        k = generate.kernel(seed, "vector", "opencl", "random")
        assert k.plant in APPLICABLE["vector"] and k.expectations


# -- labels: simu must agree (the launch in the header is given) ------------------------------------------
OPENCL_SAMPLE = [(m, p) for m in generate.MODES if m != "warp" for p in ("none", *APPLICABLE[m])]
CUDA_SAMPLE = [("warp", "none"), ("warp", "warp-no-syncwarp"), ("barrier", "drop-barrier"), ("all", "none"),
               ("atomic-section", "drop-barrier"), ("vector", "out-of-bounds"), ("basic", "inter-block"),
               ("atomic-reduction", "non-injective")]


@pytest.mark.parametrize(("mode", "plant"), OPENCL_SAMPLE)
def test_opencl_labels_hold(tmp_path, mode, plant):
    f = _write(tmp_path, generate.kernel(21, mode, "opencl", plant))
    v = check_corpus_file(f)
    assert v.ok, (v.status, v.reason, [e.text for e in v.missing], [u.message for u in v.unexpected])


@pytest.mark.parametrize(("mode", "plant"), CUDA_SAMPLE)
def test_cuda_labels_hold(tmp_path, mode, plant):
    f = _write(tmp_path, generate.kernel(22, mode, "cuda", plant))
    model = "independent" if plant == "warp-no-syncwarp" else "lockstep"
    v = check_corpus_file(f, model=model)
    assert v.ok, (v.status, v.reason, [e.text for e in v.missing], [u.message for u in v.unexpected])


def _findings(tmp_path: Path, k: generate.GeneratedKernel) -> set[tuple]:
    """Every finding simu reports for ``k`` as (kind, space, access, texts of its lines): the labels are
    turned into notes (same line count), so nothing is expected and every finding comes back."""
    text = "\n".join(re.sub(r"^// expect", "// note", ln) for ln in k.source.splitlines()) + "\n"
    f = tmp_path / ("unlabelled_" + k.filename)
    f.write_text(text)
    src = text.splitlines()
    v = check_corpus_file(f)
    assert v.status == "analysed"
    return {(u.kind, u.space, u.detail.get("access"),
             tuple(sorted({src[loc.line - 1].strip() for loc in u.all_locations}))) for u in v.unexpected}


@pytest.mark.parametrize(("mode", "plant", "seed"), [("barrier", "drop-barrier", 1), ("all", "none", 2),
                                                      ("atomic-section", "inter-block", 3),
                                                      ("basic", "redundant-barrier", 4),
                                                      ("atomic-reduction", "divergent-barrier", 5)])
def test_emi_does_not_change_the_verdict(tmp_path, mode, plant, seed):
    plain = generate.kernel(seed, mode, "opencl", plant)
    dead = generate.kernel(seed, mode, "opencl", plant, emi=True)
    assert dead.emi_lines
    assert _findings(tmp_path, plain) == _findings(tmp_path, dead)
    assert check_corpus_file(_write(tmp_path, dead)).ok


def test_cli_writes_n_files_deterministically(tmp_path):
    from typer.testing import CliRunner

    from simu.cli import app

    runner = CliRunner()
    for out in ("a", "b"):
        res = runner.invoke(app, ["generate", "-o", str(tmp_path / out), "-n", "4", "--seed", "7",
                                  "--mode", "barrier", "--plant", "random", "--emi"])
        assert res.exit_code == 0, res.output
    names = sorted(p.name for p in (tmp_path / "a").iterdir())
    assert len(names) == 4 and all(re.fullmatch(r"gen_barrier_[a-z-]+_\d+\.cl", n) for n in names)
    assert names == sorted(p.name for p in (tmp_path / "b").iterdir())
    assert all((tmp_path / "a" / n).read_text() == (tmp_path / "b" / n).read_text() for n in names)
    assert (tmp_path / "a" / names[0]).read_text() == generate.kernel(
        int(names[0].rsplit("_", 1)[1][:-3]), "barrier", "opencl", "random", emi=True).source


@pytest.mark.parametrize("args", [["--mode", "warp"], ["--mode", "basic", "--plant", "drop-barrier"],
                                  ["--lang", "fortran"], ["-n", "-1"]])
def test_cli_bad_options_exit_2(tmp_path, args):
    from typer.testing import CliRunner

    from simu.cli import app

    res = CliRunner().invoke(app, ["generate", "-o", str(tmp_path / "x"), *args])
    assert res.exit_code == 2 and "Traceback" not in res.output


def test_simu_runs_a_64_bit_multiply_by_a_constant_at_O0(tmp_path):
    f = tmp_path / "mul64.cl"
    f.write_text("// expect: clean\n"
                 "// launch: grid=1 block=32 n=32 a=uint32:32 out=uint32:32\n"
                 "__kernel void k(__global const uint *a, __global uint *out, const uint n)\n"
                 "{ const uint gid = get_global_id(0); ulong h = (ulong)a[gid] * 3ull; out[gid] = (uint)(h >> 7); }\n")
    v = check_corpus_file(f)
    assert v.status == "analysed" and v.ok
