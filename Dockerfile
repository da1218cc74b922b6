# The gateway's image: Node 24 LTS (package.json engines), production dependencies only, run as the
# unprivileged `node` user. Settings come from the environment (README, "Running in production").

# Build stage: dev dependencies compile the TypeScript (nest build, SWC) and the dashboard.
FROM node:24-bookworm-slim AS build
# No dependency may phone home from the build (@scarf/scarf honours this; npm 11 also skips
# dependencies' install scripts unless approved).
ENV SCARF_ANALYTICS=false
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund --ignore-scripts
COPY . .
RUN npm run build && npm prune --omit=dev --ignore-scripts

# Runtime stage: production dependencies and the build output only.
FROM node:24-bookworm-slim
ENV NODE_ENV=production PORT=3000 HOST=0.0.0.0 SCARF_ANALYTICS=false
WORKDIR /app
COPY --from=build --chown=root:root /app/package.json ./
COPY --from=build --chown=root:root /app/node_modules ./node_modules
COPY --from=build --chown=root:root /app/dist ./dist
# The code is owned by root and read-only to the process; the gateway keeps its data in PostgreSQL.
USER node
EXPOSE 3000
HEALTHCHECK --interval=10s --timeout=3s --start-period=20s \
  CMD node -e "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/health').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
# SIGTERM: stop accepting, finish requests and deliveries in flight (SHUTDOWN_TIMEOUT_MS), close the database.
STOPSIGNAL SIGTERM
# The young generation held to 2 × 32 MB, as `npm start` does (docs/performance.md, Memory).
CMD ["node", "--max-semi-space-size=32", "dist/src/main.js"]
