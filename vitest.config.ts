import { defineConfig } from "vitest/config";
import { HEAVY_TESTS, INTEGRATION_TESTS } from "./test/tiers.js";

// Three projects (see test/tiers.ts): `npm run test:unit` runs the first, `npm test` all three,
// the unit tier first, then the integration tier, then the heavy suites one file at a time.
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
          sequence: { groupOrder: 2 },
        },
      },
    ],
  },
});
