// Memory files bring nothing from outside the project unasked: a repository's AGENTS.md / CLAUDE.md
// imports (home paths, absolute paths, ../, chains of imports, links inside the project that lead
// out, a linked memory file) reach only files inside the project until the user approves this
// project's external imports; a deny rule on Read keeps any memory file out, inside the project too.
// The user's own memory may import from the home. Each case plants a secret and checks the request.
import { mkdirSync, realpathSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { loadMemory, loadMemoryFiles, projectMemoryFilesIn } from "../../src/config/memory.js";
import { externalImportsDecision, recordExternalImportsDecision } from "../../src/config/memory-approval.js";
import { emptyPermissionContext, type PermissionRule } from "../../src/tool/permission-types.js";
import type { AnyTool } from "../../src/tool/types.js";
import { ReadTool } from "../../src/tools/read/tool.js";
import { collect, sessionFor, tempDir, text } from "../loop/helpers.js";

const saved = { home: process.env.HOME, warden: process.env.WARDEN_HOME };
let home: string;
let project: string;
let outside: string;
const SSH_KEY = "-----BEGIN OPENSSH PRIVATE KEY----- SSHSECRET";
const AWS = "aws_secret_access_key = AWSSECRET";
const OUTSIDE = "OUTSIDESECRET";

beforeEach(() => {
  home = realpathSync(tempDir("warden-home-"));
  process.env.HOME = home;
  process.env.WARDEN_HOME = join(home, ".warden");
  mkdirSync(join(home, ".ssh"));
  mkdirSync(join(home, ".aws"));
  writeFileSync(join(home, ".ssh", "id_rsa"), SSH_KEY);
  writeFileSync(join(home, ".aws", "credentials"), AWS);
  project = join(home, "work", "repo");
  mkdirSync(join(project, "docs"), { recursive: true });
  outside = realpathSync(tempDir("warden-outside-"));
  writeFileSync(join(outside, "notes.md"), OUTSIDE);
});
afterEach(() => {
  process.env.HOME = saved.home;
  process.env.WARDEN_HOME = saved.warden;
});

const everything = (files: ReturnType<typeof loadMemoryFiles>) => files.map((f) => f.content).join("\n");
const SECRETS = /SSHSECRET|AWSSECRET|OUTSIDESECRET/;

/** The attacks, each a repository set up by the function; none may bring a secret in unasked. */
const ATTACKS: Record<string, () => void> = {
  "a home path import (@~/.ssh/id_rsa)": () => writeFileSync(join(project, "CLAUDE.md"), "Rules @~/.ssh/id_rsa\n"),
  "an absolute import": () =>
    writeFileSync(
      join(project, "AGENTS.md"),
      `Rules @${join(home, ".aws", "credentials")} @${join(outside, "notes.md")}\n`,
    ),
  "a ../ import": () => writeFileSync(join(project, "CLAUDE.md"), "Rules @../../.ssh/id_rsa\n"),
  "a ./../ import with trailing punctuation": () =>
    writeFileSync(join(project, "CLAUDE.md"), "See @./../../.aws/credentials.\n"),
  "an escaped-space path": () => {
    mkdirSync(join(home, "my keys"));
    writeFileSync(join(home, "my keys", "k.md"), SSH_KEY);
    writeFileSync(join(project, "CLAUDE.md"), "Rules @~/my\\ keys/k.md\n");
  },
  "a nested import (inside file imports outside)": () => {
    writeFileSync(join(project, "CLAUDE.md"), "Rules @docs/a.md\n");
    writeFileSync(join(project, "docs", "a.md"), "More @b.md\n");
    writeFileSync(join(project, "docs", "b.md"), "Even more @~/.aws/credentials\n");
  },
  "a symlinked CLAUDE.local.md": () => symlinkSync(join(home, ".ssh", "id_rsa"), join(project, "CLAUDE.local.md")),
  "a symlinked AGENTS.md": () => symlinkSync(join(outside, "notes.md"), join(project, "AGENTS.md")),
  "a symlinked .claude folder": () => {
    mkdirSync(join(outside, "claude"));
    writeFileSync(join(outside, "claude", "CLAUDE.md"), OUTSIDE);
    symlinkSync(join(outside, "claude"), join(project, ".claude"));
  },
  "an import of a symlink inside the project that leads out": () => {
    symlinkSync(join(home, ".ssh", "id_rsa"), join(project, "docs", "key.md"));
    writeFileSync(join(project, "CLAUDE.md"), "Rules @docs/key.md\n");
  },
  "an import through a symlinked folder inside the project": () => {
    symlinkSync(join(home, ".aws"), join(project, "docs", "cloud"));
    writeFileSync(join(project, "CLAUDE.md"), "Rules @docs/cloud/credentials\n");
  },
  "a bare relative import of a link that leads out": () => {
    mkdirSync(join(outside, "deep"));
    writeFileSync(join(outside, "deep", "x.md"), OUTSIDE);
    writeFileSync(join(project, "docs", "in.md"), "@x.md\n");
    writeFileSync(join(project, "CLAUDE.md"), "Rules @docs/in.md\n");
    // docs/in.md is a real file; a second file links into the outside folder and imports a sibling there.
    symlinkSync(join(outside, "deep", "x.md"), join(project, "docs", "x.md"));
  },
  "a file in a folder above the project importing from the home": () =>
    writeFileSync(join(home, "work", "CLAUDE.md"), "Team rules @../.ssh/id_rsa @~/.aws/credentials\n"),
};

describe("memory imports from outside the project", () => {
  for (const [name, plant] of Object.entries(ATTACKS)) {
    it(`are not read unasked: ${name}`, () => {
      plant();
      const load = loadMemory(project);
      expect(everything(load.files)).not.toMatch(SECRETS);
      // What was left out is said (for the notice or the question), by real path.
      expect(load.externalSkipped.length).toBeGreaterThan(0);
      // Approved for this project, they load (the boundary is an approval, not a ban).
      recordExternalImportsDecision(project, "approved");
      expect(everything(loadMemoryFiles(project))).toMatch(SECRETS);
      // Declined is remembered and reads nothing either.
      recordExternalImportsDecision(project, "declined");
      expect(everything(loadMemoryFiles(project))).not.toMatch(SECRETS);
    });
  }

  it("keeps imports inside the project, relative to a file in the project, without asking", () => {
    writeFileSync(join(project, "CLAUDE.md"), "Rules @docs/style.md @./docs/more.md\n");
    writeFileSync(join(project, "docs", "style.md"), "STYLE @../shared.md");
    writeFileSync(join(project, "docs", "more.md"), "MORE");
    writeFileSync(join(project, "shared.md"), "SHARED");
    // A link inside the project to another file inside it is inside.
    symlinkSync(join(project, "shared.md"), join(project, "CLAUDE.local.md"));
    const load = loadMemory(project);
    expect(load.externalSkipped).toEqual([]);
    expect(everything(load.files)).toMatch(/STYLE[\s\S]*SHARED[\s\S]*MORE/);
  });

  it("lets the user's own memory import from the home, not from elsewhere", () => {
    mkdirSync(join(home, ".warden"), { recursive: true });
    writeFileSync(join(home, "personal.md"), "PERSONAL");
    writeFileSync(join(home, ".warden", "CLAUDE.md"), `Mine @~/personal.md @${join(outside, "notes.md")}\n`);
    const load = loadMemory(project);
    expect(everything(load.files)).toContain("PERSONAL");
    expect(everything(load.files)).not.toContain(OUTSIDE);
    expect(load.externalSkipped).toEqual([join(outside, "notes.md")]);
  });

  it("bounds a nested folder's memory (the reminder's loader) by its working folder", () => {
    mkdirSync(join(project, "pkg"));
    writeFileSync(join(project, "pkg", "CLAUDE.md"), "Pkg @~/.ssh/id_rsa @../docs/ok.md\n");
    writeFileSync(join(project, "docs", "ok.md"), "OK");
    const files = projectMemoryFilesIn(join(project, "pkg"), project, { externalImports: "skip" });
    expect(everything(files)).toContain("OK");
    expect(everything(files)).not.toMatch(SECRETS);
  });

  it("keeps the approval in the user's own file, per project by real path", () => {
    const link = join(home, "link-to-repo");
    symlinkSync(project, link);
    recordExternalImportsDecision(link, "approved");
    expect(externalImportsDecision(project)).toBe("approved");
    expect(externalImportsDecision(outside)).toBeUndefined();
    // A repository cannot approve itself: a file of that name in the project means nothing.
    mkdirSync(join(outside, ".warden"));
    writeFileSync(
      join(outside, ".warden", "memory-imports.json"),
      JSON.stringify({ projects: { [outside]: "approved" } }),
    );
    expect(externalImportsDecision(outside)).toBeUndefined();
  });
});

describe("the session's first request", () => {
  const deny = (ruleContent: string): PermissionRule => ({
    source: "projectSettings",
    behavior: "deny",
    value: { toolName: "Read", ruleContent },
  });

  async function systemPrompt(rules: PermissionRule[] = []): Promise<{ system: string; notices: string[] }> {
    const permissionContext = emptyPermissionContext(project);
    permissionContext.rules.deny.push(...rules);
    const notices: string[] = [];
    const { session, requests } = sessionFor(project, [{ content: [text("ok")] }], {
      loadMemory: true,
      tools: [ReadTool] as AnyTool[],
      permissionContext,
      onMemoryNotice: (notice) => notices.push(notice),
    });
    await collect(session.submitMessage("x"));
    return { system: requests[0]?.system ?? "", notices };
  }

  it("holds no outside file, and the session says what it left out", async () => {
    writeFileSync(join(project, "CLAUDE.md"), "PROJECT RULES @~/.ssh/id_rsa @docs/a.md\n");
    writeFileSync(join(project, "docs", "a.md"), "INSIDE @~/.aws/credentials");
    const { system, notices } = await systemPrompt();
    expect(system).toContain("PROJECT RULES");
    expect(system).toContain("INSIDE");
    expect(system).not.toMatch(SECRETS);
    expect(notices).toHaveLength(1);
    expect(notices[0]).toContain(join(home, ".ssh", "id_rsa"));
    expect(notices[0]).toContain(join(home, ".aws", "credentials"));
  });

  it("applies a Read deny rule to every import, inside the project and by where a link leads", async () => {
    mkdirSync(join(project, "private"));
    writeFileSync(join(project, "private", "token.md"), "PRIVATETOKEN");
    symlinkSync(join(project, "private", "token.md"), join(project, "docs", "innocent.md"));
    writeFileSync(join(project, "docs", "secret.md"), "DOCSECRET");
    writeFileSync(join(project, "CLAUDE.md"), "RULES @docs/innocent.md @docs/secret.md @~/.ssh/id_rsa\n");
    recordExternalImportsDecision(project, "approved");
    const { system } = await systemPrompt([deny("./private/**"), deny("./docs/secret.md"), deny("~/.ssh/**")]);
    expect(system).toContain("RULES");
    expect(system).not.toContain("PRIVATETOKEN");
    expect(system).not.toContain("DOCSECRET");
    // Approved external imports still pass the deny rules.
    expect(system).not.toContain("SSHSECRET");
  });
});
