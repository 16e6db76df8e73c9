"""Another revision of vhsim, built for ``vhsim bench --compare REV``.

The revision is checked out in a git worktree under ``target/bench-compare/`` of the
repository (ignored by git) and its native module is built with cargo's release profile, the
revision's own (its ``Cargo.toml``) or, with ``same_settings``, this revision's LTO and
codegen-unit settings (so that only the code differs). The build is kept, keyed by commit and
settings, so a second comparison with the same revision starts at once. The benchmark then
puts the worktree's ``python/`` first on the worker's path and runs the worktree's own
benchmark scenarios (:class:`vhsim.bench.Build`).
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path
from typing import Callable

try:
    import tomllib
except ModuleNotFoundError:  # Python < 3.11
    import tomli as tomllib  # type: ignore[no-redef]

from .bench import Build

__all__ = ["build_revision", "release_settings"]


def _git(root: Path, *args: str) -> str:
    proc = subprocess.run(["git", "-C", os.fspath(root), *args], capture_output=True, text=True)
    if proc.returncode != 0:
        raise RuntimeError(f"git {' '.join(args)}: {proc.stderr.strip() or proc.stdout.strip()}")
    return proc.stdout.strip()


def release_settings(root: Path) -> dict[str, str]:
    """The release profile's LTO and codegen units of the checkout at ``root``, as cargo's
    environment overrides (``CARGO_PROFILE_RELEASE_LTO``, ``..._CODEGEN_UNITS``)."""
    profile = tomllib.loads((root / "Cargo.toml").read_text()).get("profile", {}).get("release", {})
    out = {}
    if "lto" in profile:
        lto = profile["lto"]
        out["CARGO_PROFILE_RELEASE_LTO"] = str(lto).lower() if isinstance(lto, bool) else str(lto)
    if "codegen-units" in profile:
        out["CARGO_PROFILE_RELEASE_CODEGEN_UNITS"] = str(profile["codegen-units"])
    return out


def build_revision(root: str | os.PathLike[str], rev: str, same_settings: bool = False,
                   on_step: Callable[[str], None] | None = None) -> Build:
    """Build revision ``rev`` of the repository at ``root`` (release profile); returns the
    build for :func:`vhsim.bench.run_bench`. Raises RuntimeError with git's or cargo's
    message if the revision is unknown or does not build."""
    step = on_step or (lambda _m: None)
    root = Path(root).resolve()
    sha = _git(root, "rev-parse", "--verify", f"{rev}^{{commit}}")
    settings = release_settings(root) if same_settings else {}
    tag = sha[:12] + ("-same-settings" if same_settings else "")
    base = root / "target" / "bench-compare"
    tree = base / f"src-{tag}"
    module = tree / "python" / "vhsim" / "_native.abi3.so"
    label = f"{rev} ({sha[:9]}" + (", this revision's build settings)" if same_settings else ")")
    if module.is_file():
        return Build(label, os.fspath(tree / "python"), os.fspath(tree))
    if not tree.exists():
        step(f"checking out {sha[:9]} in {tree}")
        base.mkdir(parents=True, exist_ok=True)
        _git(root, "worktree", "add", "--detach", os.fspath(tree), sha)
    step(f"building {sha[:9]} (release profile; a few minutes)")
    target = base / f"target-{tag}"
    env = {**os.environ, "CARGO_TARGET_DIR": os.fspath(target), **settings}
    cmd = ["cargo", "build", "--release", "--manifest-path", os.fspath(tree / "crates" / "vhsim-py" / "Cargo.toml"),
           "--features", "pyo3/extension-module"]
    proc = subprocess.run(cmd, env=env, capture_output=True, text=True)
    if proc.returncode != 0:
        tail = "\n".join(proc.stderr.strip().splitlines()[-5:])
        raise RuntimeError(f"building {rev} failed:\n{tail}")
    shutil.copyfile(target / "release" / "lib_native.so", module)
    return Build(label, os.fspath(tree / "python"), os.fspath(tree))
