// `warden permissions check` knows every tool a session could offer, also those a session adds only
// when it has what they need (Skill over the folder's skills, the MCP resource tools) or when an
// option turns them on (teams, SendUserMessage, RemoteTrigger, either task-list family): a call of
// any of them is decided as a session would decide it, never "unknown tool".
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { permissionsInProcess } from "./check-in-process.js";
import { tempDir } from "./helpers.js";

function projectWithSkill() {
  const home = tempDir("warden-check-cond-home-");
  const cwd = tempDir("warden-check-cond-project-");
  mkdirSync(join(home, ".warden", "skills", "deploy"), { recursive: true });
  writeFileSync(
    join(home, ".warden", "skills", "deploy", "SKILL.md"),
    "---\nname: deploy\ndescription: Deploy the site\n---\nDeploy it.\n",
  );
  return { home, cwd };
}

async function check(tool: string, input: object, extra: string[] = []) {
  const { home, cwd } = projectWithSkill();
  const run = await permissionsInProcess(["check", tool, JSON.stringify(input), "--cwd", cwd, ...extra], { home, cwd });
  expect(run.stderr, `${tool}: ${run.stderr}`).not.toContain("unknown tool");
  expect(run.code, `${tool}: ${run.stderr}`).toBe(0);
  return JSON.parse(run.stdout) as { behavior: string; source: string };
}

describe("warden permissions check: conditional tools", () => {
  it("decides Skill calls, rules included", async () => {
    expect((await check("Skill", { skill: "deploy" })).behavior).toMatch(/allow|ask/);
    expect((await check("Skill", { skill: "deploy" }, ["--disallowedTools", "Skill(deploy)"])).behavior).toBe("deny");
  });

  it("decides the MCP resource tools' calls, rules included", async () => {
    expect((await check("ListMcpResources", {})).behavior).toBe("allow");
    expect((await check("ReadMcpResource", { server: "docs", uri: "file:///a" })).behavior).toMatch(/allow|ask/);
    expect(
      (await check("ReadMcpResource", { server: "docs", uri: "file:///a" }, ["--disallowedTools", "ReadMcpResource"]))
        .behavior,
    ).toBe("deny");
  });

  it("decides the tools an option turns on", async () => {
    for (const [tool, input] of [
      ["TeamCreate", { team_name: "crew" }],
      ["TaskCreate", { subject: "a", description: "b" }],
      ["TodoWrite", { todos: [] }],
      ["SendUserMessage", { message: "hi" }],
    ] as const) {
      expect((await check(tool, input)).behavior, tool).toMatch(/allow|ask|deny/);
    }
  });
});
