"""What the generator hands back: one generated kernel file and the names of its modes and plants."""

from __future__ import annotations

from dataclasses import dataclass, field

MODES = ("basic", "vector", "barrier", "atomic-section", "atomic-reduction", "all", "warp")
PLANTS = ("none", "drop-barrier", "non-injective", "divergent-barrier", "inter-block", "redundant-barrier",
          "out-of-bounds", "warp-no-syncwarp")
LANGS = ("opencl", "cuda")

# Which plants each mode can carry (``none`` everywhere).  ``drop-barrier`` needs barrier-separated phases,
# ``warp-no-syncwarp`` a warp-synchronous exchange (CUDA ``warp`` mode only).
_COMMON = ("non-injective", "divergent-barrier", "inter-block", "redundant-barrier", "out-of-bounds")
APPLICABLE: dict[str, tuple[str, ...]] = {
    "basic": _COMMON,
    "vector": _COMMON,
    "barrier": ("drop-barrier", *_COMMON),
    "atomic-section": ("drop-barrier", *_COMMON),
    "atomic-reduction": ("drop-barrier", *_COMMON),
    "all": ("drop-barrier", *_COMMON),
    "warp": ("warp-no-syncwarp", *_COMMON),
}


class GenerateError(ValueError):
    """A mode, language or plant the generator cannot honour (the message says which and why)."""


@dataclass
class GeneratedKernel:
    """One generated kernel file: its text, its launch and the findings simu must report for it."""

    source: str
    name: str
    lang: str
    mode: str
    plant: str
    seed: int
    emi: bool
    suffix: str
    expectations: list[str] = field(default_factory=list)  # expect-line bodies; empty = clean
    expect_configs: list[str] = field(default_factory=list)  # per expectation: "" or e.g. "independent"
    launch: str = ""  # the body of the `// launch:` line
    constrain: str = ""  # the body of the `// constrain:` line (what the search must honour)
    emi_lines: list[int] = field(default_factory=list)  # 1-based lines of dead code EMI inserted

    @property
    def clean(self) -> bool:
        return not self.expectations

    @property
    def filename(self) -> str:
        return f"gen_{self.mode}_{self.plant}_{self.seed}{self.suffix}"


def check_choice(mode: str, lang: str, plant: str) -> None:
    """Raise :class:`GenerateError` unless ``plant`` (a name, not ``random``) applies to ``mode`` in ``lang``."""
    if lang not in LANGS:
        raise GenerateError(f"unknown language '{lang}' (expected one of {', '.join(LANGS)})")
    if mode not in MODES:
        raise GenerateError(f"unknown mode '{mode}' (expected one of {', '.join(MODES)})")
    if mode == "warp" and lang != "cuda":
        raise GenerateError("mode 'warp' is CUDA only (use --lang cuda)")
    if plant not in PLANTS and plant != "random":
        raise GenerateError(f"unknown plant '{plant}' (expected one of {', '.join(PLANTS)} or random)")
    if plant not in ("none", "random") and plant not in APPLICABLE[mode]:
        fits = ", ".join(m for m in MODES if plant in APPLICABLE[m])
        raise GenerateError(f"plant '{plant}' does not apply to mode '{mode}' (it applies to: {fits})")
