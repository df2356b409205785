// CronCreate in `warden -p`: the run ends once its prompt is answered, so a task scheduled for
// this session alone would never fire. The model was told "Scheduled" and said so to the user; the
// call is now refused with the reason and what to do instead.
import { describe, expect, it } from "vitest";
import { tempDir, text, toolUse, writeScript } from "../loop/helpers.js";
import { jsonLines, runCli } from "./run-cli.js";

describe("CronCreate in a one-shot -p run", () => {
  it("refuses a session-only schedule, saying the run ends first", async () => {
    const home = tempDir("warden-cron-home-");
    const cwd = tempDir("warden-cron-project-");
    const script = writeScript(cwd, [
      { content: [toolUse("c1", "CronCreate", { cron: "* * * * *", prompt: "check the build" })] },
      { content: [text("I could not schedule it.")] },
    ]);
    const run = await runCli(
      [
        "-p",
        "check the build every minute",
        "--model",
        `replay:${script}`,
        "--output-format",
        "stream-json",
        "--cwd",
        cwd,
      ],
      { home },
    );
    expect(run.code, run.stderr).toBe(0);
    const results = jsonLines(run.stdout)
      .filter((line) => line.type === "user")
      .flatMap((line) => (line.message as { content: unknown }).content as Array<Record<string, unknown>>)
      .filter((block) => typeof block === "object" && block.type === "tool_result");
    const result = results.find((block) => block.tool_use_id === "c1");
    expect(result?.is_error).toBe(true);
    expect(JSON.stringify(result?.content)).toContain("This run ends once its prompt is answered");
    expect(JSON.stringify(result?.content)).toContain("durable: true");
  });
});
