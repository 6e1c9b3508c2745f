# mmconform as a container image: the static binary alone, run as a non-root user.
#   docker build -t mmconform .
#   docker run --rm --network host mmconform run --target http://127.0.0.1:8080
# The build stage runs the release's own build script (scripts/release/build.sh), so
# the image holds the same static musl binary as the release's Linux asset.

FROM rust:1.95-alpine AS build
RUN apk add --no-cache musl-dev
WORKDIR /src
COPY . .
ARG MMCONFORM_TAG=image
RUN scripts/release/build.sh native "$MMCONFORM_TAG" /dist \
    && mkdir /out \
    && tar -C /out --strip-components=1 -xzf /dist/mmconform-*.tar.gz \
    && /out/mmconform --version

# distroless/static: no shell, no package manager; CA certificates for https targets.
FROM gcr.io/distroless/static-debian12:nonroot
COPY --from=build /out/mmconform /usr/local/bin/mmconform
USER 65532:65532
ENTRYPOINT ["/usr/local/bin/mmconform"]
CMD ["--help"]
