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
COPY services services
COPY tools tools
COPY bench bench
RUN cmake -S . -B /build -DCMAKE_BUILD_TYPE=Release -DPETSTORE_BUILD_TESTS=OFF \
    && cmake --build /build -j"$(nproc)"

# The API page the entry point serves at /docs (deploy/docs): Swagger UI's
# bundle from the npm registry beside the OpenAPI document, laid out as
# scripts/lib.sh's docs_site lays it out. Nothing is fetched at run time.
FROM node:20-bookworm-slim AS docs
WORKDIR /docs
COPY deploy/docs/package.json deploy/docs/package-lock.json ./
RUN npm ci --ignore-scripts --no-audit --no-fund
COPY deploy/docs/index.html ./
COPY schemas/openapi.yaml ./
RUN mkdir -p /site/docs \
    && cp index.html openapi.yaml node_modules/swagger-ui-dist/swagger-ui-bundle.js \
       node_modules/swagger-ui-dist/swagger-ui.css /site/docs/

# The entry point (compose.yaml's entrypoint): nginx with the API page.
FROM nginx:1.27 AS entry
COPY --from=docs /site /usr/share/petstore

FROM debian:bookworm-slim
RUN apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
      librdkafka1 libhiredis0.14 libcpp-httplib0.11 libspdlog1.10 libfmt9 libssl3 libjemalloc2 \
      curl ca-certificates \
    && rm -rf /var/lib/apt/lists/* \
    && useradd --system --no-create-home petstore
COPY --from=build /build/services/pets/pets /build/services/orders/orders \
     /build/services/inventory/inventory /usr/local/bin/
USER petstore
ENV HTTP_HOST=0.0.0.0
# pets 8081, orders 8082, inventory 8083 (each service's default HTTP_PORT)
EXPOSE 8081 8082 8083
CMD ["pets"]
