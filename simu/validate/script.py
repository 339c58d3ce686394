"""Emit a standalone Python script that reproduces a finding's launch on any device.

The script embeds the kernel source, the launch (grid, block, scalar values) and the buffer
specs; it regenerates every buffer exactly as simu did (numpy's PCG64 generator positioned at the
recorded state, or base64 data for small buffers), runs the kernel and prints (or saves) the
output buffers.  OpenCL scripts need numpy and pyopencl; CUDA scripts numpy and CuPy.
"""

from __future__ import annotations

import base64
import hashlib
import pprint
from dataclasses import asdict
from pathlib import Path
from typing import Any

import numpy as np

from simu.detect.finding import Finding
from simu.launch.buffers import buffer_from_spec
from simu.launch.graphs import GRAPH_FILLS
from simu.launch.record import LaunchRecord, record_of

__all__ = ["emit_replay_script", "script_for_launch"]


def _literal(text: str) -> str:
    """A Python literal for a source text: a raw triple-quoted string when possible."""
    if "'''" not in text and not text.endswith("\\") and "\r" not in text:
        return "r'''" + text + "'''"
    return repr(text)


def _docsafe(text: str) -> str:
    """Text that can sit inside the script's docstring."""
    return text.replace("\\", "/").replace('"' * 3, "'" * 3)


def _digest(arr: np.ndarray) -> str:
    return hashlib.sha256(np.ascontiguousarray(arr).tobytes()).hexdigest()


def emit_replay_script(finding: Finding | dict[str, Any], source_path: str | Path | None = None, *,
                       expected: bool = True) -> str:
    """The text of a standalone replay script for ``finding`` (its launch record, its kernel).

    ``source_path`` defaults to the finding's first source location.  With ``expected`` the
    script also carries the SHA-256 of simu's own output buffers for the launch, and says
    whether the device reproduced them.  A launch whose buffers hold device pointers (a struct's pointer members,
    an array of pointers) raises a SimuError that says the script cannot rebuild it.
    """
    from simu.validate.core import simulate
    from simu.validate.devices import refuse_pointers
    from simu.validate.replay import launch_from_record
    from simu.validate.targets import load_target

    f = Finding.from_dict(finding) if isinstance(finding, dict) else finding
    path = Path(source_path or (f.first.file if f.first else ""))
    if not path.is_file():
        raise FileNotFoundError(f"kernel source {str(path)!r} not found: give source_path")
    if f.launch is None:
        raise ValueError("the finding has no launch record")
    target = load_target(path, f.kernel)
    rl = launch_from_record(f.launch, target.kernel)
    refuse_pointers(rl.launch)  # the script passes each parameter as one buffer or value
    digests: dict[str, str] = {}
    if expected:
        out, _, _ = simulate(target, rl.launch)
        if out is not None:
            digests = {n: _digest(v) for n, v in out.items()}
    where = f"{f.first.file}:{f.first.line}" if f.first else str(path)
    title = f"{f.kind} in kernel {f.kernel} ({where})"
    return script_for_launch(target.source, target.language, target.info, record_of(rl.launch), title=title,
                             message=f.message, expected=digests, exact=rl.exact,
                             build_options=target.build_options)


def _standalone(spec: dict[str, Any]) -> dict[str, Any]:
    """A spec the script regenerates by itself: graph contents (:mod:`simu.launch.graphs`) written out as data."""
    if spec.get("fill") not in GRAPH_FILLS:
        return spec
    arr = buffer_from_spec(spec)
    return {"dtype": str(arr.dtype), "length": int(arr.size), "fill": "data",
            "base64": base64.b64encode(arr.tobytes()).decode()}


def script_for_launch(source: str, language: str, info, record: LaunchRecord, *, title: str = "", message: str = "",
                      expected: dict[str, str] | None = None, exact: bool = True, build_options: str = "") -> str:
    """The replay script for one launch (``info``: :class:`simu.validate.devices.KernelInfo`)."""
    rec = asdict(record)
    message = _docsafe(message)
    title = _docsafe(title)
    buffers = {n: _standalone(s) for n, s in rec["buffers"].items() if "local_bytes" not in s}
    local = {n: int(s["local_bytes"]) for n, s in rec["buffers"].items() if "local_bytes" in s}
    head = f'''#!/usr/bin/env python3
"""simu replay: {title or info.name}

{message}

Kernel {info.name!r} with grid {tuple(rec["grid"])} and block {tuple(rec["block"])} (blocks/work-groups
and threads/work-items per block), warp size {rec["warp_size"]}, seed {rec["seed"]}.
{"Buffers are regenerated exactly as simu generated them." if exact else
 "WARNING: the buffer contents were not recorded; they are regenerated from the seed as simu's default."}

Usage: python {'this_script.py'} [--device SUBSTRING] [--runs N] [--save outputs.npz]
Needs numpy and {"pyopencl" if language == "opencl" else "CuPy"}.
"""
'''
    data = {
        "LANGUAGE": language,
        "KERNEL": info.name,
        "MANGLED": info.mangled,
        "GRID": tuple(rec["grid"]),
        "BLOCK": tuple(rec["block"]),
        "DYNAMIC_SHARED": int(rec["dynamic_shared"]),
        "PARAMS": info.params,
        "SCALARS": rec["scalars"],
        "BUFFERS": buffers,
        "LOCAL_BYTES": local,
        "BUILD_OPTIONS": build_options if language == "opencl" else "",
        "EXPECTED_SHA256": expected or {},
    }
    consts = "\n".join(f"{k} = {pprint.pformat(v, width=110, sort_dicts=False)}" for k, v in data.items())
    return head + _BODY_IMPORTS + f"SOURCE = {_literal(source)}\n\n" + consts + "\n" + _BODY


_BODY_IMPORTS = '''
import argparse
import base64
import base64
import hashlib
import sys

import numpy as np

'''

_BODY = r'''

def rng_from_state(state):
    """numpy's PCG64 generator at a state recorded by simu (simu.launch.buffers.rng_state)."""
    rng = np.random.default_rng(0)
    rng.bit_generator.state = {"bit_generator": "PCG64",
                               "state": {"state": int(str(state["state"]), 0), "inc": int(str(state["inc"]), 0)},
                               "has_uint32": int(state.get("has_uint32", 0)), "uinteger": int(state.get("uinteger", 0))}
    return rng


def default_range(dtype):
    if dtype.kind == "f":
        return -1.0, 1.0
    if dtype.kind == "u":
        return 0, 100
    return -100, 100


def make_buffer(spec):
    """The initial contents of a buffer, exactly as simu.launch.buffers.buffer_from_spec makes them."""
    dtype = np.dtype(spec["dtype"])
    fill = spec.get("fill")
    if fill == "data":
        arr = np.frombuffer(bytearray(base64.b64decode(spec["base64"])), dtype)
        return arr.reshape(spec["shape"]) if spec.get("shape") else arr
    n = int(spec["length"])
    if fill == "zeros":
        arr = np.zeros(n, dtype)
    elif fill == "ones":
        arr = np.ones(n, dtype)
    elif fill == "const":
        arr = np.full(n, spec.get("value", 0), dtype)
    elif fill == "ramp":
        modulo = spec.get("modulo")
        if modulo is None:
            modulo = np.iinfo(dtype).max if dtype.kind in "iu" and dtype.itemsize == 1 else 1 << 62
        arr = (np.arange(n) % int(modulo)).astype(dtype)
    elif fill == "random":
        rng = rng_from_state(spec["rng"]) if spec.get("rng") else np.random.default_rng(int(spec["seed"]))
        lo, hi = default_range(dtype)
        lo, hi = spec.get("low", lo), spec.get("high", hi)
        if dtype.kind == "f":
            arr = rng.uniform(lo, hi, n).astype(dtype)
        else:
            arr = rng.integers(int(lo), int(hi), n).astype(dtype)
    else:
        raise SystemExit(f"buffer fill {fill!r} cannot be regenerated")
    return arr.reshape(spec["shape"]) if spec.get("shape") else arr


def scalar_value(p, value):
    if p["kind"] == "vector":
        vals = list(np.asarray(value).reshape(-1))
        if len(vals) == 1:
            vals = vals * p["count"]
        count = 4 if p["count"] == 3 else p["count"]
        vals = vals + [0] * (count - len(vals))
        return np.array(vals, dtype=p["dtype"])
    dt = np.dtype(p.get("dtype") or ("float32" if isinstance(value, float) else "int32"))
    if dt.kind in "iu":
        v = int(value) & ((1 << (8 * dt.itemsize)) - 1)
        return np.array(v, dtype="u%d" % dt.itemsize).view(dt)[()]
    return dt.type(value)


GUARD = 4096  # zero bytes after every buffer, so that an out-of-bounds access stays in our memory


def padded(arr):
    flat = np.ascontiguousarray(arr).reshape(-1)
    out = np.zeros(flat.size + -(-GUARD // flat.dtype.itemsize), flat.dtype)
    out[:flat.size] = flat
    return out


def run_opencl(device):
    import warnings

    import pyopencl as cl

    found = []
    for platform in cl.get_platforms():
        for dev in platform.get_devices():
            found.append((platform, dev))
    if not found:
        raise SystemExit("no OpenCL device")
    chosen = None
    for platform, dev in found:
        name = f"{platform.name} {dev.name}".lower()
        if (device is None and ("portable computing language" in name or "pocl" in name)) or \
                (device is not None and device.lower() in name):
            chosen = (platform, dev)
            break
    if chosen is None:
        if device is not None:
            known = "; ".join(f"{p.name}: {d.name}" for p, d in found)
            raise SystemExit(f"no OpenCL device matches {device!r}: {known}")
        chosen = found[0]
    platform, dev = chosen
    ctx = cl.Context([dev])
    queue = cl.CommandQueue(ctx, dev)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        program = cl.Program(ctx, SOURCE).build(options=BUILD_OPTIONS)
    kernel = cl.Kernel(program, KERNEL)
    label = f"{platform.name}: {dev.name}"

    def launch():
        hosts, args, bufs = {}, [], []
        for p in PARAMS:
            name = p["name"]
            if p["kind"] == "local":
                args.append(cl.LocalMemory(LOCAL_BYTES[name]))
            elif p["kind"] == "buffer":
                init = make_buffer(BUFFERS[name])
                host = padded(init)
                buf = cl.Buffer(ctx, cl.mem_flags.READ_WRITE | cl.mem_flags.COPY_HOST_PTR, hostbuf=host)
                hosts[name] = (init, host, buf)
                args.append(buf)
                bufs.append(buf)
            else:
                args.append(scalar_value(p, SCALARS[name]))
        kernel.set_args(*args)
        gsize = [g * b for g, b in zip(GRID, BLOCK)]
        dims = max([i + 1 for i, s in enumerate(gsize) if s != 1] or [1])
        cl.enqueue_nd_range_kernel(queue, kernel, tuple(gsize[:dims]), tuple(BLOCK[:dims]))
        out = {}
        for name, (init, host, buf) in hosts.items():
            cl.enqueue_copy(queue, host, buf, is_blocking=True)
            out[name] = host[:init.size].reshape(init.shape).copy()
        queue.finish()
        for b in bufs:
            b.release()
        return out

    return label, launch


def run_cuda(device):
    import cupy as cp

    try:  # the user's source as it is, through NVRTC; the name expression instantiates templates
        module = cp.RawModule(code=SOURCE, options=("-std=c++17",), name_expressions=[KERNEL])
        fn = module.get_function(KERNEL)
    except Exception as exc:  # NVRTC cannot compile host code that needs the full runtime headers
        import os
        import shutil
        import subprocess
        import tempfile

        nvcc = shutil.which("nvcc")
        if nvcc is None and os.path.exists("/usr/local/cuda/bin/nvcc"):
            nvcc = "/usr/local/cuda/bin/nvcc"
        if nvcc is None or not MANGLED:
            raise SystemExit(f"NVRTC could not compile the kernel and there is no nvcc: {exc}")
        tmp = tempfile.mkdtemp(prefix="simu-replay-")
        with open(os.path.join(tmp, "k.cu"), "w") as fh:  # taking the kernel's address instantiates a template
            fh.write(SOURCE + f"\nvoid *__simu_instantiate_kernel = (void *)&({KERNEL});\n")
        arch = cp.cuda.Device().compute_capability
        proc = subprocess.run([nvcc, "-cubin", f"-arch=sm_{arch}", "-o", os.path.join(tmp, "k.cubin"),
                               os.path.join(tmp, "k.cu")], capture_output=True, text=True)
        if proc.returncode != 0:
            raise SystemExit(f"neither NVRTC nor nvcc compiled the kernel:\n{exc}\n{proc.stderr}")
        module = cp.RawModule(path=os.path.join(tmp, "k.cubin"))
        fn = module.get_function(MANGLED)
    props = cp.cuda.runtime.getDeviceProperties(cp.cuda.runtime.getDevice())
    name = props["name"].decode() if isinstance(props["name"], bytes) else str(props["name"])

    def launch():
        hosts, args = {}, []
        for p in PARAMS:
            pname = p["name"]
            if p["kind"] == "buffer":
                init = make_buffer(BUFFERS[pname])
                d = cp.asarray(padded(init))
                hosts[pname] = (init, d)
                args.append(d)
            else:
                args.append(scalar_value(p, SCALARS[pname]))
        fn(GRID, BLOCK, tuple(args), shared_mem=DYNAMIC_SHARED)
        cp.cuda.Device().synchronize()
        return {n: cp.asnumpy(d)[:init.size].reshape(init.shape) for n, (init, d) in hosts.items()}

    return "CUDA: " + name, launch


def same(a, b, exact=False):
    """Equal outputs: integers bit for bit, floats within |a - b| <= 1e-6 + 1e-5 |b| unless exact."""
    for name in a:
        x, y = np.asarray(a[name]).reshape(-1), np.asarray(b[name]).reshape(-1)
        if exact or x.dtype.kind != "f":
            if x.tobytes() != y.tobytes():
                return False
            continue
        xf, yf = x.astype(np.float64), y.astype(np.float64)
        with np.errstate(all="ignore"):
            ok = (np.abs(xf - yf) <= 1e-6 + 1e-5 * np.abs(yf)) | (np.isnan(xf) & np.isnan(yf)) | (xf == yf)
        if not ok.all():
            return False
    return True


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--device", help="substring of the OpenCL 'platform device' name (default: PoCL)")
    ap.add_argument("--runs", type=int, default=1, help="launch this many times and compare the outputs")
    ap.add_argument("--save", help="write the output buffers of the first run to this .npz file")
    ap.add_argument("--quiet", action="store_true", help="print only the summary line")
    ap.add_argument("--exact", action="store_true", help="compare runs bit for bit (default: floats within 1e-5)")
    opts = ap.parse_args(argv)
    label, launch = (run_opencl if LANGUAGE == "opencl" else run_cuda)(opts.device)
    results = [launch() for _ in range(max(opts.runs, 1))]
    first = results[0]
    if not opts.quiet:
        print(f"device: {label}")
        for name, arr in first.items():
            digest = hashlib.sha256(np.ascontiguousarray(arr).tobytes()).hexdigest()
            want = EXPECTED_SHA256.get(name)
            mark = "" if want is None else ("  (= simu)" if want == digest else "  (differs from simu)")
            print(f"{name}: {arr.dtype} x {arr.size}  sha256 {digest[:16]}{mark}  first values {arr.reshape(-1)[:8]}")
    differing = sum(1 for r in results[1:] if not same(r, first, opts.exact))
    matches = all(hashlib.sha256(np.ascontiguousarray(first[n]).tobytes()).hexdigest() == h
                  for n, h in EXPECTED_SHA256.items() if n in first) if EXPECTED_SHA256 else None
    print(f"runs: {len(results)}, runs differing from the first: {differing}, "
          f"matches simu: {'n/a' if matches is None else 'yes' if matches else 'no'}")
    if opts.save:
        np.savez(opts.save, **first)
        print(f"wrote {opts.save}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
'''
