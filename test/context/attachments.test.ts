// Each attachment kind appears in the request a model receives when its condition holds, and not
// otherwise. Real tools (Read, Edit, Bash), real files, the replay provider; what each request
// carried is recorded as the provider received it.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import type { ModelRequest } from "../../src/providers/types.js";
import { buildTool } from "../../src/tool/build-tool.js";
import { emptyPermissionContext } from "../../src/tool/permission-types.js";
import type { AnyTool, AttachmentSource } from "../../src/tool/types.js";
import { BashTool } from "../../src/tools/bash/tool.js";
import { EditTool } from "../../src/tools/edit/tool.js";
import { ReadTool } from "../../src/tools/read/tool.js";
import { collect, EchoTool, sessionFor, tempDir, text, toolUse } from "../loop/helpers.js";

/** The <system-reminder> texts of one request, in order. */
function remindersIn(request: ModelRequest | undefined): string[] {
  const out: string[] = [];
  for (const message of request?.messages ?? []) {
    if (message.role !== "user") continue;
    for (const block of message.content) {
      if (block.type === "text" && block.text.startsWith("<system-reminder>")) out.push(block.text);
    }
  }
  return out;
}

/** Reminders that first appear in request `index` (those of earlier turns are history by then). */
function newReminders(requests: ModelRequest[], index: number): string[] {
  const before = new Set(index > 0 ? remindersIn(requests[index - 1]) : []);
  return remindersIn(requests[index]).filter((r) => !before.has(r));
}

const fileTools = [ReadTool, EditTool, BashTool, EchoTool] as AnyTool[];

describe("edited_text_file", () => {
  it("shows a change made outside the file tools as a diff, and Edit then works without a new Read", async () => {
    const cwd = tempDir();
    const file = join(cwd, "notes.txt");
    writeFileSync(file, "alpha\nbeta\ngamma\n");
    const { session, requests } = sessionFor(
      cwd,
      [
        { content: [toolUse("r1", "Read", { file_path: file })] },
        { content: [toolUse("e1", "Echo", { text: "nothing changed yet" })] },
        { content: [toolUse("b1", "Bash", { command: `sed -i 's/beta/BETA/' ${file}` })] },
        { content: [toolUse("e2", "Edit", { file_path: file, old_string: "BETA", new_string: "delta" })] },
        { content: [text("done")] },
      ],
      { tools: fileTools },
    );
    const { terminal, events } = await collect(session.submitMessage("go"));
    expect(terminal.reason).toBe("completed");
    // Read, then a turn with the file unchanged: nothing to tell.
    expect(newReminders(requests, 1)).toEqual([]);
    expect(newReminders(requests, 2)).toEqual([]);
    // Changed by a shell command: the next request shows the change.
    const changed = newReminders(requests, 3);
    expect(changed).toHaveLength(1);
    expect(changed[0]).toContain(`${file} was changed on disk`);
    expect(changed[0]).toContain("-beta");
    expect(changed[0]).toContain("+BETA");
    // The model saw the whole change, so Edit accepts the file without another Read; and the
    // change Edit made itself is not reported back.
    const editResult = events.find((e) => e.type === "tool_result" && e.toolUse.id === "e2");
    expect(editResult?.type === "tool_result" && editResult.result.is_error).toBeFalsy();
    expect(newReminders(requests, 4)).toEqual([]);
  });

  it("asks for a new Read when only part of the file was read, and says when it was deleted", async () => {
    const cwd = tempDir();
    const partial = join(cwd, "long.txt");
    const doomed = join(cwd, "doomed.txt");
    writeFileSync(partial, Array.from({ length: 50 }, (_, i) => `line ${i}`).join("\n"));
    writeFileSync(doomed, "soon gone\n");
    const { session, requests } = sessionFor(
      cwd,
      [
        {
          content: [
            toolUse("r1", "Read", { file_path: partial, offset: 10, limit: 5 }),
            toolUse("r2", "Read", { file_path: doomed }),
          ],
        },
        { content: [toolUse("b1", "Bash", { command: `echo more >> ${partial} && rm ${doomed}` })] },
        { content: [toolUse("e1", "Echo", { text: "again" })] },
        { content: [text("done")] },
      ],
      { tools: fileTools },
    );
    await collect(session.submitMessage("go"));
    const told = newReminders(requests, 2).join("\n");
    expect(told).toContain(`${partial} changed on disk since you read part of it`);
    expect(told).not.toContain("+more");
    expect(told).toContain(`${doomed} was deleted since you read it`);
    // Told once, not on every request after.
    expect(newReminders(requests, 3)).toEqual([]);
  });
});

describe("nested_memory", () => {
  it("attaches a subfolder's AGENTS.md once, when the model starts working there, and never a denied one", async () => {
    const cwd = tempDir();
    writeFileSync(join(cwd, "AGENTS.md"), "root rules (already in the system prompt)");
    mkdirSync(join(cwd, "pkg", "api"), { recursive: true });
    mkdirSync(join(cwd, "secret"), { recursive: true });
    writeFileSync(join(cwd, "pkg", "AGENTS.md"), "pkg rule: use tabs");
    writeFileSync(join(cwd, "pkg", "api", "CLAUDE.md"), "api rule: no default exports");
    writeFileSync(join(cwd, "pkg", "api", "a.ts"), "export const a = 1;\n");
    writeFileSync(join(cwd, "pkg", "api", "b.ts"), "export const b = 2;\n");
    writeFileSync(join(cwd, "secret", "AGENTS.md"), "secret rule");
    writeFileSync(join(cwd, "secret", "x.txt"), "x\n");
    writeFileSync(join(cwd, "top.txt"), "top\n");
    const permissionContext = emptyPermissionContext(cwd);
    permissionContext.rules.deny.push({
      source: "session",
      behavior: "deny",
      value: { toolName: "Read", ruleContent: "./secret/AGENTS.md" },
    });
    const { session, requests } = sessionFor(
      cwd,
      [
        { content: [toolUse("r0", "Read", { file_path: join(cwd, "top.txt") })] },
        { content: [toolUse("r1", "Read", { file_path: join(cwd, "pkg", "api", "a.ts") })] },
        { content: [toolUse("r2", "Read", { file_path: join(cwd, "pkg", "api", "b.ts") })] },
        { content: [toolUse("r3", "Read", { file_path: join(cwd, "secret", "x.txt") })] },
        { content: [text("done")] },
      ],
      { tools: fileTools, permissionContext },
    );
    await collect(session.submitMessage("go"));
    // Working in cwd itself: its AGENTS.md is the system prompt's business.
    expect(newReminders(requests, 1)).toEqual([]);
    const entered = newReminders(requests, 2);
    expect(entered).toHaveLength(2);
    expect(entered[0]).toContain("pkg rule: use tabs");
    expect(entered[1]).toContain("api rule: no default exports");
    expect(entered.join("")).not.toContain("root rules");
    expect(newReminders(requests, 3)).toEqual([]);
    expect(newReminders(requests, 4)).toEqual([]);
  });
});

describe("date_change", () => {
  it("tells the new date when the day changes mid-session, and not before", async () => {
    const cwd = tempDir();
    let clock = new Date("2031-05-04T23:59:00Z");
    const advance = buildTool({
      name: "Wait",
      inputSchema: z.object({}),
      async prompt() {
        return "Lets time pass.";
      },
      isReadOnly: () => true,
      async call() {
        clock = new Date("2031-05-05T00:01:00Z");
        return { data: "waited" };
      },
    });
    const { session, requests } = sessionFor(
      cwd,
      [
        { content: [toolUse("e1", "Echo", { text: "still the 4th" })] },
        { content: [toolUse("w1", "Wait", {})] },
        { content: [text("done")] },
      ],
      { tools: [EchoTool, advance] as AnyTool[], now: () => clock },
    );
    await collect(session.submitMessage("go"));
    expect(requests[0]?.system).toContain("Today's date: 2031-05-04");
    expect(newReminders(requests, 1)).toEqual([]);
    const told = newReminders(requests, 2);
    expect(told).toHaveLength(1);
    expect(told[0]).toContain("today is 2031-05-05");
    // The system prompt keeps its date: the prompt cache stays valid.
    expect(requests[2]?.system).toBe(requests[0]?.system);
  });
});

describe("token_usage and budget_usd", () => {
  it("tells the context use each time it crosses a new level", async () => {
    const cwd = tempDir();
    const turn = (id: string, input: number) => ({
      content: [toolUse(id, "Echo", { text: id })],
      usage: { input_tokens: input, output_tokens: 0 },
    });
    const { session, requests } = sessionFor(
      cwd,
      [turn("a", 100), turn("b", 5_200), turn("c", 5_600), turn("d", 7_700), { content: [text("done")] }],
      { contextManagement: { autoCompactAt: 10_000 } },
    );
    await collect(session.submitMessage("go"));
    // Request n is sized from response n-1's usage and what was added since.
    expect(newReminders(requests, 1)).toEqual([]);
    const half = newReminders(requests, 2);
    expect(half).toHaveLength(1);
    expect(half[0]).toMatch(
      /Context in use: about 5,\d{3} of 128,000 tokens\. At about 10,000 \(5\d% of that reached\)/,
    );
    // Same level again: nothing.
    expect(newReminders(requests, 3)).toEqual([]);
    expect(newReminders(requests, 4)[0]).toMatch(/\(7\d% of that reached\)/);
  });

  it("tells the USD spent when it crosses half of the budget, with a known price", async () => {
    const cwd = tempDir();
    const million = (id: string) => ({
      content: [toolUse(id, "Echo", { text: id })],
      usage: { input_tokens: 1_000_000, output_tokens: 0 },
    });
    const { session, requests } = sessionFor(cwd, [million("a"), million("b"), { content: [text("done")] }], {
      modelInfo: { price: { input: 1, output: 1, cacheWrite: 1, cacheRead: 1 } },
      maxBudgetUsd: 3,
      // A million tokens a turn would otherwise be summarised away before the budget matters.
      contextManagement: { autoCompact: false },
    });
    const { terminal } = await collect(session.submitMessage("go"));
    expect(terminal.reason).toBe("completed");
    expect(newReminders(requests, 1).join("")).not.toContain("USD budget");
    expect(newReminders(requests, 2).join("")).toContain("USD budget: $2.00 of $3.00 spent, $1.00 left");
  });
});

describe("deferred_tools_delta and mcp_instructions_delta", () => {
  const mcpTool = (name: string): AnyTool =>
    buildTool({
      name: `mcp__late__${name}`,
      mcpInfo: { serverName: "late", toolName: name },
      staticDescription: `The ${name} tool.`,
      inputSchema: z.object({}),
      async prompt() {
        return `The ${name} tool.`;
      },
      async call() {
        return { data: "ok" };
      },
    }) as AnyTool;

  it("tells only the change when deferred tools come and go, and leaves the system prompt as it was", async () => {
    const cwd = tempDir();
    let session: ReturnType<typeof sessionFor>["session"];
    const connect = buildTool({
      name: "Connect",
      inputSchema: z.object({ step: z.number() }),
      async prompt() {
        return "Connects a server.";
      },
      isReadOnly: () => true,
      async call({ step }) {
        session.setMcpTools(step === 1 ? [mcpTool("alpha"), mcpTool("beta")] : [mcpTool("beta")]);
        return { data: "connected" };
      },
    });
    const built = sessionFor(
      cwd,
      [
        { content: [toolUse("c1", "Connect", { step: 1 })] },
        { content: [toolUse("e1", "Echo", { text: "x" })] },
        { content: [toolUse("c2", "Connect", { step: 2 })] },
        { content: [text("done")] },
      ],
      { tools: [EchoTool, connect] as AnyTool[], mcpTools: [mcpTool("first")] },
    );
    session = built.session;
    const { requests } = built;
    await collect(session.submitMessage("go"));
    expect(requests[0]?.system).toContain("mcp__late__: first");
    expect(newReminders(requests, 0)).toEqual([]);
    const added = newReminders(requests, 1);
    expect(added).toHaveLength(1);
    expect(added[0]).toContain(
      "New deferred tools are available (load them with ToolSearch): mcp__late__alpha, mcp__late__beta.",
    );
    expect(added[0]).toContain("no longer available: mcp__late__first");
    expect(newReminders(requests, 2)).toEqual([]);
    expect(newReminders(requests, 3)[0]).toContain("no longer available: mcp__late__alpha.");
    for (const request of requests) expect(request.system).toBe(requests[0]?.system);
  });

  it("tells new MCP server instructions as a delta, not the ones the system prompt had", async () => {
    const cwd = tempDir();
    const { session, requests } = sessionFor(
      cwd,
      [{ content: [toolUse("e1", "Echo", { text: "x" })] }, { content: [text("one")] }, { content: [text("two")] }],
      { appState: { mcpInstructions: [{ server: "early", text: "Call early tools politely." }] } },
    );
    await collect(session.submitMessage("first"));
    expect(remindersIn(requests[1]).join("")).not.toContain("MCP servers sent new instructions");
    session.setAppState((prev) => ({
      ...prev,
      mcpInstructions: [...(prev.mcpInstructions ?? []), { server: "late", text: "Batch your late calls." }],
    }));
    await collect(session.submitMessage("second"));
    const told = newReminders(requests, 2);
    expect(told).toHaveLength(1);
    expect(told[0]).toContain("## late\nBatch your late calls.");
    expect(told[0]).not.toContain("early");
  });
});

describe("the registry", () => {
  it("throttles each kind, asks the sources a tool brings, and skips a source that fails", async () => {
    const cwd = tempDir();
    const asked: number[] = [];
    const throttled: AttachmentSource = {
      kind: "every_third",
      minTurnsBetween: 3,
      collect({ turn }) {
        asked.push(turn);
        return [{ text: `every third request (request ${turn + 1})` }];
      },
    };
    const broken: AttachmentSource = {
      kind: "broken",
      collect() {
        throw new Error("source bug");
      },
    };
    const withReminder = buildTool({
      name: "Noted",
      attachments: [{ kind: "noted_tool", collect: () => [{ text: "a reminder the Noted tool brings" }] }],
      inputSchema: z.object({}),
      async prompt() {
        return "Has a reminder.";
      },
      async call() {
        return { data: "ok" };
      },
    }) as AnyTool;
    const errors: string[] = [];
    const turns = Array.from({ length: 6 }, (_, i) => ({ content: [toolUse(`e${i}`, "Echo", { text: String(i) })] }));
    const { session, requests } = sessionFor(cwd, [...turns, { content: [text("done")] }], {
      tools: [EchoTool, withReminder] as AnyTool[],
      attachmentSources: [throttled, broken],
      onAttachmentError: (kind, error) => errors.push(`${kind}: ${(error as Error).message}`),
    });
    const { terminal } = await collect(session.submitMessage("go"));
    expect(terminal.reason).toBe("completed");
    expect(asked).toEqual([0, 3, 6]);
    expect(newReminders(requests, 3).join("")).toContain("every third request (request 4)");
    expect(newReminders(requests, 1).join("")).not.toContain("every third");
    expect(remindersIn(requests[0]).join("")).toContain("a reminder the Noted tool brings");
    expect(errors[0]).toBe("broken: source bug");
    expect(errors).toHaveLength(7);
  });

  it("sends hook context queued on the reminders channel as one reminder, once", async () => {
    const cwd = tempDir();
    const { session, requests } = sessionFor(cwd, [
      { content: [toolUse("e1", "Echo", { text: "x" })] },
      { content: [text("done")] },
    ]);
    session.channels.reminders.send("hook says A", "hook says B");
    await collect(session.submitMessage("go"));
    expect(remindersIn(requests[0])).toEqual(["<system-reminder>\nhook says A\n\nhook says B\n</system-reminder>"]);
    expect(newReminders(requests, 1)).toEqual([]);
  });
});

describe("auto_mode", () => {
  it("tells the model in full when auto mode starts, then one line every ten requests, and nothing otherwise", async () => {
    const cwd = tempDir();
    const turns = Array.from({ length: 12 }, (_, i) => ({ content: [toolUse(`e${i}`, "Echo", { text: String(i) })] }));
    const plain = sessionFor(cwd, [...turns.slice(0, 2), { content: [text("done")] }]);
    await collect(plain.session.submitMessage("go"));
    for (const request of plain.requests) expect(remindersIn(request).join("")).not.toContain("Auto mode");

    const permissionContext = { ...emptyPermissionContext(cwd), mode: "auto" as const };
    const { session, requests } = sessionFor(cwd, [...turns, { content: [text("done")] }], { permissionContext });
    await collect(session.submitMessage("go"));
    expect(newReminders(requests, 0).join("")).toContain("Auto mode is on: tool calls that would normally wait");
    const short = requests.map((_, i) => newReminders(requests, i).some((r) => r.includes("Auto mode is still on")));
    expect(short.map((hit, i) => (hit ? i : -1)).filter((i) => i >= 0)).toEqual([10]);
  });
});
