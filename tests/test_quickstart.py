"""The README's Quick start, the Makefile and CI agree, and never touch the system Python
(issue #19 item 1)."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent

needs_make = pytest.mark.skipif(shutil.which("make") is None, reason="make not installed")


def _quick_start_commands() -> list[str]:
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    section = readme.split("## Quick start", 1)[1].split("\n## ", 1)[0]
    block = re.search(r"```sh\n(.*?)```", section, re.S)
    assert block, "the Quick start has a shell block"
    return [line.strip() for line in block.group(1).splitlines() if line.strip()]


def test_the_quick_start_is_two_commands_and_ci_runs_the_test_one():
    assert _quick_start_commands() == ["make demo", "make test"]
    ci = (REPO / ".ci" / "run").read_text(encoding="utf-8")
    assert re.search(r"^\s*make test\s*$", ci, re.M), ".ci/run calls the README's test command"
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    assert ".venv/" in readme and ". .venv/bin/activate" in readme


def _dry_run(*args: str) -> list[str]:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHON", "VENV", "PIP", "VHSIM", "BOOTSTRAP_PYTHON")}
    proc = subprocess.run(["make", "-n", *args], cwd=REPO, capture_output=True, text=True, env=env, check=True)
    return proc.stdout.splitlines()


@needs_make
@pytest.mark.parametrize("target", ["demo", "test"])
def test_make_uses_the_project_virtual_environment(target):
    lines = _dry_run(target, "VENV=.venv-probe")  # a folder that does not exist: creation shows
    text = "\n".join(lines)
    assert "-m venv .venv-probe" in text, "the environment is created when missing"
    pip = [line for line in lines if " -m pip install" in line]
    assert pip and all(line.startswith(".venv-probe/bin/python -m pip install") for line in pip), pip
    runs = [line for line in lines if " -m vhsim" in line or " -m pytest" in line]
    assert runs and all(line.startswith(".venv-probe/bin/python -m") for line in runs), runs
    assert not re.search(r"^python3? -m pip", text, re.M), "never pip into the system interpreter"


@needs_make
def test_python_still_overrides_the_environment():
    lines = _dry_run("demo", "PYTHON=/opt/py/bin/python")
    text = "\n".join(lines)
    assert "-m venv" not in text
    assert "/opt/py/bin/python -m pip install --verbose ." in text and "/opt/py/bin/python -m vhsim run" in text


@needs_make
@pytest.mark.parametrize("target", ["demo", "test"])
def test_the_rust_build_shows_its_progress(target):
    """pip shows the build backend's output (cargo's "Compiling <crate>" lines) only when
    verbose: the Makefile asks for it (issue #31 item 8)."""
    pip = [line for line in _dry_run(target) if " -m pip install" in line and "." in line.split()[-1]]
    assert pip and all("--verbose" in line for line in pip), pip
    quiet = [line for line in _dry_run(target, "PIP_FLAGS=") if " -m pip install" in line]
    assert quiet and not any("--verbose" in line for line in quiet)


def _externally_managed_pythons() -> list[str]:
    """Interpreters on this machine marked externally managed (PEP 668), e.g. Debian's."""
    found = []
    for candidate in ("/usr/bin/python3", shutil.which("python3") or ""):
        if not candidate or not os.access(candidate, os.X_OK) or candidate in found:
            continue
        probe = subprocess.run([candidate, "-c", "import os, sys, sysconfig; "
                                "sys.exit(sys.prefix != sys.base_prefix or not os.path.exists("
                                "os.path.join(sysconfig.get_path('stdlib'), 'EXTERNALLY-MANAGED')))"],
                               capture_output=True)
        if probe.returncode == 0:
            found.append(candidate)
    return found


@needs_make
@pytest.mark.skipif(not _externally_managed_pythons(), reason="no externally managed (PEP 668) Python here")
def test_make_works_with_an_externally_managed_python(tmp_path):
    system = _externally_managed_pythons()[0]
    # pip refuses to install into the system interpreter itself ...
    refused = subprocess.run([system, "-m", "pip", "install", "--dry-run", "--no-index", "vhsim"],
                             capture_output=True, text=True)
    if "No module named pip" in refused.stderr:
        pytest.skip(f"{system} has no pip")
    assert refused.returncode != 0 and "externally-managed-environment" in refused.stderr
    # ... while the Makefile's environment made from it accepts what `make install` does.
    venv = tmp_path / "venv"
    made = subprocess.run(["make", "venv", f"BOOTSTRAP_PYTHON={system}", f"VENV={venv}"], cwd=REPO,
                          capture_output=True, text=True, timeout=300)
    if made.returncode != 0 and "cannot create virtual environments" in made.stderr:
        pytest.skip(f"{system} has no venv module (python3-venv) and uv is not installed")
    assert made.returncode == 0, made.stderr
    assert (venv / ".created").is_file()
    inside = subprocess.run([str(venv / "bin" / "python"), "-m", "pip", "install", "--dry-run", "--no-index",
                             "vhsim-no-such-package"], capture_output=True, text=True)
    assert "externally-managed-environment" not in inside.stderr
    assert "No matching distribution" in inside.stderr, inside.stderr
