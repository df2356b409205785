// Which foreground commands move to the background instead of being stopped when their time runs
// out. The reference keeps such a list of programs that typically run long or never end by
// themselves (dev servers, watch builds, test runners, containers): stopping them at the timeout
// throws away a server the model wanted, while as a background task it can read the output
// (TaskOutput) and stop it (TaskStop). Anything else is still stopped at its timeout.

/** Programs that typically run long: package managers and runners, build and watch tools, servers. */
export const COMMON_BACKGROUND_COMMANDS: ReadonlySet<string> = new Set([
  // JavaScript
  "npm",
  "npx",
  "pnpm",
  "yarn",
  "bun",
  "deno",
  "node",
  "tsx",
  "ts-node",
  "nodemon",
  "webpack",
  "vite",
  "next",
  "nuxt",
  "tsc",
  "jest",
  "vitest",
  "mocha",
  "playwright",
  "turbo",
  "nx",
  // Python
  "python",
  "python3",
  "pip",
  "pip3",
  "uv",
  "poetry",
  "pytest",
  "uvicorn",
  "gunicorn",
  "flask",
  "django-admin",
  "jupyter",
  // Compiled languages and their build tools
  "cargo",
  "go",
  "make",
  "cmake",
  "ninja",
  "gradle",
  "gradlew",
  "mvn",
  "dotnet",
  "bazel",
  "rails",
  "bundle",
  "mix",
  // Containers and servers
  "docker",
  "docker-compose",
  "podman",
  "kubectl",
  "http-server",
  "serve",
  "hugo",
  "jekyll",
]);

/**
 * The reference's budget for a foreground command in its assistant mode (15 s) is a choice of the
 * deployment here: BASH_BLOCKING_BUDGET_MS set, any foreground command still running after it is
 * moved to the background. Unset (the default), only the timeout applies.
 */
export function blockingBudgetMs(env: NodeJS.ProcessEnv = process.env): number | undefined {
  const value = Number(env.BASH_BLOCKING_BUDGET_MS);
  return Number.isInteger(value) && value > 0 ? value : undefined;
}

/** True when one of the programs the command runs is a typically long-running one. */
export function runsLongRunningProgram(programs: readonly string[]): boolean {
  return programs.some((name) => COMMON_BACKGROUND_COMMANDS.has(name.replace(/\.(exe|cmd|sh)$/, "")));
}
