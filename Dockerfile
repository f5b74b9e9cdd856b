# Multi-stage: build with dev dependencies, run with production dependencies only, as the non-root user `node`.
# Node: package.json's `engines` lists the supported lines (20.19+, 22.12+, 24); CI runs the suite on 20 and 22.
# The image runs Node 22 LTS (20 is end of life since April 2026), pinned to the release `.ci/run` tests, so a
# rebuild never brings an untested Node: bump the two together.
FROM node:22.23.3-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm install --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY apps ./apps
COPY libs ./libs
COPY bench ./bench
RUN npm run build && npm prune --omit=dev

FROM node:22.23.3-bookworm-slim
ENV NODE_ENV=production
WORKDIR /app
COPY --from=build --chown=node:node /app/node_modules ./node_modules
COPY --from=build --chown=node:node /app/dist ./dist
COPY --chown=node:node package.json ./
USER node
EXPOSE 3000
CMD ["node", "dist/apps/query/src/main.js"]
