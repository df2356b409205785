// `.claude/rules/*.md`: a rule without `paths` reaches the model before its first request; a rule
// with `paths` only once a matching file was read; a rule matching nothing never.
import { mkdirSync, mkdtempSync, realpathSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createSession } from "../../src/loop/session.js";
import { createReplayProvider } from "../../src/providers/replay.js";
import { builtInTools } from "../../src/tools/registry.js";

process.env.WARDEN_HOME = mkdtempSync(join(tmpdir(), "warden-rules-home-"));
process.env.HOME = process.env.WARDEN_HOME;

describe("rule files", () => {
  it("load always, or once a file their paths match is read", async () => {
    const cwd = realpathSync(mkdtempSync(join(tmpdir(), "warden-rules-")));
    mkdirSync(join(cwd, ".claude", "rules", "lang"), { recursive: true });
    mkdirSync(join(cwd, "src"));
    writeFileSync(join(cwd, "src", "a.ts"), "export const a = 1;\n");
    writeFileSync(join(cwd, ".claude", "rules", "always.md"), "Commit messages in English.\n");
    writeFileSync(
      join(cwd, ".claude", "rules", "lang", "ts.md"),
      '---\npaths: "src/**/*.ts"\n---\nNo default exports.\n',
    );
    writeFileSync(join(cwd, ".claude", "rules", "py.md"), '---\npaths:\n  - "**/*.py"\n---\nUse type hints.\n');
    const script = join(cwd, "script.jsonl");
    const lines = [
      { content: [{ type: "tool_use", id: "r1", name: "Read", input: { file_path: "{{cwd}}/src/a.ts" } }] },
      { content: [{ type: "text", text: "read" }] },
    ];
    writeFileSync(script, `${lines.map((l) => JSON.stringify(l)).join("\n")}\n`);
    const provider = createReplayProvider(script, { cwd });
    const requests: string[] = [];
    const s = createSession({
      provider: {
        ...provider,
        stream(request) {
          requests.push(JSON.stringify(request.messages));
          return provider.stream(request);
        },
      },
      model: "scripted",
      tools: builtInTools(),
      canUseTool: async () => ({ behavior: "allow" }),
      cwd,
      transcript: false,
      loadMemory: false,
    });
    for await (const _ of s.submitMessage("look at a.ts"));
    expect(requests).toHaveLength(2);
    expect(requests[0]).toContain("Commit messages in English.");
    expect(requests[0]).not.toContain("No default exports.");
    expect(requests[1]).toContain("No default exports.");
    expect(requests[1]).not.toContain("Use type hints.");
  });
});
