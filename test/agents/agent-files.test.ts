// Custom agents from files and settings: good ones load (and their definition shapes the child),
// each malformed one is reported with its path and reason, on stderr and in the stream-json init
// line, and a project's agents wait for the folder to be trusted.
import { mkdirSync, readdirSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseAgentFile } from "../../src/config/agent-files.js";
import { projectSlug } from "../../src/config/paths.js";
import { loadAgentCatalog } from "../../src/tools/agent/catalog.js";
import { jsonLines, runCli } from "../cli/run-cli.js";
import { tempDir, writeScript } from "../loop/helpers.js";

const GOOD = `---
name: reviewer
description: Reviews a diff for bugs
tools: Read, Grep
model: inherit
maxTurns: 3
---
You review code. Report bugs with path:line.
`;

/** Nested aliases, each level nine of the one before: a few lines that would expand to millions of values. */
function aliasBomb(): string {
  const lines = ['l0: &l0 ["x","x","x","x","x","x","x","x","x"]'];
  for (let i = 1; i < 10; i += 1)
    lines.push(
      `l${i}: &l${i} [${Array(9)
        .fill(`*l${i - 1}`)
        .join(",")}]`,
    );
  return `${lines.join("\n")}\n`;
}

function project(): { cwd: string; home: string } {
  const cwd = realpathSync(tempDir("warden-agent-files-"));
  const home = tempDir("warden-agent-files-home-");
  mkdirSync(join(cwd, ".warden", "agents"), { recursive: true });
  return { cwd, home };
}

describe("agent files", () => {
  it("parses a definition: frontmatter fields and the body as the system prompt", () => {
    const result = parseAgentFile("/x/reviewer.md", GOOD, "project");
    expect(result).toEqual({
      definition: {
        agentType: "reviewer",
        whenToUse: "Reviews a diff for bugs",
        systemPrompt: "You review code. Report bugs with path:line.",
        tools: ["Read", "Grep"],
        model: "inherit",
        maxTurns: 3,
        source: "project",
        path: "/x/reviewer.md",
      },
    });
  });

  it.each([
    ["no frontmatter", "just text\n", /no frontmatter/],
    ["unclosed", "---\nname: a\n", /not closed/],
    [
      "bad yaml",
      "---\nname: [a\ndescription: b\n---\nbody\n",
      /invalid YAML in the frontmatter \(line 3 of the file\): Flow sequence/,
    ],
    ["no description", "---\nname: a\n---\nbody\n", /description is required/],
    ["bad mode", "---\nname: a\ndescription: d\npermissionMode: godmode\n---\nbody\n", /permissionMode/],
    ["bad maxTurns", "---\nname: a\ndescription: d\nmaxTurns: many\n---\nbody\n", /maxTurns/],
    ["empty body", "---\nname: a\ndescription: d\n---\n\n", /body .* is empty/],
    ["bad name", "---\nname: ../evil\ndescription: d\n---\nbody\n", /name must be/],
    [
      "aliases that blow up",
      `---\nname: a\ndescription: d\n${aliasBomb()}---\nbody\n`,
      /invalid YAML in the frontmatter: Excessive alias count/,
    ],
  ])("reports %s with the file's path", (_label, text, reason) => {
    const result = parseAgentFile("/x/bad.md", text, "user");
    expect("issue" in result && result.issue.path).toBe("/x/bad.md");
    expect("issue" in result && result.issue.reason).toMatch(reason);
  });

  it("keeps built-in names, lets a project file override a user one, and waits for trust", async () => {
    const { cwd, home } = project();
    const previous = { HOME: process.env.HOME, WARDEN_HOME: process.env.WARDEN_HOME };
    process.env.HOME = home;
    process.env.WARDEN_HOME = join(home, ".warden");
    try {
      mkdirSync(join(home, ".warden", "agents"), { recursive: true });
      writeFileSync(join(home, ".warden", "agents", "reviewer.md"), GOOD.replace("Reviews a diff", "User's reviewer"));
      writeFileSync(join(cwd, ".warden", "agents", "reviewer.md"), GOOD);
      writeFileSync(join(cwd, ".warden", "agents", "explore.md"), "---\nname: Explore\ndescription: mine\n---\nbody\n");
      const trusted = await loadAgentCatalog({ cwd, projectTrusted: true });
      expect(trusted.agents.find((a) => a.agentType === "reviewer")?.whenToUse).toBe("Reviews a diff for bugs");
      expect(trusted.agents.find((a) => a.agentType === "Explore")?.source).toBe("built-in");
      expect(trusted.issues).toEqual([
        { path: join(cwd, ".warden", "agents", "explore.md"), reason: expect.stringMatching(/belongs to a built-in/) },
      ]);
      const untrusted = await loadAgentCatalog({ cwd, projectTrusted: false });
      expect(untrusted.agents.find((a) => a.agentType === "reviewer")?.whenToUse).toBe("User's reviewer for bugs");
      expect(untrusted.untrustedProjectAgents).toHaveLength(2);
    } finally {
      process.env.HOME = previous.HOME;
      if (previous.WARDEN_HOME === undefined) delete process.env.WARDEN_HOME;
      else process.env.WARDEN_HOME = previous.WARDEN_HOME;
    }
  });

  it("through the CLI: malformed files on stderr and in init, the good one runs with its tools and prompt", async () => {
    const { cwd, home } = project();
    const agents = join(cwd, ".warden", "agents");
    writeFileSync(join(agents, "reviewer.md"), GOOD);
    writeFileSync(join(agents, "broken.md"), "---\nname: broken\n---\nno description\n");
    mkdirSync(join(cwd, ".claude", "agents"), { recursive: true });
    writeFileSync(join(cwd, ".claude", "agents", "yaml.md"), "---\nname: [oops\n---\nbody\n");
    writeFileSync(join(cwd, "a.txt"), "hello\n");
    const script = writeScript(cwd, [
      {
        content: [
          {
            type: "tool_use",
            id: "m1",
            name: "Agent",
            input: { description: "review", prompt: "Review a.txt", subagent_type: "reviewer" },
          },
        ],
      },
      {
        agent: "reviewer",
        content: [
          { type: "tool_use", id: "r1", name: "Read", input: { file_path: "{{cwd}}/a.txt" } },
          { type: "tool_use", id: "r2", name: "Bash", input: { command: "echo hi" } },
        ],
      },
      { agent: "reviewer", content: [{ type: "text", text: "a.txt says hello; no bugs." }] },
      { content: [{ type: "text", text: "Reviewed." }] },
    ]);
    const run = await runCli(
      ["-p", "review", "--model", `replay:${script}`, "--output-format", "stream-json", "--cwd", cwd],
      {
        home,
      },
    );
    expect(run.code).toBe(0);
    expect(run.stderr).toContain(`agent ${join(agents, "broken.md")} was not loaded: description is required`);
    expect(run.stderr).toContain(`agent ${join(cwd, ".claude", "agents", "yaml.md")} was not loaded: invalid YAML`);
    const lines = jsonLines(run.stdout);
    expect(lines[0]).toMatchObject({
      subtype: "init",
      agents: ["general-purpose", "Explore", "Plan", "verification", "reviewer"],
      agent_errors: [
        { path: join(cwd, ".claude", "agents", "yaml.md"), reason: expect.stringMatching(/invalid YAML/) },
        { path: join(agents, "broken.md"), reason: "description is required" },
      ],
    });
    expect(lines.at(-1)).toMatchObject({ subtype: "success", result: "Reviewed." });
    // The child ran with the file's tools (Read, Grep): Bash is not among them.
    const sessionId = lines[0]?.session_id as string;
    const dir = join(home, "projects", projectSlug(cwd), sessionId, "subagents");
    const [file] = readdirSync(dir);
    const sidechain = readFileSync(join(dir, file as string), "utf8");
    expect(sidechain).toContain("No such tool available: Bash");
    expect(sidechain).toContain("hello");
  }, 30_000);
});
