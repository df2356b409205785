// InstructionsLoaded through the real loop: CLAUDE.md when the first request is built
// ("session_start"), a rule file with `paths` once the model reads a file it matches
// ("path_glob_match", with the globs and that file). The matcher is the load reason.
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { HookRunner } from "../../src/hooks/hook-runner.js";
import { createSession } from "../../src/loop/session.js";
import { submitWithHooks } from "../../src/loop/session-hooks.js";
import { createReplayProvider } from "../../src/providers/replay.js";
import { builtInTools } from "../../src/tools/registry.js";

process.env.WARDEN_HOME = mkdtempSync(join(tmpdir(), "warden-instructions-home-"));
process.env.HOME = process.env.WARDEN_HOME;
process.env.WARDEN_MANAGED_SETTINGS = join(process.env.WARDEN_HOME, "no-policy.json");

/** Waits until `check` holds (the hooks run in the background), failing after a generous bound. */
async function until(check: () => boolean): Promise<void> {
  for (let i = 0; i < 500 && !check(); i++) await new Promise((resolve) => setTimeout(resolve, 20));
}

describe("InstructionsLoaded", () => {
  it("reports CLAUDE.md at start and a path rule when a matching file is read", async () => {
    const cwd = realpathSync(mkdtempSync(join(tmpdir(), "warden-instructions-")));
    writeFileSync(join(cwd, "CLAUDE.md"), "Use tabs.\n");
    mkdirSync(join(cwd, ".claude", "rules"), { recursive: true });
    writeFileSync(join(cwd, ".claude", "rules", "api.md"), '---\npaths: "src/api/**"\n---\nAPI rules.\n');
    mkdirSync(join(cwd, "src", "api"), { recursive: true });
    writeFileSync(join(cwd, "src", "api", "user.ts"), "export {};\n");
    const log = join(cwd, "loaded.jsonl");
    const hook = join(cwd, "loaded.sh");
    writeFileSync(hook, `#!/usr/bin/env bash\n(cat; echo) >> '${log}'\n`);
    chmodSync(hook, 0o755);
    const script = join(cwd, "script.jsonl");
    const lines = [
      {
        content: [
          { type: "tool_use", id: "r1", name: "Read", input: { file_path: join(cwd, "src", "api", "user.ts") } },
        ],
      },
      { content: [{ type: "text", text: "ok" }] },
    ];
    writeFileSync(script, `${lines.map((l) => JSON.stringify(l)).join("\n")}\n`);
    const command = { type: "command" as const, command: hook };
    const hooks = new HookRunner({
      // The matcher is the load reason: a hook for "include" alone never runs here.
      config: {
        InstructionsLoaded: [
          { matcher: "session_start|path_glob_match", hooks: [command] },
          { matcher: "include", hooks: [{ type: "command", command: `touch '${join(cwd, "include-ran")}'` }] },
        ],
      },
      cwd,
      sessionId: "s-instructions",
    });
    const session = createSession({
      provider: createReplayProvider(script, { cwd }),
      model: "scripted",
      tools: builtInTools(),
      canUseTool: async () => ({ behavior: "allow" }),
      cwd,
      transcript: false,
      appState: { hooks },
    });
    for await (const _ of submitWithHooks(session, "go", hooks, () => {}));
    const entries = () =>
      existsSync(log)
        ? readFileSync(log, "utf8")
            .split("\n")
            .filter(Boolean)
            .map((line) => JSON.parse(line) as Record<string, unknown>)
        : [];
    await until(() => entries().length >= 2);
    expect(entries()).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          hook_event_name: "InstructionsLoaded",
          file_path: join(cwd, "CLAUDE.md"),
          memory_type: "Project",
          load_reason: "session_start",
        }),
        expect.objectContaining({
          file_path: join(cwd, ".claude", "rules", "api.md"),
          load_reason: "path_glob_match",
          globs: ["src/api/**"],
          trigger_file_path: join(cwd, "src", "api", "user.ts"),
        }),
      ]),
    );
    expect(existsSync(join(cwd, "include-ran"))).toBe(false);
  });

  it("reports a nested CLAUDE.md when a file below is read, and every loaded file again after a compaction", async () => {
    const cwd = realpathSync(mkdtempSync(join(tmpdir(), "warden-instructions-nested-")));
    writeFileSync(join(cwd, "CLAUDE.md"), "Use tabs.\n");
    mkdirSync(join(cwd, "pkg"), { recursive: true });
    writeFileSync(join(cwd, "pkg", "CLAUDE.md"), "Package rules.\n");
    writeFileSync(join(cwd, "pkg", "index.ts"), "export {};\n");
    const log = join(cwd, "loaded.jsonl");
    const hook = join(cwd, "loaded.sh");
    writeFileSync(hook, `#!/usr/bin/env bash\n(cat; echo) >> '${log}'\n`);
    chmodSync(hook, 0o755);
    const script = join(cwd, "script.jsonl");
    const lines = [
      { content: [{ type: "tool_use", id: "r1", name: "Read", input: { file_path: join(cwd, "pkg", "index.ts") } }] },
      { content: [{ type: "text", text: "ok" }] },
      { content: [{ type: "text", text: "The summary of the work so far." }] },
    ];
    writeFileSync(script, `${lines.map((l) => JSON.stringify(l)).join("\n")}\n`);
    const hooks = new HookRunner({
      config: { InstructionsLoaded: [{ hooks: [{ type: "command", command: hook }] }] },
      cwd,
      sessionId: "s-instructions-nested",
    });
    const session = createSession({
      provider: createReplayProvider(script, { cwd }),
      model: "scripted",
      tools: builtInTools(),
      canUseTool: async () => ({ behavior: "allow" }),
      cwd,
      transcript: false,
      appState: { hooks },
    });
    for await (const _ of submitWithHooks(session, "go", hooks, () => {}));
    const entries = () =>
      existsSync(log)
        ? readFileSync(log, "utf8")
            .split("\n")
            .filter(Boolean)
            .map((line) => JSON.parse(line) as Record<string, unknown>)
        : [];
    await until(() => entries().length >= 2);
    expect(entries()).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ file_path: join(cwd, "CLAUDE.md"), load_reason: "session_start" }),
        expect.objectContaining({
          file_path: join(cwd, "pkg", "CLAUDE.md"),
          memory_type: "Project",
          load_reason: "nested_traversal",
          trigger_file_path: join(cwd, "pkg", "index.ts"),
        }),
      ]),
    );
    const steps = session.compact();
    for (let step = await steps.next(); !step.done; step = await steps.next());
    await until(() => entries().length >= 4);
    const compacted = entries().filter((e) => e.load_reason === "compact");
    expect(compacted.map((e) => e.file_path).sort()).toEqual([join(cwd, "CLAUDE.md"), join(cwd, "pkg", "CLAUDE.md")]);
  });
});
