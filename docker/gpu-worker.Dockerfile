# syntax=docker/dockerfile:1.7
# A GPU worker of the workbench (issue 39 item 6, docs/gpu-workers.md): pulls the gpu queue and
# runs nano's training on the compute core's CUDA backend, against an existing workbench's
# Postgres, Redis and DATA_DIR. Built from the repository root:
#
#   docker build -f docker/gpu-worker.Dockerfile -t paravt-gpu-worker .
#
# Not built here: the development and CI machines have no Docker, no registry access and no GPU.
# The tags below are the published ones this was written against; check them on the first build.

# The CUDA 13 toolkit (nvcc) for kernels/scripts/build.mjs, which builds libparavt_cuda.so
# wherever nvcc is; the devel image also carries the CUDA runtime the library loads.
ARG CUDA_IMAGE=nvidia/cuda:13.0.0-devel-ubuntu24.04
ARG NODE_IMAGE=node:20-bookworm-slim

FROM ${NODE_IMAGE} AS node

FROM ${CUDA_IMAGE}
# Rows keep absolute paths (models registered from packages/nano/checkpoints): build with the web
# app's checkout path, e.g. --build-arg APP_DIR=/srv/paravt-workbench.
ARG APP_DIR=/app
ENV DEBIAN_FRONTEND=noninteractive
# ffmpeg for the frame sampling of training data; python3, make and g++ for node-gyp (the addon).
RUN apt-get update \
  && apt-get install -y --no-install-recommends ffmpeg python3 make g++ ca-certificates \
  && rm -rf /var/lib/apt/lists/*
# Node 20 as the official image ships it (Ubuntu 24.04's glibc is newer than bookworm's).
COPY --from=node /usr/local/bin/node /usr/local/bin/node
COPY --from=node /usr/local/lib/node_modules /usr/local/lib/node_modules
RUN ln -s ../lib/node_modules/npm/bin/npm-cli.js /usr/local/bin/npm \
  && ln -s ../lib/node_modules/npm/bin/npx-cli.js /usr/local/bin/npx \
  && npm install -g npm@11.19.1
WORKDIR ${APP_DIR}
COPY . .
# As CI installs (.ci/run): npm 11 honours package.json "allowScripts"; the Prisma client is
# generated explicitly, and the core is built by its own script (npm install never runs it).
RUN npm ci --no-audit --no-fund \
  && npm run -s -w @paravt/db generate \
  && node kernels/scripts/build.mjs --no-tests

ENV NODE_ENV=production \
    WORKER_QUEUES=gpu \
    WORKER_CONCURRENCY=1 \
    PARAVT_DEVICE=cuda
# SIGTERM finishes the active jobs and withdraws the worker's announcement before exiting.
STOPSIGNAL SIGTERM
CMD ["npm", "run", "-w", "@paravt/workers", "start"]
