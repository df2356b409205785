// The PowerShell analysis and decision on a corpus of its own (corpus.jsonl: command, rules,
// expected decision, 80+ lines with attacks: aliases, script blocks, sub-expressions, .NET calls,
// encoded commands, smuggled arguments, file rules). Passthrough counts as the ask it becomes in
// default mode, as the allow it becomes in bypass mode (a line may name that mode).
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { checkPowerShellPermission } from "../../../src/permissions/powershell/index.js";
import { parseRule } from "../../../src/permissions/rules/index.js";
import type { PermissionBehavior, PermissionRule, ToolPermissionContext } from "../../../src/tool/permission-types.js";
import { tempDir } from "../helpers.js";

interface CorpusLine {
  command: string;
  expect: "allow" | "ask" | "deny";
  rules?: { allow?: string[]; deny?: string[]; ask?: string[] };
  /** Default mode unless given (a passthrough then decides by the mode). */
  mode?: "default" | "bypassPermissions";
  note?: string;
}

const corpus: CorpusLine[] = readFileSync(new URL("./corpus.jsonl", import.meta.url), "utf8")
  .split("\n")
  .filter((line) => line.trim() !== "")
  .map((line) => JSON.parse(line) as CorpusLine);

const project = tempDir("warden-pwsh-corpus-");
mkdirSync(join(project, "secret"), { recursive: true });
writeFileSync(join(project, "secret", "key.txt"), "k\n");
writeFileSync(join(project, "README.md"), "# readme\n");

function rules(texts: string[] | undefined, behavior: PermissionBehavior): PermissionRule[] {
  return (texts ?? []).map((text) => {
    const parsed = parseRule(text);
    if (!parsed.ok) throw new Error(parsed.error);
    return { source: "session", behavior, value: parsed.value };
  });
}

function contextFor(line: CorpusLine): ToolPermissionContext {
  return {
    mode: line.mode ?? "default",
    workingDirectories: [project],
    rules: {
      allow: rules(line.rules?.allow, "allow"),
      deny: rules(line.rules?.deny, "deny"),
      ask: rules(line.rules?.ask, "ask"),
    },
    isBypassPermissionsModeAvailable: false,
  };
}

async function outcome(line: CorpusLine): Promise<string> {
  const result = await checkPowerShellPermission({
    command: line.command,
    cwd: project,
    permissionContext: contextFor(line),
  });
  if (result.behavior !== "passthrough") return result.behavior;
  return line.mode === "bypassPermissions" ? "allow" : "ask";
}

describe("the PowerShell corpus", () => {
  it("has at least 60 lines, with attacks among them", () => {
    expect(corpus.length).toBeGreaterThanOrEqual(60);
    expect(corpus.filter((line) => line.expect !== "allow").length).toBeGreaterThan(40);
  });

  for (const line of corpus) {
    const rulesText = line.rules ? ` with ${JSON.stringify(line.rules)}` : "";
    it(`${line.expect}: ${line.command}${rulesText}${line.note ? ` (${line.note})` : ""}`, async () => {
      expect(await outcome(line)).toBe(line.expect);
    });
  }
});

describe("the decision's words", () => {
  it("names the deny rule and the command it met", async () => {
    const line: CorpusLine = { command: "gci; del x", expect: "deny", rules: { deny: ["PowerShell(Remove-Item:*)"] } };
    const result = await checkPowerShellPermission({
      command: line.command,
      cwd: project,
      permissionContext: contextFor(line),
    });
    expect(result.behavior).toBe("deny");
    expect(result.behavior === "deny" && result.message).toContain("PowerShell(Remove-Item:*)");
    expect(result.behavior === "deny" && result.message).toContain("del x");
  });

  it("says why a code runner asks, as a safety check that bypass mode does not skip", async () => {
    const result = await checkPowerShellPermission({
      command: "iex $payload",
      cwd: project,
      permissionContext: { ...contextFor({ command: "", expect: "ask" }), mode: "bypassPermissions" },
    });
    expect(result.behavior).toBe("ask");
    expect(result.decisionReason).toMatchObject({ type: "safetyCheck" });
  });
});
