// The cost line: total_cost_usd and modelUsage in the result, priced from the model table (or
// settings) for the usage a model server reported, and --max-budget-usd ending a session.
import { describe, expect, it } from "vitest";
import { reply } from "../helpers/scripted-model-server.js";
import { scriptedModelServerFixture } from "../helpers/scripted-server-fixture.js";
import { tempDir, text, toolUse, writeScript } from "../loop/helpers.js";
import { jsonLines, runCli } from "./run-cli.js";

const server = scriptedModelServerFixture("file");

function anthropicEnv(): Record<string, string> {
  return { ANTHROPIC_API_KEY: "test", ANTHROPIC_BASE_URL: server.anthropicBaseURL };
}

const SONNET = { input: 3, output: 15, cacheWrite: 3.75, cacheRead: 0.3 };
type Counts = { input: number; output: number; cacheRead: number; cacheWrite: number };
const usd = (price: typeof SONNET, u: Counts) =>
  (u.input * price.input + u.output * price.output + u.cacheWrite * price.cacheWrite + u.cacheRead * price.cacheRead) /
  1e6;

describe("cost in the result line", () => {
  it("prices the usage the server reported, per model, in stream-json and json", async () => {
    const first: Counts = { input: 1_200, output: 80, cacheRead: 0, cacheWrite: 5_000 };
    const second: Counts = { input: 40, output: 300, cacheRead: 5_000, cacheWrite: 150 };
    const cwd = tempDir("warden-cost-");
    for (const format of ["stream-json", "json"]) {
      server.enqueue(reply().tool("Echo", { text: "hi" }).usage(first), reply().text("done").usage(second));
      const run = await runCli(
        ["-p", "go", "--model", "anthropic:claude-sonnet-4-5", "--output-format", format, "--cwd", cwd],
        { home: tempDir("warden-cost-home-"), env: anthropicEnv() },
      );
      expect(run.code, run.stderr).toBe(0);
      const result = jsonLines(run.stdout).at(-1) as Record<string, unknown>;
      const expected = usd(SONNET, first) + usd(SONNET, second);
      expect(result.type).toBe("result");
      expect(result.total_cost_usd as number).toBeCloseTo(expected, 12);
      expect(result.modelUsage).toEqual({
        "claude-sonnet-4-5": {
          inputTokens: 1_240,
          outputTokens: 380,
          cacheReadInputTokens: 5_000,
          cacheCreationInputTokens: 5_150,
          webSearchRequests: 0,
          costUSD: expect.closeTo(expected, 12),
          contextWindow: 200_000,
          maxOutputTokens: 64_000,
        },
      });
    }
  });

  it("reports an unknown price as null, not zero, and takes a price from settings", async () => {
    const cwd = tempDir("warden-cost-");
    const script = writeScript(cwd, [
      { content: [text("done")], usage: { input_tokens: 2_000_000, output_tokens: 1_000_000 } },
    ]);
    const plain = await runCli(["-p", "go", "--model", `replay:${script}`, "--output-format", "json", "--cwd", cwd], {
      home: tempDir("warden-cost-home-"),
    });
    expect(plain.code, plain.stderr).toBe(0);
    const unknown = JSON.parse(plain.stdout) as Record<string, unknown>;
    expect(unknown.total_cost_usd).toBeNull();
    expect((unknown.modelUsage as Record<string, { costUSD: unknown }>)[script]?.costUSD).toBeNull();

    const settings = JSON.stringify({ models: { "replay:*": { price: { input: 1, output: 2 } } } });
    const priced = await runCli(
      ["-p", "go", "--model", `replay:${script}`, "--output-format", "json", "--cwd", cwd, "--settings", settings],
      { home: tempDir("warden-cost-home-") },
    );
    expect(priced.code, priced.stderr).toBe(0);
    expect((JSON.parse(priced.stdout) as { total_cost_usd: number }).total_cost_usd).toBeCloseTo(2 + 2, 10);
  });
});

describe("--max-budget-usd", () => {
  it("ends the session with error_max_budget_usd once the spending reaches the budget", async () => {
    // A price from settings of $1 a token: each turn's 3 input tokens cost $3, so a $5 budget
    // allows two requests. (Millions of tokens at the table's price would fill the window first.)
    const settings = JSON.stringify({
      models: { "anthropic:claude-sonnet-4-5": { price: { input: 1_000_000, output: 0 } } },
    });
    const costly = { input: 3, output: 0, cacheRead: 0, cacheWrite: 0 };
    server.enqueue(
      reply().tool("Echo", { text: "1" }).usage(costly),
      reply().tool("Echo", { text: "2" }).usage(costly),
    );
    const before = server.requests.length;
    const run = await runCli(
      [
        "-p",
        "go",
        "--model",
        "anthropic:claude-sonnet-4-5",
        "--output-format",
        "json",
        "--max-budget-usd",
        "5",
        "--settings",
        settings,
        "--cwd",
        tempDir("warden-cost-"),
      ],
      { home: tempDir("warden-cost-home-"), env: anthropicEnv() },
    );
    expect(run.code).toBe(1);
    const result = JSON.parse(run.stdout) as Record<string, unknown>;
    expect(result).toMatchObject({ subtype: "error_max_budget_usd", is_error: true, num_turns: 2 });
    expect(result.total_cost_usd as number).toBeCloseTo(6, 10);
    expect(server.requests.length - before).toBe(2);
    expect(server.pendingSteps()).toBe(0);
  });

  it("refuses a budget it cannot measure (no price for the model), before any request", async () => {
    const cwd = tempDir("warden-cost-");
    const script = writeScript(cwd, [{ content: [toolUse("t1", "Echo", { text: "x" })] }]);
    const run = await runCli(["-p", "go", "--model", `replay:${script}`, "--max-budget-usd", "1", "--cwd", cwd], {
      home: tempDir("warden-cost-home-"),
    });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("its price is unknown");
    const bad = await runCli(["-p", "go", "--model", `replay:${script}`, "--max-budget-usd", "-3"], {
      home: tempDir("warden-cost-home-"),
    });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("--max-budget-usd must be a number of dollars > 0");
  });
});
