// The docs cannot go stale: the generated references match the code, every relative link
// resolves, and every shell example that runs Warden is run here (the replay provider, or the
// scripted model server on 127.0.0.1 for the providers' own models) and must succeed and print
// what the docs show.
import { type ChildProcess, spawn } from "node:child_process";
import { chmodSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import {
  CLI_REFERENCE,
  renderCliReference,
  renderToolsReference,
  TOOLS_REFERENCE,
} from "../../scripts/docs/reference.js";
import { BUILT_CLI, REPO_ROOT } from "../helpers/built.js";
import { reply } from "../helpers/scripted-model-server.js";
import { scriptedModelServerFixture } from "../helpers/scripted-server-fixture.js";
import { brokenRelativeLinks, type DocExample, docExamples } from "./markdown-examples.js";

const server = scriptedModelServerFixture("file");
const scratch = mkdtempSync(join(tmpdir(), "warden-docs-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe("the generated references", () => {
  it("docs/cli.md is what `npm run docs` writes from the flag table and each subcommand's --help", () => {
    expect(readFileSync(CLI_REFERENCE, "utf8")).toBe(renderCliReference());
  });

  it("docs/tools.md is each built-in tool's description and schema as the model receives them", async () => {
    expect(readFileSync(TOOLS_REFERENCE, "utf8")).toBe(await renderToolsReference());
  });
});

it("every relative link in the README and docs/ names a file, and a heading of it, that exist", () => {
  expect(brokenRelativeLinks(REPO_ROOT, existsSync)).toEqual([]);
});

/** A project like the reader's: this repository's README, docs and examples, in a git repository. */
function readerProject(name: string): { cwd: string; env: NodeJS.ProcessEnv } {
  const root = join(scratch, name);
  const cwd = join(root, "project");
  const bin = join(root, "bin");
  const home = join(root, "home");
  for (const dir of [cwd, bin, home]) mkdirSync(dir, { recursive: true });
  for (const part of ["README.md", "docs", "examples"])
    cpSync(join(REPO_ROOT, part), join(cwd, part), { recursive: true });
  // ./bin/warden.js in an example is this repository's launcher, as it is for a reader in a clone.
  mkdirSync(join(cwd, "bin"));
  const launcher = `#!/bin/sh\nexec "${process.execPath}" "${BUILT_CLI}" "$@"\n`;
  for (const path of [join(bin, "warden"), join(cwd, "bin/warden.js")]) {
    writeFileSync(path, launcher);
    chmodSync(path, 0o755);
  }
  const env: NodeJS.ProcessEnv = {
    PATH: `${bin}:${process.env.PATH}`,
    HOME: home,
    WARDEN_HOME: join(home, ".warden"),
    XDG_STATE_HOME: join(home, ".local/state"),
    ANTHROPIC_API_KEY: "docs-example",
    ANTHROPIC_BASE_URL: server.anthropicBaseURL,
    OPENAI_API_KEY: "docs-example",
    OPENAI_BASE_URL: server.openaiBaseURL,
    NO_COLOR: "1",
    LANG: "C.UTF-8",
  };
  return { cwd, env };
}

async function runToEnd(example: DocExample, cwd: string, env: NodeJS.ProcessEnv) {
  const child = spawn("bash", ["-e", "-c", example.script], { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout.on("data", (chunk) => (output += chunk));
  child.stderr.on("data", (chunk) => (output += chunk));
  const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
  return { code, output };
}

/** A server example: it must start, print something, and still be serving when stopped. */
async function runServer(example: DocExample, cwd: string, env: NodeJS.ProcessEnv) {
  const child: ChildProcess = spawn("bash", ["-c", `exec ${example.script}`], {
    cwd,
    env,
    stdio: ["pipe", "pipe", "pipe"],
    detached: true,
  });
  let output = "";
  let ended = false;
  child.on("exit", () => (ended = true));
  const started = new Promise<void>((resolve) => {
    const collect = (chunk: Buffer) => {
      output += chunk.toString();
      resolve();
    };
    child.stdout?.on("data", collect);
    child.stderr?.on("data", collect);
    child.on("exit", () => resolve());
  });
  await started;
  const stillServing = !ended;
  if (child.pid !== undefined && !ended) process.kill(-child.pid, "SIGTERM");
  return { stillServing, output };
}

describe("every shell example that runs Warden", () => {
  const examples = docExamples(REPO_ROOT);
  it("there are examples to run", () => {
    expect(examples.length).toBeGreaterThan(5);
  });
  for (const [index, example] of examples.entries()) {
    it(`${example.file}:${example.line}`, async () => {
      server.respondWith(() => reply().text("Done."));
      const { cwd, env } = readerProject(`example-${index}`);
      if (example.kind === "server") {
        const { stillServing, output } = await runServer(example, cwd, env);
        expect(stillServing, output).toBe(true);
        return;
      }
      const { code, output } = await runToEnd(example, cwd, env);
      expect(code, output).toBe(example.exitCode);
      for (const line of (example.shownOutput ?? "").split("\n").filter((l) => l.trim() !== "")) {
        expect(output, `${example.file}:${example.line} shows "${line}"`).toContain(line.trim());
      }
    }, 60_000);
  }
});
