# svc in a container (docs/server.md, "Running it as a service"). Untested where it was
# written: no container engine runs there; CI builds it (.ci/run) when `docker info` works.
#
#   docker build -t svc .
#   docker run -d --name svc -p 8787:8787 -v svc-data:/var/lib/svc \
#     -e SVC_BASE_URL=https://svc.example.com svc serve --backup-dir /var/lib/svc/backups
#
# Builds from git run in bubblewrap, which needs user namespaces: Docker's default seccomp
# and AppArmor profiles refuse them, so either run with
# `--security-opt seccomp=unconfined --security-opt apparmor=unconfined` (or `--privileged`),
# or give `--build-sandbox none`, which runs repository code unconfined as the server's user.

FROM node:20-bookworm-slim AS build
WORKDIR /src
# better-sqlite3 builds from source when no prebuilt binary can be downloaded.
RUN apt-get update \
  && apt-get install -y --no-install-recommends python3 make g++ ca-certificates \
  && rm -rf /var/lib/apt/lists/*
COPY . .
# `npm ci` builds every package (its prepare script); the dev dependencies go afterwards.
RUN npm ci && npm prune --omit=dev

FROM node:20-bookworm-slim
# git fetches repositories for builds from git; bubblewrap is their sandbox; tini reaps
# the processes builds leave and passes SIGTERM on, so the server drains and exits 0.
RUN apt-get update \
  && apt-get install -y --no-install-recommends git bubblewrap ca-certificates tini \
  && rm -rf /var/lib/apt/lists/* \
  && useradd --system --create-home --home-dir /var/lib/svc --shell /usr/sbin/nologin svc \
  && chmod 700 /var/lib/svc
WORKDIR /opt/svc
COPY --from=build /src /opt/svc
ENV NODE_ENV=production \
    SVC_HOST=0.0.0.0 \
    SVC_PORT=8787 \
    SVC_DATA_DIR=/var/lib/svc
USER svc
VOLUME ["/var/lib/svc"]
EXPOSE 8787
HEALTHCHECK --interval=30s --timeout=3s CMD ["node", "-e", "fetch('http://127.0.0.1:8787/healthz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
ENTRYPOINT ["tini", "--", "node", "/opt/svc/packages/cli/bin/svc.js"]
CMD ["serve"]
