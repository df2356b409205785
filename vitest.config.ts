import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";
import { HEAVY_TESTS, INTEGRATION_TESTS } from "./test/tiers.js";

// Three projects (see test/tiers.ts). `npm run test:unit` runs the first; `npm test` runs the unit
// tier, then scripts/test-processes.mjs runs the integration tier and the heavy suites (one file
// at a time) as two vitest runs side by side: vitest refuses projects of different worker counts
// in one group, and a heavy group after the others left a core idle. A bare `vitest run` still
// runs all three here, in this order (groupOrder).
export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: "forks",
    projects: [
      {
        extends: true,
        test: {
          name: "unit",
          globalSetup: ["test/setup/unit.ts"],
          include: ["test/**/*.test.ts"],
          exclude: [...INTEGRATION_TESTS, ...HEAVY_TESTS],
          // Vitest's default is one worker fewer than the cores: a single file at a time on a
          // 2-core machine, the other core idle while the unit tier runs alone. Its files spend
          // much of their time waiting on bash, git and servers, so two at once overlap well.
          maxWorkers: Math.max(2, availableParallelism() - 1),
          // A worker runs its files one after another in one module graph instead of importing
          // everything afresh for each file: the imports were ~96 s of the tier's ~160 s, and it now
          // runs in ~75 s. A file that needs a module's first-load state of its own takes it
          // (vi.resetModules() and import()), and one that changes shared state puts it back.
          isolate: false,
          setupFiles: ["test/setup/file-state.ts"],
          sequence: { groupOrder: 0 },
        },
      },
      {
        extends: true,
        test: {
          name: "integration",
          // The built CLI and the compiled fixtures the process tests spawn, rebuilt when stale.
          globalSetup: ["test/setup/processes.ts"],
          include: INTEGRATION_TESTS,
          exclude: HEAVY_TESTS,
          // Two files at once even on 2 cores, beside the heavy run's one: its files mostly wait
          // on the processes they start, and one at a time left the tier ~130 s behind the heavy
          // one (process tiers 442 s; with two, 357 s, measured on the 2-core machine).
          maxWorkers: Math.max(2, availableParallelism() - 1),
          // As in the unit tier: one module graph per worker, each file's environment put back.
          isolate: false,
          setupFiles: ["test/setup/file-state.ts"],
          sequence: { groupOrder: 1 },
        },
      },
      {
        extends: true,
        test: {
          name: "heavy",
          globalSetup: ["test/setup/processes.ts"],
          include: HEAVY_TESTS,
          fileParallelism: false,
          isolate: false,
          setupFiles: ["test/setup/file-state.ts"],
          sequence: { groupOrder: 2 },
        },
      },
    ],
  },
});
