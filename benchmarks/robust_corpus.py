#!/usr/bin/env python3
"""The 10,000 generated kernels of the robustness run (`simu bench --suite robustness`), in ten folders of 1,000.

Seeds 900000 + i; languages alternate (OpenCL, CUDA); modes round-robin over every mode (``warp`` is CUDA only:
``all`` in its OpenCL turns); a random planted bug in three files of four, none in the fourth; every third with
EMI dead code.  Deterministic: the same files on every machine.

    python benchmarks/robust_corpus.py OUT
    for c in OUT/chunk*; do simu bench --suite robustness --corpus $c --budget 0.5 -j 2 --format json; done
"""

from __future__ import annotations

import sys
from pathlib import Path

from simu import generate
from simu.generate.model import APPLICABLE, MODES


def main(out: Path, count: int = 10_000, per_folder: int = 1_000) -> int:
    modes = [m for m in MODES if APPLICABLE.get(m)]
    for i in range(count):
        lang = "opencl" if i % 2 == 0 else "cuda"
        mode = modes[(i // 2) % len(modes)]
        if mode == "warp" and lang == "opencl":
            mode = "all"
        plant = "none" if i % 4 == 3 else "random"
        try:
            k = generate.kernel(900000 + i, mode, lang, plant, emi=(i % 3 == 0))
        except generate.GenerateError:  # no plant applies to this mode and language
            k = generate.kernel(900000 + i, mode, lang, "none", emi=(i % 3 == 0))
        folder = out / f"chunk{i // per_folder:02d}"
        folder.mkdir(parents=True, exist_ok=True)
        (folder / f"{k.name}_{lang}{k.suffix}").write_text(k.source)
    return count


if __name__ == "__main__":
    print(main(Path(sys.argv[1])), "files")
