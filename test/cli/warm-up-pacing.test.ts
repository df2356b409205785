// The grammar warm-up (the Bash tool's analysis, loaded while the session waits on the model)
// must give way to the session's own work: once a response's tool calls arrive, its remaining
// steps wait until the next request is out; and a Bash call that needs the grammar meanwhile gets
// it at once instead of waiting for the warm-up's turn. The real CLI against the scripted model
// server; the order of events is read from the phase trace (WARDEN_TRACE_PHASES=1), and the
// grammar is made to load slowly (WARDEN_TEST_GRAMMAR_LOAD_DELAY_MS) so that the answer arrives
// while the warm-up is under way.
import { mkdtemp, realpath, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { builtFixture } from "../helpers/built.js";
import { reply, type ScriptedModelServer, startScriptedModelServer } from "../helpers/scripted-model-server.js";
import { runCli } from "./run-cli.js";

const waitTool = builtFixture("cli/fixtures/wait-tool.ts");

let server: ScriptedModelServer;
let dir: string;
beforeEach(async () => {
  server = await startScriptedModelServer();
  dir = await realpath(await mkdtemp(join(tmpdir(), "warden-warm-up-")));
});
afterEach(async () => {
  await server.close();
  await rm(dir, { recursive: true, force: true });
});

/** The phase names of the trace, in the order they happened. */
function phases(stderr: string): string[] {
  return [...stderr.matchAll(/^warden-phase (\S+) \d+ \d+$/gm)].map((match) => match[1] as string);
}

function run(grammarDelayMs: number) {
  return runCli(["-p", "go", "--model", "anthropic:claude-test"], {
    home: join(dir, "home"),
    processCwd: dir,
    env: {
      ANTHROPIC_API_KEY: "test",
      ANTHROPIC_BASE_URL: server.anthropicBaseURL,
      WARDEN_EXTRA_TOOLS: waitTool,
      WARDEN_TRACE_PHASES: "1",
      WARDEN_TEST_GRAMMAR_LOAD_DELAY_MS: String(grammarDelayMs),
    },
  });
}

describe("the grammar warm-up", () => {
  it("pauses while the session runs the model's tool calls and goes on once the next request is out", async () => {
    // The first answer comes late enough for the warm-up to start, and its call keeps the session
    // busy past the injected load delay; the second answer leaves time for the warm-up to go on.
    server.enqueue(
      reply().delayHeaders(200).tool("Wait", { ms: 1_500 }).burst(),
      reply().delayHeaders(1_000).text("done").burst(),
    );
    const result = await run(500);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain("done");

    const trace = phases(result.stderr);
    expect(trace).toContain("warm_up_start");
    // Each step started while the session waited on the model: the latest of a request written
    // and a response's tool call (or end) before it is a request written.
    const markers = new Set(["request_written", "response_tool_use", "response_end"]);
    trace.forEach((phase, index) => {
      if (phase !== "warm_up_step") return;
      const latest = trace.slice(0, index).findLast((earlier) => markers.has(earlier));
      expect(latest, trace.join(" ")).toBe("request_written");
    });
    // The steps the call held back ran once the follow-up request was out.
    const secondRequest = trace.indexOf("request_written", trace.indexOf("request_written") + 1);
    expect(secondRequest).toBeGreaterThan(0);
    expect(trace.slice(secondRequest)).toContain("warm_up_step");
  }, 60_000);

  it("does not hold up a Bash call that needs the grammar while it is paused", async () => {
    server.enqueue(
      reply().delayHeaders(200).tool("Bash", { command: "echo paced-hi", description: "say hi" }).burst(),
      reply().text("done").burst(),
    );
    const result = await run(300);
    expect(result.code, result.stderr).toBe(0);
    expect(phases(result.stderr)).toContain("warm_up_start");
    // The call ran (had the warm-up kept the grammar, the session would wait for ever).
    const followUp = JSON.stringify(server.requests[1]?.body);
    expect(followUp).toContain("paced-hi");
    expect(result.stdout).toContain("done");
  }, 60_000);
});
