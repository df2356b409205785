// Skills and slash commands through the real CLI against a model server on 127.0.0.1: the listing
// in the first request, a skill invoked inline, `allowed-tools` granted while the skill runs and
// gone in the next prompt, a project's grants held back until the folder is trusted, and
// `-p "/command args"`.
import { existsSync, mkdirSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import {
  reply,
  replyFrom,
  type ScriptedModelServer,
  startScriptedModelServer,
} from "../helpers/scripted-model-server.js";
import { tempDir } from "../loop/helpers.js";
import { jsonLines, runCli } from "./run-cli.js";

let server: ScriptedModelServer;
beforeAll(async () => {
  server = await startScriptedModelServer();
});
afterAll(() => server.close());
afterEach(() => expect(server.pendingSteps()).toBe(0));

interface Project {
  home: string;
  cwd: string;
}

function project(): Project {
  return { home: tempDir("warden-skills-home-"), cwd: realpathSync(tempDir("warden-skills-project-")) };
}

function write(path: string, text: string): void {
  mkdirSync(join(path, ".."), { recursive: true });
  writeFileSync(path, text);
}

function warden(p: Project, args: string[]) {
  return runCli(["--model", "anthropic:claude-test", "--output-format", "stream-json", "--cwd", p.cwd, ...args], {
    home: p.home,
    env: {
      ANTHROPIC_API_KEY: "test",
      ANTHROPIC_BASE_URL: server.anthropicBaseURL,
      WARDEN_MANAGED_SETTINGS: join(p.home, "no-policy.json"),
    },
  });
}

interface WireBlock {
  type: string;
  text?: string;
  content?: unknown;
  tool_use_id?: string;
}

const requestText = (index: number): string => JSON.stringify(server.requests[index]?.body ?? {});

function resultText(index: number, id: string): string {
  const body = server.requests[index]?.body as { messages: Array<{ content: WireBlock[] }> } | undefined;
  const messages = body?.messages ?? [];
  for (const block of messages.flatMap((m) => m.content)) {
    if (block.type === "tool_result" && block.tool_use_id === id) return JSON.stringify(block.content);
  }
  return "";
}

function deniedTools(stdout: string): string[] {
  const result = jsonLines(stdout).find((line) => line.type === "result");
  return ((result?.permission_denials ?? []) as Array<{ tool_name: string }>).map((d) => d.tool_name);
}

type RequestBody = { system: unknown; tools: unknown; messages: unknown[] };

/**
 * Checks that `second` starts with `first`'s bytes (system prompt, tools, every message; the cache
 * breakpoint, cache_control, moves to the newest message at each request and is left out) and
 * returns what it added after them, as JSON.
 */
function addedAfterSamePrefix(first: RequestBody | undefined, second: RequestBody | undefined): string {
  expect(JSON.stringify(second?.system)).toBe(JSON.stringify(first?.system));
  expect(JSON.stringify(second?.tools)).toBe(JSON.stringify(first?.tools));
  const bytes = (value: unknown) => JSON.stringify(value, (key, v) => (key === "cache_control" ? undefined : v));
  const firstMessages = first?.messages ?? [];
  expect(bytes(second?.messages.slice(0, firstMessages.length))).toBe(bytes(firstMessages));
  return JSON.stringify(second?.messages.slice(firstMessages.length));
}

describe("skills in a headless session", () => {
  it("lists names and descriptions up front and injects the body only when the skill is invoked", async () => {
    const p = project();
    write(
      join(p.home, "skills", "release-notes", "SKILL.md"),
      "---\ndescription: Writes release notes from the git log\n---\nSECRET-BODY: write notes for version $ARGUMENTS.\n",
    );
    const at = server.requests.length;
    server.enqueue(
      reply().tool("Skill", { skill: "release-notes", args: "2.1" }, { id: "s1" }),
      reply().text("Notes written."),
    );
    const run = await warden(p, ["-p", "Write the release notes"]);
    expect(run.code, run.stderr).toBe(0);
    expect(jsonLines(run.stdout)[0]?.tools).toContain("Skill");
    const first = requestText(at);
    expect(first).toContain("release-notes: Writes release notes from the git log");
    expect(first).not.toContain("SECRET-BODY");
    expect(resultText(at + 1, "s1")).toContain("The skill release-notes is loaded");
    expect(requestText(at + 1)).toContain("SECRET-BODY: write notes for version 2.1.");
    expect(deniedTools(run.stdout)).toEqual([]);
  });

  it("tells the model of a skill added or edited mid-session in a new message; the requests' prefix stays byte for byte", async () => {
    const p = project();
    const notes = join(p.home, "skills", "release-notes", "SKILL.md");
    write(notes, "---\ndescription: Writes release notes from the git log\n---\nWrite the notes.\n");
    const at = server.requests.length;
    server.enqueue(
      // While the model works, a skill appears and another one's description changes.
      replyFrom(() => {
        write(
          join(p.home, "skills", "triage", "SKILL.md"),
          "---\ndescription: Sorts the incoming issues\n---\nSort.\n",
        );
        write(notes, "---\ndescription: Writes release notes from merged pull requests\n---\nWrite the notes.\n");
        return reply().tool("Glob", { pattern: "*.md" }, { id: "g1" });
      }),
      reply().text("Done."),
    );
    const run = await warden(p, ["-p", "Look around"]);
    expect(run.code, run.stderr).toBe(0);
    const [first, second] = [server.requests[at]?.body, server.requests[at + 1]?.body] as Array<{
      system: unknown;
      tools: unknown;
      messages: unknown[];
    }>;
    expect(JSON.stringify(first)).toContain("release-notes: Writes release notes from the git log");
    expect(JSON.stringify(first)).not.toContain("triage");
    // The second request starts with the first one's bytes; the new list comes after them, naming
    // the new skill and the new description.
    const added = addedAfterSamePrefix(first, second);
    expect(added).toContain("The list of skills changed");
    expect(added).toContain("triage: Sorts the incoming issues");
    expect(added).toContain("release-notes: Writes release notes from merged pull requests");
  });

  it("offers no Skill tool in a session without skills", async () => {
    const p = project();
    server.enqueue(reply().text("ok"));
    const run = await warden(p, ["-p", "hi"]);
    expect(run.code, run.stderr).toBe(0);
    expect(jsonLines(run.stdout)[0]?.tools).not.toContain("Skill");
  });

  it("tells a session that started without skills of one written mid-session, and runs it through a deferred Skill tool; the requests' prefix stays byte for byte", async () => {
    const p = project();
    const at = server.requests.length;
    server.enqueue(
      // While the model works, the user writes a skill into the project.
      replyFrom(() => {
        write(
          join(p.cwd, ".warden", "skills", "greet", "SKILL.md"),
          "---\ndescription: Greets the team in their language\n---\nGREET-BODY: say hello to $ARGUMENTS.\n",
        );
        return reply().tool("Glob", { pattern: "*.md" }, { id: "g1" });
      }),
      reply().tool("ToolSearch", { query: "select:Skill" }, { id: "ts1" }),
      reply().tool("Skill", { skill: "greet", args: "the crew" }, { id: "s1" }),
      reply().text("Greeted."),
    );
    const run = await warden(p, ["-p", "Look around", "--trust-project"]);
    expect(run.code, run.stderr).toBe(0);
    expect(jsonLines(run.stdout)[0]?.tools).not.toContain("Skill");
    type Body = { system: unknown; tools: Array<{ name: string }>; messages: unknown[] };
    const [first, second, third] = [0, 1, 2].map((i) => server.requests[at + i]?.body as Body);
    expect(JSON.stringify(first)).not.toContain("greet");
    // The skill is told at the next request, after the first request's bytes, which stay as they were.
    const added = addedAfterSamePrefix(first, second);
    expect(added).toContain("greet: Greets the team in their language");
    expect(added).toContain('load it with ToolSearch (\\"select:Skill\\")');
    // Loaded with ToolSearch, the Skill tool's schema joins the tools; the skill then runs.
    expect(second?.tools.map((tool) => tool.name)).not.toContain("Skill");
    expect(third?.tools.map((tool) => tool.name)).toContain("Skill");
    expect(resultText(at + 3, "s1")).toContain("The skill greet is loaded");
    expect(requestText(at + 3)).toContain("GREET-BODY: say hello to the crew.");
    // Told once: the listing is not repeated at the requests that follow.
    expect(requestText(at + 3).split("greet: Greets the team").length - 1).toBe(1);
  });

  it("grants allowed-tools only while the skill runs: a write before it and in the next prompt is refused", async () => {
    const p = project();
    write(
      join(p.home, "skills", "scaffold", "SKILL.md"),
      "---\ndescription: Creates files\nallowed-tools: Write\n---\nCreate the files.\n",
    );
    const before = join(p.cwd, "before.txt");
    const during = join(p.cwd, "during.txt");
    const after = join(p.cwd, "after.txt");
    server.enqueue(
      reply().tool("Write", { file_path: before, content: "x" }, { id: "w1" }),
      reply().tool("Skill", { skill: "scaffold" }, { id: "s" }),
      reply().tool("Write", { file_path: during, content: "y" }, { id: "w2" }),
      reply().text("Scaffolded."),
    );
    // Its allowed-tools make the skill ask; a rule naming it lets a headless run go ahead.
    const run = await warden(p, ["-p", "Scaffold", "--allowedTools", "Skill(scaffold)"]);
    expect(run.code, run.stderr).toBe(0);
    expect(existsSync(before)).toBe(false);
    expect(readFileSync(during, "utf8")).toBe("y");
    expect(deniedTools(run.stdout)).toEqual(["Write"]);
    const sessionId = jsonLines(run.stdout)[0]?.session_id as string;

    server.enqueue(reply().tool("Write", { file_path: after, content: "z" }, { id: "w3" }), reply().text("Tried."));
    const next = await warden(p, ["-p", "One more file", "--resume", sessionId, "--allowedTools", "Skill(scaffold)"]);
    expect(next.code, next.stderr).toBe(0);
    expect(existsSync(after)).toBe(false);
    expect(deniedTools(next.stdout)).toEqual(["Write"]);
  });

  it("refuses a skill with grants when nothing allows it, and a denied skill even when it is safe", async () => {
    const p = project();
    write(join(p.home, "skills", "risky", "SKILL.md"), "---\ndescription: r\nallowed-tools: Bash\n---\nGo.\n");
    write(join(p.home, "skills", "plain", "SKILL.md"), "---\ndescription: p\n---\nGo.\n");
    const at = server.requests.length;
    server.enqueue(
      reply().tool("Skill", { skill: "risky" }, { id: "r" }).tool("Skill", { skill: "plain" }, { id: "p" }),
      reply().text("ok"),
    );
    const run = await warden(p, ["-p", "go", "--disallowedTools", "Skill(plain)"]);
    expect(run.code, run.stderr).toBe(0);
    expect(deniedTools(run.stdout)).toEqual(["Skill", "Skill"]);
    expect(resultText(at + 1, "r")).toContain("allowed-tools");
    expect(resultText(at + 1, "p")).toContain("denied by");
  });

  it("holds a project skill's grants back until the folder is trusted, and says so", async () => {
    const p = project();
    write(
      join(p.cwd, ".claude", "skills", "gen", "SKILL.md"),
      "---\ndescription: g\nallowed-tools: Write\n---\nGen.\n",
    );
    const target = join(p.cwd, "gen.txt");
    const script = () =>
      server.enqueue(
        reply().tool("Skill", { skill: "gen" }, { id: "g" }),
        reply().tool("Write", { file_path: target, content: "g" }, { id: "w" }),
        reply().text("done"),
      );
    script();
    const at = server.requests.length;
    const untrusted = await warden(p, ["-p", "gen", "--allowedTools", "Skill(gen)"]);
    expect(untrusted.code, untrusted.stderr).toBe(0);
    const init = jsonLines(untrusted.stdout)[0] as { workspace_trust: { status: string; ignored: unknown[] } };
    expect(init.workspace_trust.status).toBe("untrusted");
    expect(init.workspace_trust.ignored).toEqual([
      { file: ".claude/skills/gen/SKILL.md", key: "allowed-tools", grants: expect.stringContaining("Write") },
    ]);
    expect(resultText(at + 1, "g")).toContain("once the folder is trusted");
    expect(existsSync(target)).toBe(false);

    script();
    const trusted = await warden(p, ["-p", "gen", "--allowedTools", "Skill(gen)", "--trust-project"]);
    expect(trusted.code, trusted.stderr).toBe(0);
    expect(readFileSync(target, "utf8")).toBe("g");
  });
});

describe("slash commands in -p prompts", () => {
  it("expands /name args with $ARGUMENTS and $1, and grants its allowed-tools for the run", async () => {
    const p = project();
    write(
      join(p.home, ".claude", "commands", "touch.md"),
      "---\ndescription: Creates a file\nallowed-tools: Write\n---\nCreate the file $1 (request: $ARGUMENTS).\n",
    );
    const target = join(p.cwd, "made.txt");
    const at = server.requests.length;
    server.enqueue(reply().tool("Write", { file_path: target, content: "m" }, { id: "w" }), reply().text("Made."));
    const run = await warden(p, ["-p", "/touch made.txt now"]);
    expect(run.code, run.stderr).toBe(0);
    const body = server.requests[at]?.body as { messages: Array<{ content: WireBlock[] }> } | undefined;
    const prompt = body?.messages[0]?.content;
    expect(prompt?.map((block) => block.text).join("")).toContain("Create the file made.txt (request: made.txt now).");
    expect(readFileSync(target, "utf8")).toBe("m");
  });

  it("sends a prompt that only looks like a command unchanged", async () => {
    const p = project();
    write(join(p.home, "skills", "deep", "SKILL.md"), "---\ndescription: d\ncontext: fork\n---\nDig.\n");
    const at = server.requests.length;
    server.enqueue(reply().text("ok"));
    const plain = await warden(p, ["-p", "/etc/hosts looks odd"]);
    expect(plain.code, plain.stderr).toBe(0);
    expect(requestText(at)).toContain("/etc/hosts looks odd");
  });

  it("runs a forked skill as a subagent: its text is the child's task, its grants hold there, the parent reads the report", async () => {
    const p = project();
    const made = join(p.cwd, "dug.txt");
    write(
      join(p.home, "skills", "deep", "SKILL.md"),
      "---\ndescription: Dig deep\ncontext: fork\nallowed-tools: Write\n---\nDig into $ARGUMENTS and write what you found.\n",
    );
    const at = server.requests.length;
    server.enqueue(
      // The main loop, asked by `/deep the logs`, calls the Skill tool.
      reply().tool("Skill", { skill: "deep", args: "the logs" }, { id: "s1" }),
      // The child: writes with the skill's grant (headless, a Write would otherwise be refused).
      reply().tool("Write", { file_path: made, content: "found it" }, { id: "w1" }),
      reply().text("The logs show a timeout."),
      // The main loop reads the report.
      reply().text("Done: a timeout."),
    );
    const run = await warden(p, ["-p", "/deep the logs"]);
    expect(run.code, run.stderr).toBe(0);
    expect(requestText(at)).toContain('Run the skill \\"deep\\" with the Skill tool, args \\"the logs\\"');
    // The child's first request carries the skill's text, not the parent's conversation.
    const child = requestText(at + 1);
    expect(child).toContain("Dig into the logs and write what you found.");
    expect(child).not.toContain("Run the skill");
    expect(readFileSync(made, "utf8")).toBe("found it");
    const report = resultText(at + 3, "s1");
    expect(report).toContain("ran as a subagent (general-purpose");
    expect(report).toContain("The logs show a timeout.");
    expect(report).toContain("allowed without asking: Write");
    // The parent's conversation never received the skill's instructions.
    expect(requestText(at + 3)).not.toContain("Dig into the logs");
    const result = jsonLines(run.stdout).find((line) => line.type === "result");
    expect(result?.result).toBe("Done: a timeout.");
  });
});
