# `make test` is the test command CONTRIBUTING.md gives and .ci/run calls.
.PHONY: test lint static-checks fmt build calibrate run-reference fuzz hostile-numbers bench cli-reference parity-table

CARGO ?= cargo

# The tests are built by clippy-driver, which lints the workspace's crates as it compiles
# them: `cargo clippy --all-targets -- -D warnings` and the test build in one compilation
# instead of a check and then a build (what cargo-clippy itself sets: the driver as the
# workspace's rustc wrapper, its arguments in CLIPPY_ARGS). On the 2-core machine, from a
# fresh clone: 74 s of clippy then 122 s of build, or 144 s for both (docs/performance.md).
# Without clippy-driver, `make test` runs `cargo clippy` first. `make calibrate` builds with
# the same settings, so it reuses what `make test` built.
CLIPPY_DRIVER := $(shell rustc --print sysroot 2>/dev/null)/bin/clippy-driver
LINTED := RUSTC_WORKSPACE_WRAPPER=$(CLIPPY_DRIVER) CLIPPY_ARGS=-D__CLIPPY_HACKERY__warnings__CLIPPY_HACKERY__

test: static-checks
	@if [ -x "$(CLIPPY_DRIVER)" ]; then linted="$(LINTED)"; \
	else $(CARGO) clippy --workspace --all-targets -- -D warnings || exit 1; linted=""; fi; \
	if $(CARGO) nextest --version >/dev/null 2>&1; then \
		env $$linted $(CARGO) nextest run --workspace --no-fail-fast; \
	else \
		env $$linted $(CARGO) test --workspace --no-fail-fast; \
	fi

lint: static-checks
	$(CARGO) clippy --workspace --all-targets -- -D warnings

# What needs no compilation: formatting, the module layers, the protocol names.
static-checks:
	$(CARGO) fmt --all -- --check
	python3 scripts/module-cycles.py
	python3 scripts/protocol-names.py --quiet

fmt:
	$(CARGO) fmt --all

# The calibration of the whole built-in suite, the one test `make test` leaves out
# (minutes long); .ci/run runs it too.
calibrate:
	@if [ -x "$(CLIPPY_DRIVER)" ]; then linted="$(LINTED)"; else linted=""; fi; \
	env $$linted $(CARGO) nextest run --profile calibration --run-ignored only

build:
	$(CARGO) build --release

# docs/guide/cli-reference.md from the clap definitions; a test fails when the committed
# page differs, so run this after changing a flag or its help.
cli-reference:
	UPDATE_CLI_REFERENCE=1 $(CARGO) test --quiet --lib the_committed_cli_reference_is_up_to_date

# docs/guide/malformations.md from scenarios/malformations.toml and the packs; a test fails
# when the committed page differs, so run this after changing the table or a pack's case.
parity-table:
	UPDATE_PARITY_TABLE=1 $(CARGO) test --quiet --lib the_committed_parity_page_is_up_to_date

run-reference:
	$(CARGO) run --release -- run --target reference

# Fuzz every target for FUZZ_SECONDS each (not part of `make test` or CI). Only stable
# Rust exists here: RUSTC_BOOTSTRAP lets cargo-fuzz pass its -Z flags, and `-s none`
# skips the sanitizer (the project has no unsafe code; panics, hangs (-timeout) and
# memory blow-ups (-rss_limit_mb) are what is hunted). Crashes land in fuzz/artifacts/.
FUZZ_SECONDS ?= 300
FUZZ_TARGETS ?= scenario_load host_answers witness_calls

fuzz:
	@command -v cargo-fuzz >/dev/null 2>&1 || $(CARGO) install cargo-fuzz --locked
	@for target in $(FUZZ_TARGETS); do \
		mkdir -p fuzz/corpus/$$target; \
		(cd fuzz && RUSTC_BOOTSTRAP=1 $(CARGO) fuzz run -s none $$target \
			corpus/$$target seeds/$$target -- \
			-max_total_time=$(FUZZ_SECONDS) -timeout=10 -rss_limit_mb=1024 \
			-print_final_stats=1) || exit 1; \
	done

# The hostile-host battery with each run's exit code, wall time and peak memory.
hostile-numbers:
	@rm -f target/hostile-numbers.tsv
	MMCONFORM_MEASURE_FILE=$(CURDIR)/target/hostile-numbers.tsv $(CARGO) nextest run --test hostile
	@printf 'run\texit\twall_ms\tpeak_KiB\n' | cat - target/hostile-numbers.tsv | column -t

# Wall time, per-request overhead and peak memory against the reference host with a
# service time, and hurl on the same requests when installed (not part of CI; see
# docs/performance.md). DELAYS, RUNS, JOBS, LARGE_MIB and HURL tune it.
bench: build
	scripts/bench.sh target/release/mmconform
