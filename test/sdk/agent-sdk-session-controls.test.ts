// Two more of the Agent SDK's control requests against Warden's built CLI: seedReadState() (the
// host saw a Read that has left the context: an Edit of that file then goes through, unless the
// file changed since) and applyFlagSettings() (settings put in force mid-session; in a folder the
// user has not trusted they may only restrict). The replay model stands in for the model.
import { readFileSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { type Query, query, type SDKMessage } from "@anthropic-ai/claude-agent-sdk";
import { describe, expect, it } from "vitest";
import { writeScript } from "../loop/helpers.js";
import { Prompts, sdkOptions, workspace } from "./sdk-harness.js";

const text = (t: string) => ({ type: "text", text: t });
const toolUse = (id: string, name: string, input: object) => ({ type: "tool_use", id, name, input });

/** Settings the SDK's type would not let through (a wrong shape, null inside an object): sent as they are. */
const raw = (value: unknown) => value as Parameters<Query["applyFlagSettings"]>[0];

/** The text of every tool result the SDK was shown, by tool_use id. */
function toolResults(messages: SDKMessage[]): Map<string, string> {
  const found = new Map<string, string>();
  for (const message of messages) {
    if (message.type !== "user" || typeof message.message.content === "string") continue;
    for (const block of message.message.content) {
      if (block.type === "tool_result") found.set(block.tool_use_id, JSON.stringify(block.content));
    }
  }
  return found;
}

describe("Agent SDK session controls", () => {
  it("seedReadState(): an Edit of a file the host saw read goes through; one changed since is refused", async () => {
    const ws = workspace();
    const seen = join(ws.cwd, "seen.txt");
    const changed = join(ws.cwd, "changed.txt");
    writeFileSync(seen, "alpha\n");
    writeFileSync(changed, "beta\n");
    const seenMtime = Math.floor(statSync(seen).mtimeMs);
    const changedMtime = Math.floor(statSync(changed).mtimeMs);
    // Changed after the Read the host saw: a later mtime.
    writeFileSync(changed, "beta, changed by someone else\n");
    utimesSync(changed, new Date(), new Date(changedMtime + 5_000));
    const script = writeScript(ws.cwd, [
      {
        content: [
          toolUse("e1", "Edit", { file_path: seen, old_string: "alpha", new_string: "ALPHA" }),
          toolUse("e2", "Edit", { file_path: changed, old_string: "beta", new_string: "BETA" }),
        ],
      },
      { content: [text("done")] },
    ]);
    const prompts = new Prompts();
    const q = query({
      prompt: prompts,
      options: sdkOptions(ws, { model: `replay:${script}`, permissionMode: "acceptEdits" }),
    });
    await q.seedReadState(seen, seenMtime);
    await q.seedReadState(changed, changedMtime);
    await expect(q.seedReadState(join(ws.cwd, "missing.txt"), 1)).rejects.toThrow(/cannot be read \(ENOENT\)/);
    prompts.send("edit both");
    const messages: SDKMessage[] = [];
    for await (const message of q) {
      messages.push(message);
      if (message.type === "result") prompts.end();
    }
    expect(readFileSync(seen, "utf8")).toBe("ALPHA\n");
    expect(readFileSync(changed, "utf8")).toBe("beta, changed by someone else\n");
    expect(toolResults(messages).get("e2")).toMatch(/has not been read yet/);
  }, 60_000);

  it("applyFlagSettings(): restrictions apply at once in an untrusted folder; widening is refused whole", async () => {
    const ws = workspace();
    const script = writeScript(ws.cwd, [
      { content: [toolUse("w1", "Write", { file_path: join(ws.cwd, "blocked.txt"), content: "x" })] },
      { content: [text("refused")] },
    ]);
    const prompts = new Prompts();
    const q = query({
      prompt: prompts,
      options: sdkOptions(ws, { model: `replay:${script}`, permissionMode: "acceptEdits" }),
    });
    await q.applyFlagSettings({ permissions: { deny: ["Write"] } });
    await expect(q.applyFlagSettings({ permissions: { allow: ["Bash(touch *)"] } })).rejects.toThrow(
      /is not trusted, so settings may only restrict; nothing was applied \(would widen: permissions\.allow\)/,
    );
    await expect(q.applyFlagSettings({ permissions: { defaultMode: "bypassPermissions" } })).rejects.toThrow(
      /would widen: permissions\.defaultMode/,
    );
    await expect(q.applyFlagSettings({ env: { A: "1" } })).rejects.toThrow(/not supported: env/);
    // A model name that does not resolve refuses the whole request: the deny rule above is not taken back.
    await expect(q.applyFlagSettings(raw({ model: "nosuch:thing", permissions: { deny: null } }))).rejects.toThrow(
      /nothing was applied: Invalid model/,
    );
    await expect(q.applyFlagSettings(raw({ permissions: { deny: "Write" } }))).rejects.toThrow(/nothing was applied/);
    prompts.send("write it");
    const denials: string[] = [];
    for await (const message of q) {
      if (message.type !== "result") continue;
      denials.push(...message.permission_denials.map((d) => d.tool_use_id));
      prompts.end();
    }
    expect(denials).toEqual(["w1"]);
    expect(() => statSync(join(ws.cwd, "blocked.txt"))).toThrow();
  }, 60_000);

  it("applyFlagSettings(): in a trusted folder an allow rule and a narrower mode apply; null takes a key away", async () => {
    const ws = workspace();
    const script = writeScript(ws.cwd, [
      { content: [toolUse("b1", "Bash", { command: "touch made.txt" })] },
      { content: [text("made")] },
      { content: [toolUse("b2", "Bash", { command: "touch again.txt" })] },
      { content: [text("second")] },
    ]);
    const prompts = new Prompts();
    const q = query({
      prompt: prompts,
      options: sdkOptions(ws, { model: `replay:${script}`, extraArgs: { "trust-project": null } }),
    });
    await q.applyFlagSettings({ permissions: { allow: ["Bash(touch made.txt)", "Bash(touch again.txt)"] } });
    prompts.send("make it");
    const outcomes: string[] = [];
    const denials: string[] = [];
    const modes: string[] = [];
    for await (const message of q) {
      if (message.type === "system" && message.subtype === "status" && message.permissionMode) {
        modes.push(message.permissionMode);
      }
      if (message.type !== "result") continue;
      outcomes.push(message.subtype === "success" ? message.result : message.subtype);
      denials.push(...message.permission_denials.map((d) => d.tool_use_id));
      if (outcomes.length === 1) {
        // The allow list taken away again, and plan mode: the next command is not run.
        await q.applyFlagSettings(raw({ permissions: { allow: null, defaultMode: "plan" } }));
        prompts.send("once more");
      } else prompts.end();
    }
    expect(outcomes).toEqual(["made", "second"]);
    statSync(join(ws.cwd, "made.txt"));
    expect(() => statSync(join(ws.cwd, "again.txt"))).toThrow();
    expect(denials).toEqual(["b2"]);
    expect(modes).toEqual(["plan"]);
  }, 60_000);
});
