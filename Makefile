# `make test` is the test command the README gives and .ci/run calls.
.PHONY: test lint fmt build run-reference

CARGO ?= cargo

test: lint
	@if $(CARGO) nextest --version >/dev/null 2>&1; then \
		$(CARGO) nextest run --no-fail-fast; \
	else \
		$(CARGO) test --no-fail-fast; \
	fi

lint:
	$(CARGO) fmt --all -- --check
	$(CARGO) clippy --all-targets -- -D warnings

fmt:
	$(CARGO) fmt --all

build:
	$(CARGO) build --release

run-reference:
	$(CARGO) run --release -- run --target reference
