# Builds every service and tool of the repository on Debian 12 (the same
# packages scripts/install-deps uses) and ships them on a slim runtime image.
# compose.yaml picks the binary to run with `command:`; its entry point is the
# `entry` stage (nginx and the API page).
FROM debian:bookworm AS build
RUN apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
      build-essential cmake pkg-config \
      librdkafka-dev libhiredis-dev libcpp-httplib-dev rapidjson-dev libspdlog-dev libfmt-dev \
      libssl-dev zlib1g-dev libbrotli-dev libjemalloc-dev \
    && rm -rf /var/lib/apt/lists/*
WORKDIR /src
COPY CMakeLists.txt ./
COPY cmake cmake
COPY schemas schemas
COPY shared shared
COPY platform platform
COPY services services
COPY tools tools
COPY bench bench
# Every service's binary of services/services.txt into /build/bin, for the
# runtime stage below.
RUN cmake -S . -B /build -DCMAKE_BUILD_TYPE=Release -DPETSTORE_BUILD_TESTS=OFF \
    && cmake --build /build -j"$(nproc)" \
    && mkdir -p /build/bin \
    && for service in $(sed -n 's/^\([a-z][a-z]*\) .*/\1/p' services/services.txt); do \
         cp "/build/services/$service/$service" /build/bin/; \
       done

# The API page the entry point serves at /docs (deploy/docs): Swagger UI's
# bundle from the npm registry, at the version and digest package-lock.json
# pins, beside the OpenAPI document, laid out as scripts/lib.sh's docs_site
# lays it out. Nothing is fetched at run time.
FROM debian:bookworm-slim AS docs
RUN apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
      curl ca-certificates \
    && rm -rf /var/lib/apt/lists/*
WORKDIR /docs
COPY deploy/docs/package-lock.json deploy/docs/index.html ./
COPY schemas/openapi.yaml ./
# build_ca: certificates to trust besides Debian's (deploy/kafka/Dockerfile).
RUN --mount=type=secret,id=build_ca set -eu; \
    awk '/BEGIN CERTIFICATE/ {n++} n {print > ("/usr/local/share/ca-certificates/build-ca-" n ".crt")}' \
      /run/secrets/build_ca; \
    update-ca-certificates >/dev/null; \
    entry=$(grep -A3 '"node_modules/swagger-ui-dist"' package-lock.json); \
    version=$(printf '%s' "$entry" | sed -n 's/.*"version": "\(.*\)".*/\1/p'); \
    digest=$(printf '%s' "$entry" | sed -n 's/.*"integrity": "sha512-\(.*\)".*/\1/p' | base64 -d | od -An -tx1 | tr -d ' \n'); \
    curl -fsSL -o ui.tgz "https://registry.npmjs.org/swagger-ui-dist/-/swagger-ui-dist-$version.tgz"; \
    echo "$digest  ui.tgz" | sha512sum -c -; \
    tar -xzf ui.tgz; \
    mkdir -p /site/docs; \
    cp index.html openapi.yaml package/swagger-ui-bundle.js package/swagger-ui.css /site/docs/

# The entry point (compose.yaml's entrypoint): Debian's nginx with the API
# page, following the replicas Docker's DNS names (deploy/nginx/compose-entry.sh).
FROM debian:bookworm-slim AS entry
RUN apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends nginx curl \
    && rm -rf /var/lib/apt/lists/* \
    && mkdir -p /run/petstore
COPY --from=docs /site /usr/share/petstore
CMD ["/etc/nginx/petstore/compose-entry.sh"]

FROM debian:bookworm-slim
RUN apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
      librdkafka1 libhiredis0.14 libcpp-httplib0.11 libspdlog1.10 libfmt9 libssl3 libjemalloc2 \
      curl ca-certificates \
    && rm -rf /var/lib/apt/lists/* \
    && useradd --system --no-create-home petstore
COPY --from=build /build/bin/ /usr/local/bin/
USER petstore
# compose.yaml runs every service on this one port (HTTP_PORT).
ENV HTTP_HOST=0.0.0.0 HTTP_PORT=8080
EXPOSE 8080
