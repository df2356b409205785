import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { runProcess } from "../helpers/run-process.js";
import { reply, type ScriptedModelServer, startScriptedModelServer } from "../helpers/scripted-model-server.js";
import { tempDir } from "../loop/helpers.js";

const root = fileURLToPath(new URL("../..", import.meta.url));
const cli = join(root, "dist/cli.js");

let server: ScriptedModelServer;
let project: string;
let cacheHome: string;
beforeEach(async () => {
  server = await startScriptedModelServer();
  project = tempDir();
  cacheHome = tempDir();
  for (let index = 0; index < 3; index += 1) writeFileSync(join(project, `part-${index}.txt`), `part ${index}\n`);
});
afterEach(async () => {
  await server.close();
});

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
  /** How each cached chunk was loaded ("hit", "miss", "rejected") and what the file held. */
  loads: Array<{ state: string; file: string; kind: string }>;
  /** The kinds of cache this run wrote, in order. */
  wrote: string[];
}

async function runBuilt(env: Record<string, string> = {}): Promise<Run> {
  const home = tempDir();
  mkdirSync(join(home, ".warden"), { recursive: true });
  const { code, stdout, stderr } = await runProcess(
    process.execPath,
    [cli, "-p", "go", "--model", "anthropic:claude-test"],
    {
      cwd: project,
      env: {
        ...process.env,
        HOME: home,
        WARDEN_HOME: join(home, ".warden"),
        XDG_CACHE_HOME: cacheHome,
        WARDEN_TRACE_CODE_CACHE: "1",
        WARDEN_TRACE_PHASES: "1",
        ANTHROPIC_API_KEY: "test",
        ANTHROPIC_BASE_URL: server.anthropicBaseURL,
        ...env,
      },
    },
  );
  return {
    code,
    stdout,
    stderr,
    loads: [...stderr.matchAll(/^warden: code cache (hit|miss|rejected) (\S+) (\S+)$/gm)].map((match) => ({
      state: match[1] as string,
      file: match[2] as string,
      kind: match[3] as string,
    })),
    wrote: [...stderr.matchAll(/^warden: code cache wrote (\S+) /gm)].map((match) => match[1] as string),
  };
}

/** What each cache file says it holds (its first 8 bytes), with its size and time. */
function onDisk(run: Run) {
  return run.loads.map(({ file }) => ({
    kind: readFileSync(file).toString("latin1", 0, 8),
    size: statSync(file).size,
    mtimeMs: statSync(file).mtimeMs,
  }));
}

const sayHi = () => server.enqueue(reply().text("Hello.").burst());
function reads(options: { delayMs?: number } = {}) {
  const calls = reply().delayHeaders(options.delayMs ?? 0);
  for (let index = 0; index < 3; index += 1) calls.tool("Read", { file_path: join(project, `part-${index}.txt`) });
  // The answer after the follow-up comes late enough for a write held back by the grammar's compile.
  server.enqueue(
    calls.burst(),
    reply()
      .delayHeaders(options.delayMs ?? 0)
      .text("Read them.")
      .burst(),
  );
}

describe.skipIf(!existsSync(cli))("the built CLI's code cache and the first tool turn", () => {
  it("completes a start-up cache once with a first turn of file tool calls, and later runs take it as it is", async () => {
    sayHi();
    const first = await runBuilt();
    expect(first.code, first.stderr).toBe(0);
    expect(first.loads.map((load) => load.state)).toEqual(["miss", "miss"]);
    expect(onDisk(first).map((file) => file.kind)).toEqual(["start-up", "start-up"]);
    const startUp = onDisk(first);

    // The first response is late: the bash grammar compiles while the session waits (V8's flags
    // change and must be set back, or the cache written afterwards is refused by every next run).
    reads({ delayMs: 1_500 });
    const withReads = await runBuilt();
    expect(withReads.code, withReads.stderr).toBe(0);
    expect(withReads.stderr).toContain("warden-phase warm_up_start");
    expect(withReads.loads.map((load) => `${load.state} ${load.kind}`)).toEqual(["hit start-up", "hit start-up"]);
    expect(withReads.wrote).toEqual(["toolturn", "toolturn"]);
    const completed = onDisk(withReads);
    expect(completed.map((file) => file.kind)).toEqual(["toolturn", "toolturn"]);
    expect(completed[0]?.size).toBeGreaterThan(startUp[0]?.size as number);

    reads();
    const again = await runBuilt();
    expect(again.code, again.stderr).toBe(0);
    expect(again.loads.map((load) => `${load.state} ${load.kind}`)).toEqual(["hit toolturn", "hit toolturn"]);
    expect(again.wrote).toEqual([]);
    expect(again.stdout).toBe(withReads.stdout);
    expect(onDisk(again)).toEqual(completed);

    // A later run that compiles more (Bash) keeps it too.
    server.enqueue(
      reply().tool("Bash", { command: "echo from-bash", description: "x" }).burst(),
      reply().text("Done.").burst(),
    );
    const bash = await runBuilt();
    expect(bash.code, bash.stderr).toBe(0);
    expect(bash.wrote).toEqual([]);
    expect(onDisk(bash)).toEqual(completed);
  }, 120_000);

  it("completes the cache in the run that wrote it, when that run's first tool turn reads files", async () => {
    reads();
    const first = await runBuilt();
    expect(first.code, first.stderr).toBe(0);
    expect(first.loads.map((load) => load.state)).toEqual(["miss", "miss"]);
    expect(first.wrote.filter((kind) => kind === "toolturn")).toEqual(["toolturn", "toolturn"]);
    sayHi();
    const next = await runBuilt();
    expect(next.loads.map((load) => `${load.state} ${load.kind}`)).toEqual(["hit toolturn", "hit toolturn"]);
    expect(next.wrote).toEqual([]);
  }, 120_000);

  it("completes the cache once V8's flags are back when the follow-up goes out during the grammar's compile", async () => {
    sayHi();
    await runBuilt();
    // The grammar's compile (V8's flags changed) starts while the first request waits and lasts
    // past the follow-up request; the answer to that comes after the compile's end.
    const calls = reply().delayHeaders(1_000);
    for (let index = 0; index < 3; index += 1) calls.tool("Read", { file_path: join(project, `part-${index}.txt`) });
    server.enqueue(calls.burst(), reply().delayHeaders(6_000).text("Read them.").burst());
    const during = await runBuilt({ WARDEN_TEST_GRAMMAR_COMPILE_DELAY_MS: "3000" });
    expect(during.code, during.stderr).toBe(0);
    const phases = [...during.stderr.matchAll(/^warden-phase (\S+) /gm)].map((match) => match[1]);
    expect(phases.filter((phase) => phase === "request_written")).toHaveLength(2);
    expect(during.stderr).toMatch(/^warden: code cache held back toolturn /m);
    expect(during.wrote).toEqual(["toolturn", "toolturn"]);
    sayHi();
    const next = await runBuilt();
    expect(next.loads.map((load) => `${load.state} ${load.kind}`)).toEqual(["hit toolturn", "hit toolturn"]);
  }, 120_000);

  it("leaves a start-up cache as it is after a first tool turn that ran Bash, and completes it on a later turn of reads", async () => {
    sayHi();
    const first = await runBuilt();
    expect(first.code, first.stderr).toBe(0);
    const startUp = onDisk(first);

    server.enqueue(
      reply()
        .tool("Bash", { command: "echo from-bash", description: "x" })
        .tool("Read", { file_path: join(project, "part-0.txt") })
        .burst(),
      reply()
        .tool("Read", { file_path: join(project, "part-1.txt") })
        .burst(),
      reply().text("Done.").burst(),
    );
    const bash = await runBuilt();
    expect(bash.code, bash.stderr).toBe(0);
    expect(bash.loads.map((load) => `${load.state} ${load.kind}`)).toEqual(["hit start-up", "hit start-up"]);
    // Only the first tool turn counts: the second, of reads alone, follows Bash's path.
    expect(bash.wrote).toEqual([]);
    expect(onDisk(bash)).toEqual(startUp);

    reads();
    const withReads = await runBuilt();
    expect(withReads.wrote).toEqual(["toolturn", "toolturn"]);
  }, 120_000);

  it("treats a file with the right mark but no V8 cache after it as no cache, and writes a good one", async () => {
    sayHi();
    const first = await runBuilt();
    for (const { file } of first.loads) writeFileSync(file, Buffer.from(`toolturn${"not V8's code cache".repeat(50)}`));
    reads();
    const corrupt = await runBuilt();
    expect(corrupt.code, corrupt.stderr).toBe(0);
    expect(corrupt.loads.map((load) => load.state)).toEqual(["rejected", "rejected"]);
    expect(corrupt.wrote.at(-1)).toBe("toolturn");
    sayHi();
    const after = await runBuilt();
    expect(after.loads.map((load) => `${load.state} ${load.kind}`)).toEqual(["hit toolturn", "hit toolturn"]);
  }, 120_000);
});
