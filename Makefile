# `make test` is the test command CONTRIBUTING.md gives and .ci/run calls.
.PHONY: test lint fmt build calibrate run-reference fuzz hostile-numbers bench cli-reference parity-table

CARGO ?= cargo

test: lint
	@if $(CARGO) nextest --version >/dev/null 2>&1; then \
		$(CARGO) nextest run --workspace --no-fail-fast; \
	else \
		$(CARGO) test --workspace --no-fail-fast; \
	fi

lint:
	$(CARGO) fmt --all -- --check
	$(CARGO) clippy --workspace --all-targets -- -D warnings
	python3 scripts/module-cycles.py
	python3 scripts/protocol-names.py --quiet

fmt:
	$(CARGO) fmt --all

# The calibration of the whole built-in suite, the one test `make test` leaves out
# (minutes long); .ci/run runs it too.
calibrate:
	$(CARGO) nextest run --profile calibration --run-ignored only

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
