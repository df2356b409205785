// Settings files: where they are found, how they stack, and what happens when one is broken.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { lineAt, lineFinder, loadSettings, SettingsError, settingsMcpServers } from "../../src/config/settings.js";
import { hasPermissionsToUseTool } from "../../src/permissions/pipeline/index.js";
import { formatRule, normalizeRule, parseRule, splitRuleList } from "../../src/permissions/rules/index.js";
import { buildPermissionContext, PermissionConfigError } from "../../src/permissions/settings/index.js";
import { contextFor, isolateEnvironment, scriptedTool, tempDir, toolContext, writeJson } from "./helpers.js";

const env = isolateEnvironment();
let project: string;

beforeEach(() => {
  project = tempDir("warden-settings-project-");
  writeJson(join(env.home, ".warden", "settings.json"), {});
  writeJson(join(env.home, ".claude", "settings.json"), {});
  writeJson(env.policyFile, {});
});

describe("rule strings", () => {
  it.each([
    ["Bash", { toolName: "Bash" }],
    ["Bash(git commit:*)", { toolName: "Bash", ruleContent: "git commit:*" }],
    ["Read(./src/**)", { toolName: "Read", ruleContent: "./src/**" }],
    ["  Edit(~/notes/**)  ", { toolName: "Edit", ruleContent: "~/notes/**" }],
    ["mcp__github", { toolName: "mcp__github" }],
    ["mcp__github__*", { toolName: "mcp__github__*" }],
    ["mcp__github__create_issue", { toolName: "mcp__github__create_issue" }],
    ["Bash(*)", { toolName: "Bash" }],
    ["Bash(echo \\(x\\))", { toolName: "Bash", ruleContent: "echo (x)" }],
  ])("parses %s", (text, value) => {
    expect(parseRule(text)).toEqual({ ok: true, value });
  });

  it.each(["", "Bash(", "Bash()", "Bash(ls", "Bash ls", "(ls)", "Bash)x(", "Ba$h", "Read(./a) extra"])(
    "refuses the malformed rule %j",
    (text) => {
      expect(parseRule(text).ok).toBe(false);
    },
  );

  it("formats back to a string that parses to the same rule", () => {
    for (const text of ["Bash(echo \\(x\\))", "Read(./src/**)", "WebFetch"]) {
      const parsed = parseRule(text);
      if (!parsed.ok) throw new Error(parsed.error);
      expect(parseRule(formatRule(parsed.value))).toEqual(parsed);
    }
    expect(normalizeRule(" Bash( ls ) ")).toBe("Bash(ls)");
  });

  it("splits CLI lists on commas and spaces outside parentheses", () => {
    expect(splitRuleList("Bash(git commit:*),Read Edit(./a b/**)")).toEqual([
      "Bash(git commit:*)",
      "Read",
      "Edit(./a b/**)",
    ]);
  });
});

describe("settings sources", () => {
  it("reads every source and orders rules by precedence", () => {
    writeJson(join(env.home, ".warden", "settings.json"), { permissions: { allow: ["Glob"] } });
    writeJson(join(env.home, ".claude", "settings.json"), { permissions: { allow: ["Grep"] } });
    writeJson(join(project, ".claude", "settings.json"), { permissions: { allow: ["Read"] } });
    writeJson(join(project, ".warden", "settings.json"), { permissions: { allow: ["Read"] } });
    writeJson(join(project, ".warden", "settings.local.json"), { permissions: { allow: ["Read"] } });
    writeJson(env.policyFile, { permissions: { allow: ["Read"] } });
    const context = contextFor(project, { allowedTools: ["Read"] });
    const sources = context.rules.allow.filter((r) => r.value.toolName === "Read").map((r) => r.source);
    expect(sources).toEqual(["policySettings", "cliArg", "localSettings", "projectSettings", "projectSettings"]);
    expect(context.rules.allow.map((r) => r.value.toolName)).toEqual(expect.arrayContaining(["Glob", "Grep"]));
    const fromFile = context.rules.allow.find((r) => r.source === "localSettings");
    expect(fromFile).toMatchObject({ file: join(project, ".warden", "settings.local.json"), line: 4, root: project });
  });

  const write = {
    userSettings: (rule: string, b: string) =>
      writeJson(join(env.home, ".warden", "settings.json"), { permissions: { [b]: [rule] } }),
    projectSettings: (rule: string, b: string) =>
      writeJson(join(project, ".warden", "settings.json"), { permissions: { [b]: [rule] } }),
    localSettings: (rule: string, b: string) =>
      writeJson(join(project, ".claude", "settings.local.json"), { permissions: { [b]: [rule] } }),
    policySettings: (rule: string, b: string) => writeJson(env.policyFile, { permissions: { [b]: [rule] } }),
  };
  const fileSources = Object.keys(write) as Array<keyof typeof write>;
  const pairs = fileSources.flatMap((deny) =>
    [...fileSources, "cliArg" as const].filter((allow) => allow !== deny).map((allow) => [deny, allow] as const),
  );

  it.each(pairs)("a deny rule from %s beats an allow rule from %s", async (denySource, allowSource) => {
    write[denySource]("Danger", "deny");
    if (allowSource !== "cliArg") write[allowSource]("Danger", "allow");
    const context = contextFor(project, {
      allowedTools: allowSource === "cliArg" ? ["Danger"] : [],
      dangerouslySkipPermissions: true,
    });
    const tool = scriptedTool("Danger", { behavior: "allow" });
    const decision = await hasPermissionsToUseTool(tool, {}, toolContext(project, context), context);
    expect(decision).toMatchObject({
      behavior: "deny",
      decisionReason: { type: "rule", rule: { source: denySource } },
    });
  });

  it("a CLI deny beats an allow rule from every file", async () => {
    for (const source of fileSources) write[source]("Danger", "allow");
    const context = contextFor(project, { disallowedTools: ["Danger"] });
    const tool = scriptedTool("Danger", { behavior: "passthrough", message: "?" });
    const decision = await hasPermissionsToUseTool(tool, {}, toolContext(project, context), context);
    expect(decision).toMatchObject({ behavior: "deny", decisionReason: { type: "rule", rule: { source: "cliArg" } } });
  });

  it("takes defaultMode from the highest file, and the CLI flag over all", () => {
    writeJson(join(project, ".warden", "settings.json"), { permissions: { defaultMode: "plan" } });
    writeJson(join(project, ".warden", "settings.local.json"), { permissions: { defaultMode: "acceptEdits" } });
    expect(contextFor(project).mode).toBe("acceptEdits");
    expect(contextFor(project, { permissionMode: "dontAsk" }).mode).toBe("dontAsk");
  });

  it("does not take bypass from a file, only from the explicit flag", () => {
    writeJson(join(project, ".warden", "settings.json"), { permissions: { defaultMode: "bypassPermissions" } });
    const built = buildPermissionContext({
      cwd: project,
      settings: loadSettings({ cwd: project, trustProject: true }),
    });
    expect(built.context.mode).toBe("default");
    expect(built.context.isBypassPermissionsModeAvailable).toBe(false);
    expect(built.warnings[0]?.message).toContain("--dangerously-skip-permissions");
  });

  it("refuses bypass when a settings file disables it", () => {
    writeJson(env.policyFile, { permissions: { disableBypassPermissionsMode: "disable" } });
    expect(() => contextFor(project, { dangerouslySkipPermissions: true })).toThrow(PermissionConfigError);
    expect(() => contextFor(project, { dangerouslySkipPermissions: true })).toThrow(env.policyFile);
  });

  it("keeps only policy rules under allowManagedPermissionRulesOnly", () => {
    writeJson(env.policyFile, { allowManagedPermissionRulesOnly: true, permissions: { deny: ["WebFetch"] } });
    writeJson(join(project, ".warden", "settings.json"), { permissions: { allow: ["Bash"], deny: ["Read"] } });
    const context = contextFor(project, { allowedTools: ["Edit"] });
    expect(context.managedRulesOnly).toBe(true);
    expect([...context.rules.allow, ...context.rules.deny].map((r) => r.source)).toEqual(["policySettings"]);
  });

  it("adds additionalDirectories (relative to the file's project) and --add-dir", () => {
    writeJson(join(project, ".warden", "settings.json"), { permissions: { additionalDirectories: ["../shared"] } });
    const extra = tempDir("warden-extra-");
    const context = contextFor(project, { addDirs: [extra] });
    expect(context.workingDirectories).toEqual([project, join(project, "..", "shared"), extra]);
  });

  it("reads --settings as a file or inline JSON", () => {
    const file = writeJson(join(tempDir(), "extra.json"), { permissions: { deny: ["Bash"] } });
    const loaded = loadSettings({ cwd: project, extraSettings: [file, '{"permissions":{"ask":["Edit"]}}'] });
    const context = buildPermissionContext({ cwd: project, settings: loaded }).context;
    expect(context.rules.deny[0]).toMatchObject({ source: "cliArg", file });
    expect(context.rules.ask[0]).toMatchObject({ source: "cliArg", file: "--settings" });
  });

  it("gives the MCP layer the mcpServers of every file, higher precedence winning", () => {
    writeJson(join(env.home, ".warden", "settings.json"), {
      mcpServers: { a: { command: "user-a" }, b: { command: "user-b" } },
    });
    writeJson(join(project, ".warden", "settings.json"), { mcpServers: { a: { command: "project-a" } } });
    const servers = settingsMcpServers(loadSettings({ cwd: project, trustProject: true }));
    expect(servers.a).toMatchObject({ config: { command: "project-a" }, source: "projectSettings" });
    expect(servers.b).toMatchObject({ config: { command: "user-b" }, source: "userSettings" });
  });
});

describe("broken settings", () => {
  function refusal(): SettingsError {
    try {
      loadSettings({ cwd: project });
    } catch (error) {
      if (error instanceof SettingsError) return error;
      throw error;
    }
    throw new Error("expected the settings to be refused");
  }

  it("refuses to start on invalid JSON, naming the file and line: its deny rules cannot be read", () => {
    const path = join(project, ".warden", "settings.json");
    mkdirSync(join(project, ".warden"), { recursive: true });
    writeFileSync(path, '{\n  "permissions": {\n    "deny": ["Bash(rm:*)",]\n  }\n}\n');
    const error = refusal();
    expect(error.issues[0]).toMatchObject({ file: path, line: 3 });
    expect(error.message).toContain("deny rules cannot be read");
  });

  it("refuses to start when deny rules have the wrong shape", () => {
    writeJson(env.policyFile, { permissions: { deny: "Bash" } });
    const error = refusal();
    expect(error.issues[0]).toMatchObject({ file: env.policyFile, line: 3 });
    expect(error.message).toContain("permissions.deny");
  });

  it("refuses to start when hooks are malformed (a guard that cannot load is no guard)", () => {
    writeJson(join(project, ".warden", "settings.json"), {
      hooks: { PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command" }] }] },
    });
    expect(refusal().message).toContain("hooks.PreToolUse.0.hooks.0.command");
  });

  it("refuses to start on a settings file that is not an object, or that cannot be read", () => {
    writeJson(join(project, ".warden", "settings.local.json"), "[1, 2]");
    expect(refusal().message).toContain("must hold a JSON object");
    writeJson(join(project, ".warden", "settings.local.json"), {});
    mkdirSync(join(project, ".claude", "settings.json"), { recursive: true });
    expect(refusal().message).toContain("cannot be read");
  });

  it("drops a broken field that can only widen access, with a warning, and keeps the rest", () => {
    writeJson(join(project, ".warden", "settings.json"), {
      permissions: { allow: "Bash", deny: ["Read"], defaultMode: "yolo" },
    });
    const loaded = loadSettings({ cwd: project });
    expect(loaded.warnings.map((w) => w.message)).toEqual([
      expect.stringContaining("permissions.allow"),
      expect.stringContaining("permissions.defaultMode"),
    ]);
    const context = buildPermissionContext({ cwd: project, settings: loaded }).context;
    expect(context.rules.allow).toEqual([]);
    expect(context.rules.deny.map((r) => formatRule(r.value))).toEqual(["Read"]);
    expect(context.mode).toBe("default");
  });

  it("drops only the entries of a list that have the wrong type, keeping the others, and says which", () => {
    const path = writeJson(join(project, ".warden", "settings.json"), {
      permissions: { allow: ["Bash(ls:*)", 7, "WebFetch"], additionalDirectories: [null, "/tmp"] },
    });
    const loaded = loadSettings({ cwd: project, trustProject: true });
    expect(loaded.warnings.map((w) => w.message)).toEqual([
      expect.stringMatching(/^permissions\.allow\.1: .*expected string.*; this entry ignored$/),
      expect.stringMatching(/^permissions\.additionalDirectories\.0: .*; this entry ignored$/),
    ]);
    const context = buildPermissionContext({ cwd: project, settings: loaded }).context;
    expect(context.rules.allow.map((r) => formatRule(r.value))).toEqual(["Bash(ls:*)", "WebFetch"]);
    const file = loaded.files.find((f) => f.path === path);
    expect(file?.settings.permissions?.additionalDirectories).toEqual(["/tmp"]);
  });

  it("refuses to start on a sandbox setting of the wrong type: dropped, Bash would run unsandboxed", () => {
    writeJson(join(project, ".warden", "settings.json"), { sandbox: { enabled: "true" } });
    expect(refusal().message).toMatch(/sandbox\.enabled: .*expected boolean.*can only be skipped unsafely/);
    writeJson(join(project, ".warden", "settings.json"), { sandbox: { network: { deniedDomains: "evil.example" } } });
    expect(refusal().message).toContain("sandbox.network.deniedDomains");
    // Claude Code's sandbox keys Warden does not read pass as they are.
    writeJson(join(project, ".warden", "settings.json"), {
      sandbox: { enabled: true, ignoreViolations: { "*": ["/tmp"] }, network: { allowUnixSockets: ["/x.sock"] } },
    });
    expect(loadSettings({ cwd: project }).warnings).toEqual([]);
  });

  it("warns about a misspelt permissions key, whose rules would otherwise never apply unnoticed", () => {
    const path = writeJson(join(project, ".warden", "settings.json"), {
      permissions: { denny: ["Bash(rm:*)"], Deny: ["Read"], allow: ["Glob"] },
    });
    expect(loadSettings({ cwd: project }).warnings).toEqual([
      {
        file: path,
        line: 3,
        message: expect.stringMatching(/^permissions\.denny: not a permissions setting \(allow, deny,/),
      },
      { file: path, line: 6, message: expect.stringMatching(/^permissions\.Deny: not a permissions setting/) },
    ]);
  });

  it("warns about .mcp.json approvals of the wrong type instead of reading them as nothing", () => {
    writeJson(join(project, ".warden", "settings.json"), {
      disabledMcpjsonServers: "demo",
      enabledMcpjsonServers: ["docs", 3],
      enableAllProjectMcpServers: "true",
    });
    expect(loadSettings({ cwd: project }).warnings.map((w) => w.message)).toEqual([
      expect.stringMatching(/^enabledMcpjsonServers\.1: .*; this entry ignored$/),
      expect.stringMatching(/^disabledMcpjsonServers: .*expected array.*; ignored$/),
      expect.stringMatching(/^enableAllProjectMcpServers: .*expected boolean.*; ignored$/),
    ]);
  });

  it("warns about a model setting that is not a string instead of ignoring it silently", () => {
    writeJson(join(project, ".warden", "settings.json"), { model: 5 });
    expect(loadSettings({ cwd: project }).warnings.map((w) => w.message)).toEqual([
      expect.stringMatching(/^model: .*expected string.*; ignored$/),
    ]);
  });

  it("reports a malformed allow rule with its file and line and skips it, keeping its neighbours", () => {
    const path = writeJson(join(project, ".warden", "settings.json"), {
      permissions: { allow: ["Bash(ls:*)", "Bash(curl", "WebFetch"] },
    });
    const built = buildPermissionContext({
      cwd: project,
      settings: loadSettings({ cwd: project, trustProject: true }),
    });
    expect(built.warnings).toEqual([
      { file: path, line: 5, message: expect.stringContaining("malformed allow rule skipped") },
    ]);
    expect(built.context.rules.allow.map((r) => formatRule(r.value))).toEqual(["Bash(ls:*)", "WebFetch"]);
  });

  it("does not start with a malformed deny or ask rule: the restriction someone wrote would be missing", () => {
    for (const behavior of ["deny", "ask"] as const) {
      const path = writeJson(join(project, ".warden", "settings.json"), {
        permissions: { [behavior]: ["Bash(rm:*)", "Bash(curl", "WebFetch"] },
      });
      const settings = loadSettings({ cwd: project });
      expect(() => buildPermissionContext({ cwd: project, settings })).toThrow(SettingsError);
      expect(() => buildPermissionContext({ cwd: project, settings })).toThrow(
        `${path}:5: malformed ${behavior} rule: "Bash(curl" must end with ")"`,
      );
    }
  });

  it("gives each rule of a long list its own line, the lines found once for the whole file", () => {
    const path = writeJson(join(project, ".warden", "settings.json"), {
      permissions: { allow: Array.from({ length: 2000 }, (_, i) => `Bash(echo ${i}:*)`), deny: ["Read(./a)"] },
    });
    const rules = buildPermissionContext({ cwd: project, settings: loadSettings({ cwd: project, trustProject: true }) })
      .context.rules;
    const ofFile = rules.allow.filter((r) => r.file === path);
    expect(ofFile.map((r) => r.line)).toEqual(Array.from({ length: 2000 }, (_, i) => i + 4));
    expect(rules.deny.find((r) => r.file === path)?.line).toBe(2006);
    for (const text of ["", "a", "\n", "ab\ncd\n\nef", "\n\nx\n"]) {
      const find = lineFinder(text);
      for (let i = 0; i <= text.length + 1; i++)
        expect(find(i), `${JSON.stringify(text)} at ${i}`).toBe(lineAt(text, i));
    }
  });

  it("reads a file that starts with a byte-order mark", () => {
    writeJson(
      join(project, ".warden", "settings.json"),
      `\uFEFF${JSON.stringify({ permissions: { deny: ["Bash"] } })}`,
    );
    expect(contextFor(project).rules.deny.map((r) => formatRule(r.value))).toEqual(["Bash"]);
  });

  it("warns about rules that can never apply, naming both rules", () => {
    const path = writeJson(join(project, ".warden", "settings.json"), {
      permissions: { allow: ["Bash(ls:*)", "Read", "WebFetch(domain:example.com)"], ask: ["WebFetch"], deny: ["Bash"] },
    });
    const built = buildPermissionContext({
      cwd: project,
      settings: loadSettings({ cwd: project, trustProject: true }),
    });
    expect(built.warnings).toEqual([
      {
        file: path,
        line: 4,
        message: expect.stringMatching(/Bash\(ls:\*\) .* never applies: Bash .*denies the whole tool/),
      },
      {
        file: path,
        line: 6,
        message: expect.stringMatching(/WebFetch\(domain:example.com\) .* never applies: WebFetch .*asks/),
      },
    ]);
  });

  it("does not call a file's rules broken when a flag sets their tool aside for one run, but reports the flag's own", () => {
    writeJson(join(project, ".warden", "settings.json"), { permissions: { allow: ["Bash(ls:*)"], ask: ["Write"] } });
    const built = buildPermissionContext({
      cwd: project,
      settings: loadSettings({ cwd: project, trustProject: true }),
      cli: { disallowedTools: ["Bash", "Write"], allowedTools: ["Bash(git status)"] },
    });
    // `--disallowedTools Bash` for this run is no mistake in the file; `--allowedTools` beside it is.
    expect(built.warnings).toEqual([
      {
        file: "cliArg",
        message: expect.stringMatching(/^Bash\(git status\) .* never applies: Bash .*denies the whole tool/),
      },
    ]);
  });

  it("refuses an unknown --permission-mode", () => {
    expect(() => contextFor(project, { permissionMode: "yolo" })).toThrow(/unknown --permission-mode "yolo"/);
  });

  it("reports an explicitly named --settings file that does not exist", () => {
    expect(() => loadSettings({ cwd: project, extraSettings: ["missing.json"] })).toThrow(
      /missing\.json: file not found/,
    );
  });
});
