// The Agent SDK's task lines from Warden's built CLI: a background command and a background agent
// each give task_started, the agent task_progress after its responses, and each task_notification
// when it ends, in the SDK's shapes. The real SDK client, real bash, the replay model.
import { query, type SDKMessage } from "@anthropic-ai/claude-agent-sdk";
import { describe, expect, it } from "vitest";
import { writeScript } from "../loop/helpers.js";
import { Prompts, sdkOptions, workspace } from "./sdk-harness.js";

const text = (t: string) => ({ type: "text", text: t });
const toolUse = (id: string, name: string, input: object) => ({ type: "tool_use", id, name, input });

type Line = SDKMessage & { subtype?: string; task_id?: string };

describe("task lines in stream-json (the real Agent SDK)", () => {
  it("reports a background command and a background agent from start to end", async () => {
    const ws = workspace();
    const script = writeScript(ws.cwd, [
      {
        content: [
          toolUse("b1", "Bash", { command: "sleep 0.5; echo built", run_in_background: true, description: "Build" }),
          toolUse("a1", "Agent", { description: "count files", prompt: "Count the files", run_in_background: true }),
        ],
      },
      {
        agent: "count files",
        content: [toolUse("g1", "Glob", { pattern: "*" })],
        usage: { input_tokens: 20, output_tokens: 5 },
      },
      {
        agent: "count files",
        content: [text("There are a few files.")],
        usage: { input_tokens: 30, output_tokens: 6 },
      },
      { content: [text("Both are running.")] },
      // The idle session answers the tasks' ends by itself: once, or once per task.
      { content: [text("Noted.")] },
      { content: [text("Noted.")] },
    ]);
    const prompts = new Prompts();
    const q = query({ prompt: prompts, options: sdkOptions(ws, { model: `replay:${script}` }) });
    prompts.send("build and count");
    const lines: Line[] = [];
    const ended = new Set<string>();
    for await (const message of q) {
      const line = message as Line;
      lines.push(line);
      if (line.type === "system" && line.subtype === "task_notification" && line.task_id) ended.add(line.task_id);
      // Both tasks have ended (the prompt's result may come before or after): done.
      if (ended.size === 2 && lines.some((l) => l.type === "result")) prompts.end();
    }
    const system = (subtype: string) => lines.filter((l) => l.type === "system" && l.subtype === subtype);
    const started = system("task_started");
    expect(started).toHaveLength(2);
    const bash = started.find((l) => (l as { task_type?: string }).task_type === "local_bash");
    const agent = started.find((l) => (l as { task_type?: string }).task_type === "local_agent");
    // Each names the call that started it; the agent its type.
    expect(bash).toMatchObject({ description: "Build", is_backgrounded: true, tool_use_id: "b1" });
    expect(bash).not.toHaveProperty("subagent_type");
    expect(agent).toMatchObject({
      description: "count files",
      is_backgrounded: true,
      tool_use_id: "a1",
      subagent_type: "general-purpose",
    });

    const progress = system("task_progress").filter((l) => l.task_id === agent?.task_id);
    expect(progress.length).toBeGreaterThanOrEqual(2);
    expect(progress[0]).toMatchObject({ usage: { total_tokens: 25, tool_uses: 1 }, last_tool_name: "Glob" });
    expect(progress.at(-1)).toMatchObject({ usage: { total_tokens: 61, tool_uses: 1 } });

    const notifications = system("task_notification");
    const bashEnd = notifications.find((l) => l.task_id === bash?.task_id);
    expect(bashEnd).toMatchObject({ status: "completed" });
    expect(String((bashEnd as { summary?: string }).summary)).toContain("completed with exit code 0");
    expect(String((bashEnd as { output_file?: string }).output_file)).toMatch(/\.output$/);
    const agentEnd = notifications.find((l) => l.task_id === agent?.task_id);
    expect(agentEnd).toMatchObject({ status: "completed" });
    expect(String((agentEnd as { summary?: string }).summary)).toContain("There are a few files.");
    // Every line carries the session's id, as the SDK's types declare.
    for (const line of [...started, ...progress, ...notifications]) expect(line.session_id).toBeTruthy();
    // And one run id per task, the same on each of its lines, different between the two tasks.
    const runIds = (taskId: string | undefined) =>
      new Set(
        [...started, ...progress, ...notifications]
          .filter((l) => l.task_id === taskId)
          .map((l) => (l as { run_id?: string }).run_id),
      );
    const [bashRun] = [...runIds(bash?.task_id)];
    const [agentRun] = [...runIds(agent?.task_id)];
    expect(runIds(bash?.task_id).size).toBe(1);
    expect(runIds(agent?.task_id).size).toBe(1);
    expect(bashRun).toEqual(expect.any(String));
    expect(agentRun).toEqual(expect.any(String));
    expect(bashRun).not.toBe(agentRun);
    expect(progress.every((l) => (l as { tool_use_id?: string }).tool_use_id === "a1")).toBe(true);
    expect(bashEnd).toMatchObject({ tool_use_id: "b1" });
    expect(agentEnd).toMatchObject({ tool_use_id: "a1" });
  });
});
