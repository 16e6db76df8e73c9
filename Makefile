# vhsim -- common tasks.  `make demo`, `make test`, `make bench`.
#
# The package is built by pip through maturin (PEP 517), which compiles the
# Rust core in release mode; that needs cargo.  The CLI is called as
# `python3 -m vhsim` (same program as the `vhsim` script) so the targets work
# even when pip's script folder is not on PATH.

PYTHON ?= python3
PIP    ?= $(PYTHON) -m pip
VHSIM  ?= $(PYTHON) -m vhsim
DEMO_SCENARIO ?= scenarios/examples/bulk-3g.toml

.DEFAULT_GOAL := help
.PHONY: help demo test bench install install-test check-tools clean

help:
	@echo "make demo    install vhsim, run $(DEMO_SCENARIO) and plot it, and reproduce danielkojo Figure 8, into out/quickstart/"
	@echo "make test    install vhsim with test extras, run cargo tests and pytest"
	@echo "make bench   install vhsim and print simulator speed on benches/*.toml"
	@echo "make clean   remove out/, build/ and Python caches"

check-tools:
	@command -v $(PYTHON) >/dev/null 2>&1 || { \
	  echo "error: $(PYTHON) not found; vhsim needs Python >= 3.10 with pip" >&2; exit 1; }
	@command -v cargo >/dev/null 2>&1 || { \
	  echo "error: cargo not found on PATH. vhsim's simulator core is written in Rust;" >&2; \
	  echo "       install the Rust toolchain (https://rustup.rs), open a new shell and retry." >&2; \
	  exit 1; }

install: check-tools
	$(PIP) install .

install-test: check-tools
	$(PIP) install '.[test]'

demo: install
	@test -f $(DEMO_SCENARIO) || { echo "error: $(DEMO_SCENARIO) not found" >&2; exit 1; }
	$(VHSIM) run $(DEMO_SCENARIO) --detail packets --out out/quickstart
	$(VHSIM) plot out/quickstart --out out/quickstart/overview.png
	$(VHSIM) reproduce danielkojo --quick --figure fig8 --out out/quickstart/reproduce
	@echo "demo: out/quickstart/overview.png and out/quickstart/reproduce/fig8/fig8-time-sequence.png (report: out/quickstart/reproduce/report.md)"

test: install-test
	cargo test --workspace
	$(PYTHON) -m pytest -q tests

bench: install
	$(VHSIM) bench

clean:
	rm -rf out build dist .pytest_cache
	find python tests -name __pycache__ -type d -prune -exec rm -rf {} +
