// A model request that fails and is retried is told on stderr in the text and json formats (a
// script sees why nothing comes yet), while stdout keeps only the answer; stream-json has its
// api_retry line instead (test/sdk/agent-sdk-options.test.ts).
import { describe, expect, it } from "vitest";
import { httpError, reply } from "../helpers/scripted-model-server.js";
import { cliProject, runScriptedCli, scriptedServerOfFile } from "./scripted-cli.js";

const server = scriptedServerOfFile();

describe("a retried model request in -p", () => {
  it("says on stderr what failed and when it tries again, and the answer alone reaches stdout", async () => {
    for (const format of ["text", "json"]) {
      server().enqueue(httpError(529, { retryAfterMs: 10, message: "Overloaded" }), reply().text("after a retry"));
      const run = await runScriptedCli(server(), cliProject("retry-notice"), ["-p", "hi", "--output-format", format]);
      expect(run.code, run.stderr).toBe(0);
      expect(run.stderr).toMatch(
        /^warden: the model request failed \(529: [^\n]*Overloaded[^\n]*\); trying again in 0\.0 s \(retry 1 of \d+\)\n$/,
      );
      if (format === "text") expect(run.stdout.trim()).toBe("after a retry");
      else expect(JSON.parse(run.stdout)).toMatchObject({ type: "result", result: "after a retry" });
    }
  });
});
