// The Agent tool through the real CLI and the replay provider, on a temp git repository with a
// bug in it: Explore finds it (and cannot write), Plan reads and plans, general-purpose fixes it
// with a real Edit, and verification runs the real test with Bash and reports PASS, while the
// parent's deny rule still stops its `rm`. Each child's turns are scripted by its description.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { projectSlug } from "../../src/config/paths.js";
import { jsonLines, runCli } from "../cli/run-cli.js";
import { tempDir, writeScript } from "../loop/helpers.js";

const toolUse = (id: string, name: string, input: object) => ({ type: "tool_use", id, name, input });
const text = (value: string) => ({ type: "text", text: value });

function gitRepo(): string {
  const cwd = realpathSync(tempDir("warden-agents-repo-"));
  mkdirSync(join(cwd, "src"));
  writeFileSync(join(cwd, "src/math.js"), "export function add(a, b) {\n  return a - b;\n}\n");
  writeFileSync(
    join(cwd, "test.js"),
    'import { add } from "./src/math.js";\nif (add(2, 3) !== 5) { console.log("FAIL add(2,3) =", add(2, 3)); process.exit(1); }\nconsole.log("ok");\n',
  );
  writeFileSync(join(cwd, "package.json"), '{"type":"module"}\n');
  execFileSync("git", ["init", "-q"], { cwd });
  execFileSync("git", ["-c", "user.email=t@t", "-c", "user.name=t", "add", "."], { cwd });
  execFileSync("git", ["-c", "user.email=t@t", "-c", "user.name=t", "commit", "-qm", "init"], { cwd });
  return cwd;
}

interface Block {
  type: string;
  id?: string;
  name?: string;
  text?: string;
  content?: unknown;
  is_error?: boolean;
  tool_use_id?: string;
}

function transcriptMessages(path: string): Array<{ role: string; content: Block[] }> {
  return readFileSync(path, "utf8")
    .split("\n")
    .filter(Boolean)
    .map((line) => JSON.parse(line) as { type: string; message?: { role: string; content: Block[] } })
    .filter((entry) => (entry.type === "user" || entry.type === "assistant") && entry.message)
    .map((entry) => entry.message as { role: string; content: Block[] });
}

describe("built-in agents doing real work", () => {
  it("Explore finds, Plan plans, general-purpose fixes, verification checks; deny rules hold in children", async () => {
    const cwd = gitRepo();
    const home = tempDir("warden-agents-home-");
    const script = writeScript(cwd, [
      {
        content: [
          toolUse("m1", "Agent", { description: "find add", prompt: "Where is add?", subagent_type: "Explore" }),
        ],
      },
      {
        agent: "find add",
        content: [
          toolUse("e1", "Grep", { pattern: "function add", output_mode: "content", "-n": true }),
          toolUse("e2", "Write", { file_path: "{{cwd}}/explore.txt", content: "x" }),
        ],
      },
      { agent: "find add", content: [text("add is at src/math.js:1; it subtracts.")] },
      { content: [toolUse("m2", "Agent", { description: "plan fix", prompt: "Plan it", subagent_type: "Plan" })] },
      { agent: "plan fix", content: [toolUse("p1", "Read", { file_path: "{{cwd}}/src/math.js" })] },
      { agent: "plan fix", content: [text("1. In src/math.js change a - b to a + b.")] },
      {
        content: [
          toolUse("m3", "Agent", { description: "fix add", prompt: "Fix add", subagent_type: "general-purpose" }),
        ],
      },
      { agent: "fix add", content: [toolUse("g1", "Read", { file_path: "{{cwd}}/src/math.js" })] },
      {
        agent: "fix add",
        content: [
          toolUse("g2", "Edit", { file_path: "{{cwd}}/src/math.js", old_string: "a - b", new_string: "a + b" }),
        ],
      },
      { agent: "fix add", content: [text("Fixed add in src/math.js.")] },
      {
        content: [
          toolUse("m4", "Agent", { description: "verify add", prompt: "Check", subagent_type: "verification" }),
        ],
      },
      {
        agent: "verify add",
        content: [toolUse("v1", "Bash", { command: "node test.js" }), toolUse("v2", "Bash", { command: "rm -rf src" })],
      },
      { agent: "verify add", content: [text("node test.js printed: ok\nVERDICT: PASS")] },
      { content: [text("All four agents are done.")] },
    ]);
    const run = await runCli(
      [
        "-p",
        "fix add",
        "--model",
        `replay:${script}`,
        "--output-format",
        "stream-json",
        "--cwd",
        cwd,
        "--allowedTools",
        "Edit",
        "Bash(node test.js)",
        "Bash(rm:*)",
        "--disallowedTools",
        "Bash(rm:*)",
      ],
      { home },
    );
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    const lines = jsonLines(run.stdout);
    expect(lines[0]).toMatchObject({ subtype: "init", agents: ["general-purpose", "Explore", "Plan", "verification"] });
    expect(lines.at(-1)).toMatchObject({ subtype: "success", result: "All four agents are done." });

    // The work was real: the file is fixed, the repository's test passes, rm was stopped.
    expect(readFileSync(join(cwd, "src/math.js"), "utf8")).toContain("return a + b;");
    expect(execFileSync("node", ["test.js"], { cwd, encoding: "utf8" })).toBe("ok\n");
    expect(existsSync(join(cwd, "explore.txt"))).toBe(false);

    // Each Agent result is the child's final text with its turns.
    const results = new Map<string, string>();
    for (const line of lines) {
      const message = line.message as { role?: string; content?: Block[] } | undefined;
      if (line.type !== "user" || !message?.content) continue;
      for (const block of message.content) {
        if (block.type === "tool_result" && block.tool_use_id) results.set(block.tool_use_id, String(block.content));
      }
    }
    expect(results.get("m1")).toMatch(
      /^add is at src\/math\.js:1; it subtracts\.\n\n\[agent a[0-9a-f]+ \(Explore\): 2 turns/,
    );
    expect(results.get("m2")).toMatch(/change a - b to a \+ b[\s\S]*\(Plan\): 2 turns/);
    expect(results.get("m3")).toMatch(/Fixed add[\s\S]*\(general-purpose\): 3 turns/);
    expect(results.get("m4")).toMatch(/VERDICT: PASS[\s\S]*\(verification\): 2 turns/);

    // The agent list reached the model as a reminder in the first request, not in a tool description.
    const first = lines.find((l) => l.type === "user") as { message: { content: Block[] } };
    expect(JSON.stringify(first.message.content)).toContain("Agent types available to the Agent tool");

    // Sidechain transcripts: one per child, with what its tools answered.
    const sessionId = lines[0]?.session_id as string;
    const dir = join(home, "projects", projectSlug(cwd), sessionId, "subagents");
    const files = readdirSync(dir);
    expect(files).toHaveLength(4);
    const byType = new Map<string, Array<{ role: string; content: Block[] }>>();
    for (const file of files) {
      const path = join(dir, file);
      const header = JSON.parse(readFileSync(path, "utf8").split("\n")[1] ?? "{}") as { agentType?: string };
      byType.set(header.agentType ?? "?", transcriptMessages(path));
    }
    const resultsIn = (type: string) =>
      (byType.get(type) ?? []).flatMap((m) => m.content.filter((b) => b.type === "tool_result"));
    // Explore has no Write: the call found no such tool.
    const exploreWrite = resultsIn("Explore").find((b) => b.tool_use_id === "e2");
    expect(exploreWrite).toMatchObject({ is_error: true });
    expect(String(exploreWrite?.content)).toContain("No such tool available: Write");
    expect(String(resultsIn("Explore").find((b) => b.tool_use_id === "e1")?.content)).toContain("function add");
    // The verification agent ran the real test; the parent's deny rule stopped rm (allow rules cannot win over it).
    expect(String(resultsIn("verification").find((b) => b.tool_use_id === "v1")?.content)).toContain("ok");
    const rm = resultsIn("verification").find((b) => b.tool_use_id === "v2");
    expect(rm).toMatchObject({ is_error: true });
    expect(existsSync(join(cwd, "src"))).toBe(true);
  }, 60_000);
});
