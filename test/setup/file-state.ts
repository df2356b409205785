// Run before every test file (vitest's setupFiles). The tiers run a worker's files one after another
// in one process without re-importing (isolate: false, vitest.config.ts), so what one file leaves
// in the process would reach the next: many files point HOME and WARDEN_HOME at a temp folder of
// their own, and some set a provider's or a feature's variable. The environment and the working
// directory as they were when the file started are put back when it ends, so no file's outcome
// depends on which files its worker ran before it.
import { afterAll } from "vitest";

const environment = { ...process.env };
const cwd = process.cwd();

afterAll(() => {
  for (const name of Object.keys(process.env)) if (!(name in environment)) delete process.env[name];
  Object.assign(process.env, environment);
  if (process.cwd() !== cwd) process.chdir(cwd);
});
