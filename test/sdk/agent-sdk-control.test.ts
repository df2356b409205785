// Control requests of the real Agent SDK beyond the conversation itself, answered by Warden's built
// CLI: getContextUsage() (what fills the window), rewindFiles() with enableFileCheckpointing (the
// file changes since a user message undone), stopTask(), and an error for what is not handled. The
// replay model stands in for the model.
import { randomUUID } from "node:crypto";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { query, type SDKMessage } from "@anthropic-ai/claude-agent-sdk";
import { describe, expect, it } from "vitest";
import { writeScript } from "../loop/helpers.js";
import { collect, Prompts, results, sdkOptions, workspace } from "./sdk-harness.js";

const text = (t: string) => ({ type: "text", text: t });
const toolUse = (id: string, name: string, input: object) => ({ type: "tool_use", id, name, input });

describe("Agent SDK control requests", () => {
  it("answers getContextUsage() with the window's use by kind", async () => {
    const ws = workspace();
    const script = writeScript(ws.cwd, [
      { content: [text("a fairly short answer")], usage: { input_tokens: 9000, output_tokens: 40 } },
    ]);
    const prompts = new Prompts();
    const q = query({
      prompt: prompts,
      options: sdkOptions(ws, {
        model: `replay:${script}`,
        systemPrompt: { type: "preset", preset: "claude_code" },
        tools: ["Read", "Write", "Edit", "Bash", "Glob", "Grep", "NotebookEdit"],
      }),
    });
    prompts.send("hello");
    let usage: Awaited<ReturnType<typeof q.getContextUsage>> | undefined;
    for await (const message of q) {
      if (message.type !== "result") continue;
      usage = await q.getContextUsage();
      prompts.end();
    }
    const row = (id: string) => usage?.categories.find((c) => c.id === id);
    expect(row("system_prompt")?.tokens).toBeGreaterThan(200);
    const toolRows = usage?.systemTools ?? [];
    expect(row("system_tools")?.tokens).toBe(toolRows.reduce((sum, t) => sum + t.tokens, 0));
    expect(row("system_tools")?.tokens).toBeGreaterThan(1000);
    // The conversation's figure is the provider's: 9,000 in and 40 out.
    expect(usage?.totalTokens).toBe(9040);
    expect(row("messages")?.tokens).toBe(
      9040 - (row("system_prompt")?.tokens ?? 0) - (row("system_tools")?.tokens ?? 0),
    );
    expect(row("free_space")?.kind).toBe("free");
    expect(usage?.maxTokens).toBeGreaterThan(usage?.totalTokens ?? 0);
    expect(usage?.systemTools?.map((t) => t.name)).toContain("Read");
    // Deferred tools are named, not sent: counted apart.
    expect(usage?.deferredBuiltinTools?.map((t) => t.name)).toEqual(["NotebookEdit"]);
    expect(row("system_tools_deferred")).toMatchObject({ kind: "deferred", isDeferred: true });
    expect(row("system_tools_deferred")?.tokens).toBeGreaterThan(0);
    expect(usage?.apiUsage).toMatchObject({ input_tokens: 9000, output_tokens: 40 });
    expect(usage?.isAutoCompactEnabled).toBe(true);
  });

  it("rewinds the files changed since a user message (enableFileCheckpointing, rewindFiles)", async () => {
    const ws = workspace();
    const script = writeScript(ws.cwd, [
      { content: [toolUse("w1", "Write", { file_path: "{{cwd}}/a.txt", content: "v1\n" })] },
      { content: [text("one done")] },
      {
        content: [
          toolUse("w2", "Write", { file_path: "{{cwd}}/a.txt", content: "v2\nmore\n" }),
          toolUse("w3", "Write", { file_path: "{{cwd}}/b.txt", content: "new\n" }),
        ],
      },
      { content: [text("two done")] },
    ]);
    const prompts = new Prompts();
    const q = query({
      prompt: prompts,
      options: sdkOptions(ws, {
        model: `replay:${script}`,
        permissionMode: "acceptEdits",
        enableFileCheckpointing: true,
      }),
    });
    const second = randomUUID();
    prompts.send("one", randomUUID());
    let done = 0;
    let preview: Awaited<ReturnType<typeof q.rewindFiles>> | undefined;
    let rewound: Awaited<ReturnType<typeof q.rewindFiles>> | undefined;
    let unknown: Awaited<ReturnType<typeof q.rewindFiles>> | undefined;
    let afterPreview = "";
    for await (const message of q) {
      if (message.type !== "result") continue;
      expect(message.subtype).toBe("success");
      done++;
      if (done === 1) prompts.send("two", second);
      else {
        preview = await q.rewindFiles(second, { dryRun: true });
        afterPreview = readFileSync(join(ws.cwd, "a.txt"), "utf8");
        rewound = await q.rewindFiles(second);
        unknown = await q.rewindFiles(randomUUID());
        prompts.end();
      }
    }
    expect(preview).toMatchObject({ canRewind: true, insertions: 3, deletions: 1 });
    expect(preview?.filesChanged?.map((f) => f.split("/").pop()).sort()).toEqual(["a.txt", "b.txt"]);
    expect(afterPreview).toBe("v2\nmore\n");
    expect(rewound).toMatchObject({ canRewind: true });
    expect(readFileSync(join(ws.cwd, "a.txt"), "utf8")).toBe("v1\n");
    expect(existsSync(join(ws.cwd, "b.txt"))).toBe(false);
    expect(unknown).toMatchObject({ canRewind: false, error: expect.stringMatching(/no checkpoint/) });
  });

  it("refuses rewindFiles() without checkpointing, stopTask() of an unknown task, and requests it does not know", async () => {
    const ws = workspace();
    const script = writeScript(ws.cwd, [{ content: [text("hi")] }]);
    const prompts = new Prompts();
    const q = query({ prompt: prompts, options: sdkOptions(ws, { model: `replay:${script}` }) });
    prompts.send("hello", randomUUID());
    const errors: string[] = [];
    for await (const message of q) {
      if (message.type !== "result") continue;
      await q.rewindFiles(randomUUID()).catch((error: Error) => errors.push(error.message));
      await q.stopTask("no-such-task").catch((error: Error) => errors.push(error.message));
      // A request Warden does not handle gets an error response naming it, never silence.
      await q.reloadOutputStyles().catch((error: Error) => errors.push(error.message));
      prompts.end();
    }
    expect(errors).toEqual([
      expect.stringMatching(/file checkpointing is off/),
      expect.stringMatching(/no running task "no-such-task"/),
      expect.stringMatching(/Warden has no output styles/),
    ]);
  });

  it("writes hook_started and hook_response lines for command hooks (includeHookEvents)", async () => {
    const ws = workspace();
    const script = writeScript(ws.cwd, [
      { content: [toolUse("b1", "Bash", { command: "true" })] },
      { content: [text("done")] },
    ]);
    const hooks = {
      PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: "echo looked; echo warn >&2" }] }],
    };
    const run = (includeHookEvents: boolean) =>
      collect(
        query({
          prompt: "go",
          options: sdkOptions(ws, {
            model: `replay:${script}`,
            allowedTools: ["Bash"],
            includeHookEvents,
            extraArgs: { settings: JSON.stringify({ hooks }) },
          }),
        }),
      );
    const messages = await run(true);
    const lines = messages.filter(
      (m) => m.type === "system" && (m.subtype === "hook_started" || m.subtype === "hook_response"),
    );
    expect(lines).toEqual([
      expect.objectContaining({ subtype: "hook_started", hook_name: "PreToolUse:Bash", hook_event: "PreToolUse" }),
      expect.objectContaining({
        subtype: "hook_response",
        hook_name: "PreToolUse:Bash",
        stdout: "looked\n",
        stderr: "warn\n",
        exit_code: 0,
        outcome: "success",
      }),
    ]);
    const [started, response] = lines as Array<{ hook_id: string }>;
    expect(response?.hook_id).toBe(started?.hook_id);
    expect(results(messages)[0]).toMatchObject({ subtype: "success", result: "done" });
    // Without the option, no hook lines.
    const quiet = await run(false);
    expect(quiet.some((m) => m.type === "system" && m.subtype === "hook_started")).toBe(false);
  });

  it("writes hook_progress lines with a hook's output while it runs (includeHookEvents)", async () => {
    const ws = workspace();
    const script = writeScript(ws.cwd, [
      { content: [toolUse("b1", "Bash", { command: "true" })] },
      { content: [text("done")] },
    ]);
    // The hook waits for the test to have seen its first line before it writes the second.
    const command = "echo first; while [ ! -e go ]; do sleep 0.05; done; echo second; echo late >&2";
    const hooks = { PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command }] }] };
    const messages: SDKMessage[] = [];
    for await (const message of query({
      prompt: "go",
      options: sdkOptions(ws, {
        model: `replay:${script}`,
        allowedTools: ["Bash"],
        includeHookEvents: true,
        extraArgs: { settings: JSON.stringify({ hooks }) },
      }),
    })) {
      messages.push(message);
      if (message.type === "system" && message.subtype === "hook_progress" && message.stdout === "first\n") {
        writeFileSync(join(ws.cwd, "go"), "");
      }
    }
    const hookLines = messages.filter((m) => m.type === "system" && m.subtype.startsWith("hook_")) as Array<
      SDKMessage & { subtype: string; hook_id: string; stdout?: string; stderr?: string; output?: string }
    >;
    expect(hookLines[0]?.subtype).toBe("hook_started");
    expect(hookLines.at(-1)?.subtype).toBe("hook_response");
    const progress = hookLines.slice(1, -1);
    expect(progress.every((line) => line.subtype === "hook_progress" && line.hook_id === hookLines[0]?.hook_id)).toBe(
      true,
    );
    expect(progress[0]).toMatchObject({ stdout: "first\n", stderr: "", output: "first\n" });
    expect(progress.at(-1)).toMatchObject({ stdout: "first\nsecond\n", stderr: "late\n" });
    expect(results(messages)[0]).toMatchObject({ subtype: "success", result: "done" });
  });
});
