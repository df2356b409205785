// The library's query() (Warden in one process) has the Agent SDK's control methods too: a running
// foreground command moved to the background (backgroundTasks), its output read (getTaskOutput)
// and the task stopped (stopTask); a skill written mid-session found by reloadSkills(); the refusals
// of what Warden has not (reloadOutputStyles, plugins).
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { query, type SDKMessage } from "../../src/sdk/index.js";
import { writeScript } from "../loop/helpers.js";
import { openPrompt, resultText } from "./prompt-stream.js";

beforeAll(() => {
  process.env.WARDEN_HOME = mkdtempSync(join(tmpdir(), "warden-library-controls-home-"));
});

describe("query()'s control methods in one process", () => {
  it("moves a running command to the background, reads its output and stops it", async () => {
    const cwd = mkdtempSync(join(tmpdir(), "warden-library-controls-"));
    const script = writeScript(cwd, [
      { content: [{ type: "tool_use", id: "b1", name: "Bash", input: { command: "echo started; sleep 60" } }] },
      { content: [{ type: "text", text: "left it running" }] },
    ]);
    const input = openPrompt("run it");
    const q = query({
      prompt: input.prompt,
      options: { cwd, model: `replay:${script}`, allowedTools: ["Bash"] },
    });
    const messages: SDKMessage[] = [];
    let taskId: string | undefined;
    for await (const message of q) {
      messages.push(message);
      const content = message.type === "assistant" ? (message.message?.content as Array<{ type: string }>) : [];
      if (content.some((block) => block.type === "tool_use")) {
        // The command registers when it starts: asked until there is one to move.
        for (let tries = 0; !(await q.backgroundTasks()); tries++) {
          if (tries > 100_000) throw new Error("the command never started");
        }
      }
      const moved = resultText(messages, "b1");
      if (moved && taskId === undefined) {
        taskId = /task id (\S+)\./.exec(moved)?.[1];
        expect(moved).toContain("The user moved this command to the background while it ran.");
        let output = await q.getTaskOutput(taskId ?? "");
        while (!String(output.output).includes("started")) output = await q.getTaskOutput(taskId ?? "");
        expect(output).toMatchObject({ output: "started\n", truncated: false, status: "running" });
        await q.stopTask(taskId ?? "");
        expect(await q.getTaskOutput(taskId ?? "")).toMatchObject({ status: "killed" });
      }
      if (message.type === "result") {
        await expect(q.getTaskOutput("nope")).rejects.toThrow(/no background task "nope"/);
        input.end();
      }
    }
    expect(taskId).toBeDefined();
    expect(messages.filter((m) => m.type === "result")).toEqual([
      expect.objectContaining({ result: "left it running" }),
    ]);
  }, 60_000);

  it("reloads the skills written while the session runs; refuses output styles and plugins", async () => {
    const cwd = mkdtempSync(join(tmpdir(), "warden-library-skills-"));
    const script = writeScript(cwd, [{ content: [{ type: "text", text: "ok" }] }]);
    const input = openPrompt("hello", true);
    const q = query({ prompt: input.prompt, options: { cwd, model: `replay:${script}` } });
    expect(await q.reloadSkills()).toEqual({ skills: [] });
    const dir = join(cwd, ".warden", "skills", "release-notes");
    mkdirSync(dir, { recursive: true });
    writeFileSync(
      join(dir, "SKILL.md"),
      "---\nname: release-notes\ndescription: Write the release notes\n---\nSteps.\n",
    );
    expect(await q.reloadSkills()).toEqual({
      skills: [{ name: "release-notes", description: "Write the release notes", argumentHint: "" }],
    });
    const plugins = await q.reloadPlugins();
    expect(plugins).toMatchObject({ plugins: [], error_count: 0 });
    expect((plugins.commands as Array<{ name: string }>).map((c) => c.name)).toContain("release-notes");
    await expect(q.reloadPlugins({ addPlugins: [{ type: "local", path: "/x" }] })).rejects.toThrow(
      /add_plugins is not supported/,
    );
    await expect(q.reloadOutputStyles()).rejects.toThrow(/Warden has no output styles/);
    input.send();
    const messages: SDKMessage[] = [];
    for await (const message of q) {
      messages.push(message);
      if (message.type === "result") input.end();
    }
    const init = messages.find((m) => m.type === "system" && m.subtype === "init");
    expect(init?.skills).toEqual(["release-notes"]);
    expect(init?.tools).toContain("Skill");
  }, 60_000);
});
