// The output style in force is named in the stream-json init line, as Claude Code names it.
import { realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { tempDir, text, writeScript } from "../loop/helpers.js";
import { jsonLines, runCli } from "./run-cli.js";

describe("output style in a CLI run", () => {
  it("the init line names the style the settings chose", async () => {
    const cwd = realpathSync(tempDir("warden-output-style-cli-"));
    const home = tempDir("warden-output-style-home-");
    const settingsFile = join(cwd, "style-settings.json");
    writeFileSync(settingsFile, JSON.stringify({ outputStyle: "explanatory" }));
    const script = writeScript(cwd, [{ content: [text("hello")] }]);
    const args = [
      "-p",
      "hi",
      "--model",
      `replay:${script}`,
      "--cwd",
      cwd,
      "--output-format",
      "stream-json",
      "--verbose",
    ];
    const run = await runCli([...args, "--settings", settingsFile], { home });
    expect(run.code, run.stderr).toBe(0);
    expect(jsonLines(run.stdout).find((line) => line.subtype === "init")?.output_style).toBe("Explanatory");
    const plain = await runCli(args, { home });
    expect(jsonLines(plain.stdout).find((line) => line.subtype === "init")?.output_style).toBe("default");
  }, 60_000);
});
