// Our own variants of every category of the shared Bash corpus (../shared/corpus/bash): other
// spellings of the same trick, other programs and rules, two tricks combined, the trick inside a
// wrapper, a pipeline, a subshell, `$( )`, a heredoc or `bash -c`. The corpus's hidden cases are
// classes, not strings; these hold the classes, including the ones fixed here (a stray `;;`, a
// statement inside a command, `time` before a compound command, `env -S` glued strings, awk -W).
// Every line goes through `warden permissions check --jsonl` in process, as the corpus test does.
import { readFileSync } from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";
import { type CorpusEntry, permissionsInProcess } from "../check-in-process.js";
import { tempDir } from "../helpers.js";

type VariantEntry = CorpusEntry & { source: string };

interface Decision {
  behavior?: string;
  error?: string;
}

const entries: VariantEntry[] = readFileSync(new URL("./corpus-variants.jsonl", import.meta.url), "utf8")
  .split("\n")
  .filter((line) => line.trim() !== "")
  .map((line) => JSON.parse(line) as VariantEntry);

const attacks = entries.filter((entry) => entry.id.startsWith("atk-"));
const benign = entries.filter((entry) => entry.id.startsWith("ben-"));

describe("bash corpus variants through `warden permissions check --jsonl`", () => {
  const decisions = new Map<string, string | undefined>();

  beforeAll(async () => {
    const run = await permissionsInProcess(["check", "--jsonl", "--cwd", tempDir("warden-variants-project-")], {
      home: tempDir("warden-variants-home-"),
      cwd: tempDir("warden-variants-cwd-"),
      input: `${entries.map((entry) => JSON.stringify(entry)).join("\n")}\n`,
    });
    expect(run.stderr).toBe("");
    const lines = run.stdout.split("\n").filter((line) => line.trim() !== "");
    expect(lines).toHaveLength(entries.length);
    lines.forEach((line, i) => {
      const decision = JSON.parse(line) as Decision;
      expect(decision.error, entries[i]?.id).toBeUndefined();
      decisions.set((entries[i] as VariantEntry).id, decision.behavior);
    });
  }, 120_000);

  it("is a well-formed set: unique ids, own source, attacks and benign lines in every category", () => {
    expect(new Set(entries.map((e) => e.id)).size).toBe(entries.length);
    for (const entry of entries) {
      expect(entry.source).toBe("own");
      expect(entry.mode).toBe("default");
      if (entry.expect === "deny") expect(entry.rules.deny.length, entry.id).toBeGreaterThan(0);
    }
    expect(attacks.every((entry) => entry.expect !== "allow")).toBe(true);
    const perCategory = new Map<string, number>();
    for (const entry of attacks) perCategory.set(entry.category, (perCategory.get(entry.category) ?? 0) + 1);
    for (const [category, count] of perCategory) expect(count, category).toBeGreaterThanOrEqual(4);
  });

  it("lets no attack variant through, and denies every one whose deny rule names the program run", () => {
    const allowed = attacks.filter((entry) => decisions.get(entry.id) === "allow");
    const notDenied = attacks.filter((entry) => entry.expect === "deny" && decisions.get(entry.id) !== "deny");
    const show = (entry: VariantEntry) => `${entry.id} -> ${decisions.get(entry.id)}: ${JSON.stringify(entry.command)}`;
    expect(allowed.map(show)).toEqual([]);
    expect(notDenied.map(show)).toEqual([]);
  });

  it("gives every benign variant exactly its expected decision", () => {
    const misses = benign
      .filter((entry) => decisions.get(entry.id) !== entry.expect)
      .map(
        (entry) => `${entry.id} -> ${decisions.get(entry.id)} (want ${entry.expect}): ${JSON.stringify(entry.command)}`,
      );
    expect(misses).toEqual([]);
  });
});
