"""Decoded modules kept on disk (simu/ir/snapshot.py): a module read back is the module decoded, and only the
user's own folder is ever read."""

from __future__ import annotations

import json
import os
import pickle
from pathlib import Path

import pytest
from typer.testing import CliRunner

from simu.cli import app
from simu.frontend.compile import CompileOptions, compile_file
from simu.ir.module import load_module
from simu.ir.snapshot import DecodedStore, decoded_module, module_key, private_store

CORPUS = Path(__file__).resolve().parent.parent / "corpus"
FILES = sorted(p for p in [*CORPUS.glob("cuda/*.cu"), *CORPUS.glob("opencl/*.cl")])


def _decoded(module):
    for fn in module.functions.values():
        if not fn.is_declaration:
            _ = fn.blocks
    return module


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_a_module_read_back_is_the_module_decoded(path, tmp_path):
    compiled = compile_file(path, CompileOptions())
    args = (compiled.ir, str(path), compiled.language, compiled.param_names)
    fresh = _decoded(load_module(*args))
    store = DecodedStore(tmp_path, "salt")
    decoded_module(*args, store)  # decoded, kept
    assert store.get(module_key(*args)) is not None
    read = decoded_module(*args, store)  # read back
    assert [k.name for k in read.kernels] == [k.name for k in fresh.kernels]
    for kr, kf in zip(read.kernels, fresh.kernels, strict=True):
        assert kr.params == kf.params
        assert kr.function is read.functions[kr.function.name]  # one object, as decoding makes it
    assert read.functions.keys() == fresh.functions.keys()
    for name, fn in fresh.functions.items():
        other = read.functions[name]
        assert (other.args, other.is_kernel, other.is_declaration) == (fn.args, fn.is_kernel, fn.is_declaration)
        if not fn.is_declaration:
            assert other.blocks == fn.blocks and other.rpo == fn.rpo
    assert repr(read.globals) == repr(fresh.globals)


def test_a_check_answered_from_the_store_reports_what_a_decoded_module_does(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    source = CORPUS / "cuda" / "reduce_shared.cu"
    args = ["check", str(source), "--grid", "4", "--block", "256", "--arg", "n=1000", "--format", "json"]
    runs = [CliRunner().invoke(app, args) for _ in range(2)]
    assert (tmp_path / "cache" / "simu" / "decoded" / "decoded.sqlite3").is_file()
    reports = [json.loads(r.stdout)["files"][0]["kernels"] for r in runs]
    assert runs[0].exit_code == runs[1].exit_code
    assert [(k["status"], k["findings"]) for k in reports[0]] == [(k["status"], k["findings"]) for k in reports[1]]


def test_only_a_folder_of_the_user_s_own_is_read(tmp_path):
    shared = tmp_path / "decoded"
    shared.mkdir()
    shared.chmod(0o777)
    assert private_store(shared, "salt") is None  # another user could have put a pickle there
    shared.chmod(0o700)
    assert private_store(shared, "salt") is not None


def test_an_entry_this_code_cannot_read_is_decoded_again(tmp_path):
    source = CORPUS / "opencl" / "reduction_local.cl"
    compiled = compile_file(source, CompileOptions())
    args = (compiled.ir, str(source), compiled.language, compiled.param_names)
    store = DecodedStore(tmp_path, "salt")
    store.put(module_key(*args), pickle.dumps({"not": "a module"}))
    module = decoded_module(*args, store)
    assert [k.name for k in module.kernels] == [k.name for k in load_module(*args).kernels]
    assert os.path.getsize(tmp_path / "decoded.sqlite3") > 0
