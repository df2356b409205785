// Where the process tests find what they spawn: the built CLI (dist/, through bin/warden.js) and
// the test fixtures compiled to plain JavaScript (test/.build/). Both are kept current by the
// global setup (test/setup/build.ts), so no test spawns TypeScript through tsx.
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

export const REPO_ROOT = resolve(fileURLToPath(new URL("../..", import.meta.url)));

/** The `warden` launcher, as a user's shell runs it: `node bin/warden.js ...` loads dist/cli.js. */
export const BUILT_CLI = join(REPO_ROOT, "bin/warden.js");

/** The folder the global setup compiles the fixtures into (ignored by git). */
export const FIXTURE_BUILD_DIR = join(REPO_ROOT, "test/.build");

/**
 * The fixtures tests spawn as processes or load into a spawned CLI, relative to test/. Each is
 * bundled into one ES module (its dependencies included, so it starts in one file's load).
 */
export const FIXTURE_SOURCES = [
  "cli/fixtures/test-tools.ts",
  "cli/fixtures/wait-tool.ts",
  "fixtures/conformance-client.ts",
  "fixtures/mcp-servers/approver-server.ts",
  "fixtures/mcp-servers/asking-server.ts",
  "fixtures/mcp-servers/demo-server.ts",
  "fixtures/mcp-servers/exit-at-start.ts",
  "fixtures/mcp-servers/gated-server.ts",
  "fixtures/mcp-servers/many-tools-server.ts",
  "fixtures/mcp-servers/silent-server.ts",
  "permissions/fixtures/settings-writer.ts",
  "process/fixtures/stop-signal-server.ts",
  "providers/fixtures/readable-stream-probe.ts",
  "session/fixtures/exit-after-record.ts",
  "tools/bash/fixtures/leave-processes.ts",
  "tools/fixtures/atomic-writer.ts",
  "tools/planning/fixtures/create-tasks.ts",
] as const;

export type FixtureSource = (typeof FIXTURE_SOURCES)[number];

/** The compiled form of a fixture (a path relative to test/, as in FIXTURE_SOURCES). */
export function builtFixture(source: FixtureSource): string {
  return join(FIXTURE_BUILD_DIR, source.replace(/\.ts$/, ".mjs"));
}
