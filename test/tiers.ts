// Which test files belong to which tier (vitest.config.ts makes a project of each).
//
// - unit: everything that runs inside the test process: tools, the permission engine, the loop
//   and the scripted model server on 127.0.0.1, real bash and git included. The tier a developer
//   runs on every change (`npm run test:unit`, or `npx vitest --project unit` in watch mode).
// - integration: tests whose subject is a process of its own: the built CLI, ACP editors, MCP
//   servers over stdio, language servers, `warden permissions check` as a program.
// - heavy: the suites whose processes compete hardest for the CPU (a tmux terminal drawing the
//   UI, the Agent SDK's own CLI driving ours, Redis with fleet workers): run one file at a time,
//   so that their start-up waits stop stealing from each other, beside the integration files
//   (`npm test` and `npm run test:integration` start both tiers at once: scripts/test-processes.mjs).
//
// A file listed in no tier is a unit test. A unit-tier file must not start the CLI or a server:
// test/architecture/test-tiers.test.ts checks that, so a misfiled spawn test fails the suite.

/** Globs relative to the repository root. */
export const HEAVY_TESTS = [
  // The interactive UI in a real terminal (its in-process ink tests are unit tests).
  "test/ui/*-tmux.test.ts",
  "test/ui/add-dir-command.test.ts",
  "test/ui/interactive-*.test.ts",
  "test/ui/session-info-commands.test.ts",
  "test/cli/session-messages.test.ts",
  "test/cli/teammate-tmux.test.ts",
  "test/sdk/**/*.test.ts",
  "test/fleet/**/*.test.ts",
  // Journeys (test/journeys): a whole task through one surface each.
  "test/journeys/interactive.test.ts",
  "test/journeys/sdk-host.test.ts",
  "test/journeys/fleet.test.ts",
  // warden view in Debian's chromium (playwright-core), with the built CLI.
  "test/view/view-browser.test.ts",
];

export const INTEGRATION_TESTS = [
  "test/cli/**/*.test.ts",
  "test/acp/**/*.test.ts",
  "test/mcp/**/*.test.ts",
  "test/tools/lsp/**/*.test.ts",
  "test/agents/agent-files.test.ts",
  "test/agents/built-in-agents.test.ts",
  "test/agents/fork.test.ts",
  "test/agents/worktree.test.ts",
  "test/architecture/session-modules.test.ts",
  "test/architecture/start-up-files.test.ts",
  "test/config/hostile-repository.test.ts",
  "test/docs/docs.test.ts",
  "test/journeys/headless.test.ts",
  "test/journeys/acp-editor.test.ts",
  "test/journeys/subagents.test.ts",
  "test/journeys/crash-recovery.test.ts",
  "test/journeys/small-window.test.ts",
  "test/config/settings-env.test.ts",
  "test/config/trust/untrusted-command-cli.test.ts",
  "test/context/compaction.test.ts",
  "test/library/elicitation.test.ts",
  // The TypeScript compiler over the whole public face (~10 s of CPU): not among the quick ones.
  "test/library/public-types.test.ts",
  "test/library/sdk-examples.test.ts",
  "test/library/set-mcp-servers.test.ts",
  "test/permissions/check-cli.test.ts",
  "test/permissions/headless-session.test.ts",
  "test/process/orphan-guard.test.ts",
  "test/session/claude-code-format.test.ts",
  "test/tools/bash/slow-grammar.test.ts",
  "test/tools/file-history.test.ts",
  "test/tools/model-facing.test.ts",
  "test/tools/session-tools.test.ts",
  "test/tools/web-fetch/web-fetch.test.ts",
  "test/tools/web-search/web-search.test.ts",
];
