# pix-sandbox in a container.
#   docker build -t pix-sandbox .
#   docker run --rm -p 127.0.0.1:8080:8080 -e ALLOWED_HOSTS=localhost -v pix-sandbox-data:/data pix-sandbox
# (the store in the named volume pix-sandbox-data, as compose.yaml has it; only this machine can
# reach it: write -p 8080:8080 to open it to the network). ALLOWED_HOSTS keeps the guard against
# DNS rebinding on (HOST=0.0.0.0, below, turns it off otherwise): a web page could otherwise call
# the published port by a name of its own (docs/SECURITY.md). The README gives the same lines.
# test/docker-recipe.test.ts reads this file and follows its recipe on the host (CI has no Docker
# engine), so a change here is tested there: keep to the instructions that test understands.

# Node 22 (LTS), not 24: better-sqlite3 12 compiled against Node >= 24.19 headers aborts the
# process when V8 collects a statement (node::RemoveEnvironmentCleanupHook asserts; nodejs/node
# #65446, WiseLibs/better-sqlite3 #1515). better-sqlite3 13 fixes it but needs Node 22+ for
# development, and our machines run Node 20. Both stages must use the same Node.
# ---- build: compile the TypeScript and the native SQLite addon, then drop dev dependencies ----
FROM node:22-slim AS build
# better-sqlite3 compiles from source when its prebuilt binary cannot be downloaded: that needs
# a toolchain, which slim lacks. Only this stage has it; the runtime image stays small.
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3 make g++ \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /app
# The manifest and lockfile alone first, so that editing src/ reuses the cached (compiled) install.
# --ignore-scripts: the package's own `prepare` (the build) needs the sources, copied below; the
# one install step the image needs is better-sqlite3's (its native addon), run by `npm rebuild`.
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund --ignore-scripts && npm rebuild better-sqlite3
COPY tsconfig.json ./
COPY scripts/build.mjs ./scripts/
COPY scripts/compile-scenarios.ts ./scripts/
COPY src ./src
COPY scenarios ./scenarios
# One bundled file (dist/main.js): it starts much faster than hundreds of modules.
RUN npm run build
# Keeps the production dependencies, and of better-sqlite3 only its compiled addon and loader
# (its sources and build intermediates are ~26 MB the runtime never reads).
RUN npm prune --omit=dev --no-audit --no-fund \
 && cd node_modules/better-sqlite3 \
 && mv build/Release/better_sqlite3.node . && rm -rf build deps src \
 && mkdir -p build/Release && mv better_sqlite3.node build/Release/

# ---- runtime: node, the compiled app and its production dependencies; no compiler ----
FROM node:22-slim AS runtime
# The image's version is the package's (scripts/release.mjs and a test check they agree).
LABEL org.opencontainers.image.title="pix-sandbox" \
      org.opencontainers.image.description="A faithful, stateful sandbox of a PIX collection-and-transfer API" \
      org.opencontainers.image.version="0.1.0" \
      org.opencontainers.image.licenses="MIT" \
      org.opencontainers.image.source="https://github.com/pix-sandbox/pix-sandbox"
# HOST=0.0.0.0: the default (127.0.0.1) would be unreachable from outside the container. It turns
# the Host guard off (other containers and Kubernetes probes reach it by names of their own), so
# the recipes that publish it on this machine's loopback set ALLOWED_HOSTS.
ENV NODE_ENV=production HOST=0.0.0.0 PORT=8080 DATABASE=/data/pix-sandbox.db
WORKDIR /app
# package.json too: the server reads its version from it. Owned by root, so read-only for node.
COPY --from=build /app/package.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY --from=build /app/scenarios ./scenarios
# The store lives in a volume, so state outlives the container; the non-root user must own it.
RUN mkdir -p /data && chown node:node /data
VOLUME /data
# uid 1000, from the base image.
USER node
EXPOSE 8080
# slim has no curl: node itself asks the health endpoint. Old engines have no --start-interval,
# so the first check comes one interval after start: keep the interval short. The timeout is
# node's start more than the answer: on a host at a load of 12, `node -e` alone took over 3 s.
HEALTHCHECK --interval=10s --timeout=10s --start-period=5s --retries=3 \
  CMD node -e "fetch('http://127.0.0.1:'+(process.env.PORT||8080)+'/_sandbox/health').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
# The server finishes in-flight requests, closes the store and exits 0 on SIGTERM.
STOPSIGNAL SIGTERM
# Exec form: node is PID 1 and receives the stop signal itself (a shell would swallow it).
# The same command as `npm start` (a test checks): see docs/DESIGN.md, "Memory", for the flag.
CMD ["node", "--max-semi-space-size=8", "--no-memory-reducer", "dist/main.js"]
