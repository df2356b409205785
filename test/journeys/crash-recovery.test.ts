// Journey: the machine kills warden mid-run (kill -9 while a command runs, after the fix was
// written), and the person goes on with `--continue`. The built CLI, a scripted capable model.
// What is checked: what the host saw before the kill is in the transcript, the edit made before the
// kill is on disk, the continued run is the same session, it ends well, and the call cut by the
// kill has a result in the conversation (the model is told).
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { projectDataDir } from "../../src/config/paths.js";
import { runCli } from "../cli/run-cli.js";
import { reply } from "../helpers/scripted-model-server.js";
import { scriptedModelServerFixture } from "../helpers/scripted-server-fixture.js";
import { tempDir, writeScript } from "../loop/helpers.js";
import { bugRepo, FIXED_SUM, sumSource, TEST_COMMAND, testsPass } from "./helpers/bug-repo.js";
import { call, exploreTurns, fixEdit, text, turn } from "./helpers/capable-model.js";

const slow = `sleep 30.${process.pid}`;
const server = scriptedModelServerFixture("file");

describe("journey: kill -9 mid-run, then --continue", () => {
  it("keeps what was done, continues the same session and tells the model the cut call's fate", async () => {
    const cwd = bugRepo();
    const home = tempDir("warden-journey-home-");
    const first = writeScript(tempDir("warden-journey-script-"), [
      ...exploreTurns(),
      turn([fixEdit("k1")]),
      turn([text("Now a long check."), call("k2", "Bash", { command: `echo checking; ${slow}` })]),
      turn([text("never reached")]),
    ]);
    let streamed = "";
    let killedAt: string | undefined;
    const transcriptText = () => {
      const dir = projectDataDir(cwd).replace(/^.*\/projects\//, join(home, "projects/"));
      const files = existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith(".jsonl")) : [];
      return files.map((f) => readFileSync(join(dir, f), "utf8")).join("");
    };
    const killed = await runCli(
      [
        "--model",
        `replay:${first}`,
        "-p",
        "Fix the sum test.",
        "--output-format",
        "stream-json",
        "--verbose",
        "--allowedTools",
        "Edit",
      ],
      {
        home,
        processCwd: cwd,
        onStdout: (chunk, child) => {
          streamed += chunk;
          // The long command's call is out (the edit before it is done): the machine dies at once.
          // What the host was shown must already be in the transcript (read before the kill).
          if (streamed.includes('"id":"k2"') && killedAt === undefined) {
            killedAt = transcriptText();
            child.kill("SIGKILL");
          }
        },
      },
    );
    expect(killed.signal).toBe("SIGKILL");
    expect(killedAt).toContain('"id":"k2"');
    expect(killedAt).toContain('"tool_use_id":"k1"');
    expect(sumSource(cwd)).toBe(FIXED_SUM);

    // The model of the second run answers from what it is sent (the scripted server records it).
    const at = server.requests.length;
    server.enqueue(
      reply().text("The last run was cut off; running the tests again.").tool("Bash", { command: TEST_COMMAND }),
      reply().text("The fix holds: the test passes."),
    );
    const resumed = await runCli(
      [
        "--model",
        "anthropic:claude-test",
        "--continue",
        "-p",
        "Go on.",
        "--output-format",
        "json",
        "--allowedTools",
        `Bash(${TEST_COMMAND})`,
      ],
      { home, processCwd: cwd, env: { ANTHROPIC_API_KEY: "test", ANTHROPIC_BASE_URL: server.anthropicBaseURL } },
    );
    expect(resumed.code, resumed.stderr).toBe(0);
    const result = JSON.parse(resumed.stdout) as Record<string, unknown>;
    expect(result).toMatchObject({ subtype: "success", result: "The fix holds: the test passes.", num_turns: 2 });
    expect(testsPass(cwd)).toBe(true);

    // One session: its transcript holds both runs, and the killed call has a result.
    const transcript = transcriptText();
    expect(transcript.match(/"type":"session"/g)).toHaveLength(1);
    expect(transcript).toContain(`"sessionId":"${result.session_id}"`);
    expect(transcript).toContain("Fix the sum test.");
    expect(transcript).toContain("Go on.");
    // The model was sent the whole conversation, the edit's result and the cut call's fate included.
    const sent = JSON.stringify((server.requests[at]?.body as { messages?: unknown } | undefined)?.messages);
    expect(sent).toContain("Fix the sum test.");
    expect(sent).toMatch(/"tool_use_id":"k1"/);
    expect(sent).toMatch(/"tool_use_id":"k2"/);
    expect(sent).toContain("Go on.");
  }, 60_000);
});
