// WorktreeCreate and WorktreeRemove through the real loop: with WorktreeCreate hooks the hook makes
// the worktree (no git at all: the folder here is no repository) and the session works where it
// said; ExitWorktree's removal is the WorktreeRemove hooks'. A hook that fails makes nothing.
import { chmodSync, existsSync, mkdtempSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { HooksConfig } from "../../src/config/settings-schema.js";
import { HookRunner } from "../../src/hooks/hook-runner.js";
import { createSession } from "../../src/loop/session.js";
import { submitWithHooks } from "../../src/loop/session-hooks.js";
import { createReplayProvider } from "../../src/providers/replay.js";
import type { CanUseTool } from "../../src/tool/types.js";
import { builtInTools } from "../../src/tools/registry.js";

process.env.WARDEN_HOME = mkdtempSync(join(tmpdir(), "warden-worktree-hooks-home-"));
process.env.HOME = process.env.WARDEN_HOME;
process.env.WARDEN_MANAGED_SETTINGS = join(process.env.WARDEN_HOME, "no-policy.json");

const tempDir = () => realpathSync(mkdtempSync(join(tmpdir(), "warden-worktree-hooks-")));
const text = (value: string) => ({ type: "text", text: value });
const toolUse = (id: string, name: string, input: object) => ({ type: "tool_use", id, name, input });
const allowAll: CanUseTool = async () => ({ behavior: "allow" });

/** A hook script with this body; its stdin is saved to `<name>.json`. */
function hookScript(dir: string, name: string, body: string) {
  const path = join(dir, `${name}.sh`);
  writeFileSync(path, `#!/usr/bin/env bash\ncat > '${join(dir, `${name}.json`)}'\n${body}\n`);
  chmodSync(path, 0o755);
  return {
    command: { type: "command" as const, command: path },
    input: () => JSON.parse(readFileSync(join(dir, `${name}.json`), "utf8")) as Record<string, unknown>,
  };
}

async function run(cwd: string, lines: object[], config: HooksConfig): Promise<string> {
  const script = join(cwd, "script.jsonl");
  writeFileSync(script, `${lines.map((l) => JSON.stringify(l)).join("\n")}\n`);
  const hooks = new HookRunner({ config, cwd, sessionId: "s-worktree" });
  const session = createSession({
    provider: createReplayProvider(script, { cwd }),
    model: "scripted",
    tools: builtInTools(),
    canUseTool: allowAll,
    cwd,
    transcript: false,
    loadMemory: false,
    appState: { hooks },
  });
  for await (const _ of submitWithHooks(session, "go", hooks, () => {}));
  return JSON.stringify(session.messages);
}

describe("WorktreeCreate and WorktreeRemove", () => {
  it("the hooks make and remove the worktree EnterWorktree and ExitWorktree use", async () => {
    const cwd = tempDir();
    const place = tempDir();
    const create = hookScript(
      cwd,
      "create",
      `name=$(sed -n 's/.*"name":"\\([^"]*\\)".*/\\1/p' '${cwd}/create.json')\nmkdir -p '${place}'/"$name"\necho '${place}'/"$name"`,
    );
    const remove = hookScript(cwd, "remove", `rm -rf '${place}/feat'`);
    const messages = await run(
      cwd,
      [
        { content: [toolUse("w1", "EnterWorktree", { name: "feat" })] },
        { content: [toolUse("b1", "Bash", { command: "pwd" })] },
        { content: [toolUse("w2", "ExitWorktree", { action: "remove" })] },
        { content: [text("ok")] },
      ],
      { WorktreeCreate: [{ hooks: [create.command] }], WorktreeRemove: [{ hooks: [remove.command] }] },
    );
    expect(create.input()).toMatchObject({ hook_event_name: "WorktreeCreate", name: "feat", cwd });
    // The session worked where the hook said.
    expect(messages).toContain(`Created the worktree ${join(place, "feat")}`);
    expect(messages).toContain(join(place, "feat"));
    expect(remove.input()).toMatchObject({ hook_event_name: "WorktreeRemove", worktree_path: join(place, "feat") });
    expect(existsSync(join(place, "feat"))).toBe(false);
    // No repository was needed, and git made nothing in the project.
    expect(existsSync(join(cwd, ".worktrees"))).toBe(false);
  });

  it("a WorktreeCreate hook that fails makes no worktree, and says why", async () => {
    const cwd = tempDir();
    const create = hookScript(cwd, "create", `echo "no space for worktrees" >&2\nexit 1`);
    const messages = await run(
      cwd,
      [{ content: [toolUse("w1", "EnterWorktree", { name: "feat" })] }, { content: [text("ok")] }],
      { WorktreeCreate: [{ hooks: [create.command] }] },
    );
    expect(messages).toContain("the worktree was not made");
    expect(messages).toContain("no space for worktrees");
    expect(messages).not.toContain("Created the worktree");
  });
});
