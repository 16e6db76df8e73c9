"""`make install-pgo`'s script and training runs (tools/pgo-build.sh, tools/pgo_train.py): the
training runs still load and run with the current scenario files, and a missing llvm-profdata
is a clear error before anything is built. (The profile-guided build itself takes minutes and
a toolchain component; docs/performance.md "A profile-guided build" measures it.)"""

import importlib.util
import os
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "tools" / "pgo-build.sh"


def test_the_training_runs_run_with_this_build():
    spec = importlib.util.spec_from_file_location("pgo_train", ROOT / "tools" / "pgo_train.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    module.main()


def test_the_script_is_valid_bash():
    subprocess.run(["bash", "-n", str(SCRIPT)], check=True)


def test_a_missing_llvm_profdata_is_a_clear_error_before_any_build(tmp_path):
    env = dict(os.environ, LLVM_PROFDATA=str(tmp_path / "no-such-llvm-profdata"), PGO_DIR=str(tmp_path / "pgo"))
    out = subprocess.run(["bash", str(SCRIPT)], env=env, capture_output=True, text=True)
    assert out.returncode == 1
    assert "llvm-profdata not found" in out.stderr and "rustup component add llvm-tools" in out.stderr
    assert not (tmp_path / "pgo" / "target").exists()
