# vhsim -- common tasks.  `make demo`, `make test`, `make bench`.
#
# Everything runs in a project-local virtual environment, .venv/ (created on first use with
# `python3 -m venv`, or with uv when the system Python has no venv module), never in the system
# interpreter: that works on distributions whose Python is "externally managed" (PEP 668) and
# installs nothing into your own environment.  Activate it with `. .venv/bin/activate`.
#
#   make demo PYTHON=/path/to/python   use that interpreter (and its environment) instead
#   make demo VENV=/tmp/vhsim-venv      put the virtual environment elsewhere
#   make demo BOOTSTRAP_PYTHON=python3.12   create the virtual environment from that Python
#
# The package is built by pip through maturin (PEP 517), which compiles the Rust core in
# release mode; that needs cargo.  The CLI is called as `$(PYTHON) -m vhsim` (the same
# program as the `vhsim` script), so nothing depends on PATH.
#
# pip shows a build backend's output only when verbose: with PIP_FLAGS = --verbose the Rust
# build prints cargo's "Compiling <crate>" lines as it goes (a fresh build takes minutes, the
# last crate, vhsim-py with link-time optimisation, a minute or two alone), instead of
# pip's silent "Building wheel for vhsim ... still running".  `make demo PIP_FLAGS=` is quiet.

VENV             ?= .venv
BOOTSTRAP_PYTHON ?= python3
VENV_PYTHON      := $(VENV)/bin/python
PYTHON           ?= $(VENV_PYTHON)
PIP              ?= $(PYTHON) -m pip
PIP_FLAGS        ?= --verbose
# pytest runs its test files on every core (pytest-xdist, a test extra), one file per worker so
# that a file's shared fixtures are built once; `make test PYTEST_FLAGS=` runs them one by one.
PYTEST_FLAGS     ?= -n auto --dist loadfile
VHSIM            ?= $(PYTHON) -m vhsim
DEMO_SCENARIO    ?= scenarios/examples/handover-3g-wlan.toml
DEMO_OUT         ?= out/quickstart

# The virtual environment is a prerequisite only when PYTHON is the one inside it.
ifeq ($(PYTHON),$(VENV_PYTHON))
ENVIRONMENT := $(VENV)/.created
endif

.DEFAULT_GOAL := help
.PHONY: help demo test bench install install-test install-pgo venv check-tools clean

help:
	@echo "make demo    build vhsim into $(VENV)/, run a bulk transfer across a 3G -> WLAN handover and back"
	@echo "             with two TCP schemes, plot them side by side ($(DEMO_OUT)/overview.png), and"
	@echo "             reproduce Daniel & Kojo's Figure 8 ($(DEMO_OUT)/reproduce/)"
	@echo "make test    build vhsim with its test extras into $(VENV)/, run cargo tests and pytest"
	@echo "make bench   print simulator speed (bulk, 1% loss, a handover run, a handover campaign)"
	@echo "make install-pgo  install a profile-guided build (needs: rustup component add llvm-tools)"
	@echo "make venv    only create the virtual environment $(VENV)/ (activate: . $(VENV)/bin/activate)"
	@echo "make clean   remove out/, build/ and Python caches (not $(VENV)/)"

check-tools:
	@command -v cargo >/dev/null 2>&1 || { \
	  echo "error: cargo not found on PATH. vhsim's simulator core is written in Rust;" >&2; \
	  echo "       install the Rust toolchain (https://rustup.rs), open a new shell and retry." >&2; \
	  exit 1; }

venv: $(VENV)/.created

# Created once; a half-made environment (e.g. python3 -m venv without ensurepip) is removed.
$(VENV)/.created:
	@command -v $(BOOTSTRAP_PYTHON) >/dev/null 2>&1 || { \
	  echo "error: $(BOOTSTRAP_PYTHON) not found; vhsim needs Python >= 3.10 (or set BOOTSTRAP_PYTHON=...)" >&2; exit 1; }
	@$(BOOTSTRAP_PYTHON) -c 'import sys; sys.exit(sys.version_info < (3, 10))' || { \
	  echo "error: vhsim needs Python >= 3.10; $(BOOTSTRAP_PYTHON) is $$($(BOOTSTRAP_PYTHON) --version 2>&1)" >&2; exit 1; }
	@echo "creating the virtual environment $(VENV)/ (activate it with: . $(VENV)/bin/activate)"
	@if $(BOOTSTRAP_PYTHON) -c 'import ensurepip, venv' >/dev/null 2>&1; then \
	  $(BOOTSTRAP_PYTHON) -m venv $(VENV) || { rm -rf $(VENV); exit 1; }; \
	elif command -v uv >/dev/null 2>&1; then \
	  uv venv --seed --python $(BOOTSTRAP_PYTHON) $(VENV) || { rm -rf $(VENV); exit 1; }; \
	else \
	  echo "error: $(BOOTSTRAP_PYTHON) cannot create virtual environments (no venv/ensurepip module)." >&2; \
	  echo "       On Debian/Ubuntu: sudo apt install python3-venv; or install uv (https://docs.astral.sh/uv/)." >&2; \
	  exit 1; \
	fi
	@touch $@

install: check-tools $(ENVIRONMENT)
	$(PIP) install $(PIP_FLAGS) .

install-test: check-tools $(ENVIRONMENT)
	$(PIP) install $(PIP_FLAGS) '.[test]'

# Opt-in: the native module built with profile-guided optimisation (tools/pgo-build.sh;
# docs/performance.md "A profile-guided build"), over an installed vhsim and its dependencies.
install-pgo: install
	PYTHON=$(PYTHON) tools/pgo-build.sh

demo: install
	@test -f $(DEMO_SCENARIO) || { echo "error: $(DEMO_SCENARIO) not found" >&2; exit 1; }
	$(VHSIM) run $(DEMO_SCENARIO) --detail packets --out $(DEMO_OUT)/sack
	$(VHSIM) run $(DEMO_SCENARIO) --detail packets --set flows.bulk.scheme=enhanced --out $(DEMO_OUT)/enhanced
	$(VHSIM) plot $(DEMO_OUT)/sack $(DEMO_OUT)/enhanced --out $(DEMO_OUT)/overview.png
	# --rerun-other-versions: a demo folder left by an earlier build is redone with this one
	# (a campaign never resumes runs of another build; docs/campaigns.md "Versions").
	$(VHSIM) reproduce danielkojo --quick --figure fig8 --out $(DEMO_OUT)/reproduce --rerun-other-versions
	@echo "demo: $(DEMO_OUT)/overview.png (regular vs enhanced TCP across 3G -> WLAN -> 3G) and"
	@echo "      $(DEMO_OUT)/reproduce/fig8/fig8-time-sequence.png (report: $(DEMO_OUT)/reproduce/report.md)"

test: install-test
	cargo test --workspace
	$(PYTHON) -m pytest -q $(PYTEST_FLAGS) tests

bench: install
	$(VHSIM) bench

clean:
	rm -rf out build dist .pytest_cache
	find python tests -name __pycache__ -type d -prune -exec rm -rf {} +
