// The Bash permission corpus (../shared/corpus/bash, beside the clone) through the real
// `warden permissions check --jsonl`: nothing is executed, every line gets one decision.
// Attacks: none may come out allow, every deny entry must be deny. Benign: per-category share
// printed, and every benign `ask` entry must ask.
// Without the corpus the suite skips on a developer's machine, but under CI (CI=true) it fails:
// a CI run that silently skipped the corpus would report the attacks held without trying one.
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import { type CorpusEntry, permissionsInProcess } from "../permissions/check-in-process.js";

const root = fileURLToPath(new URL("../..", import.meta.url));
const corpusFiles = ["attacks.jsonl", "benign.jsonl"];

/**
 * `../shared/corpus/bash` beside the clone; in a git worktree (which lives elsewhere) beside the
 * main checkout too, found through git's common directory (`<main>/.git`).
 */
function corpusCandidates(): string[] {
  const candidates = [join(root, "..", "shared", "corpus", "bash")];
  const git = spawnSync("git", ["rev-parse", "--path-format=absolute", "--git-common-dir"], {
    cwd: root,
    encoding: "utf8",
  });
  const commonDir = git.status === 0 ? git.stdout.trim() : "";
  if (commonDir) candidates.push(join(dirname(resolve(commonDir)), "..", "shared", "corpus", "bash"));
  return [...new Set(candidates)];
}

const searched = corpusCandidates();
const corpusDir = searched.find((dir) => corpusFiles.every((file) => existsSync(join(dir, file))));
const haveCorpus = corpusDir !== undefined;

describe("bash permission corpus", () => {
  it.runIf(process.env.CI === "true")("is present: under CI a missing corpus fails instead of skipping", () => {
    expect(
      corpusDir,
      `CI=true but no ${corpusFiles.join(" and ")} in ${searched.join(" or ")}: the corpus must be checked out as ../shared/corpus/bash beside the repository`,
    ).toBeDefined();
  });
});

interface Decision {
  behavior?: string;
  error?: string;
}

function readCorpus(dir: string, name: string): CorpusEntry[] {
  return readFileSync(join(dir, name), "utf8")
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line) as CorpusEntry);
}

/** Every line through one `warden permissions check --jsonl`, called in process (the command's entry). */
async function runCheck(lines: string[]): Promise<{ code: number | null; decisions: Decision[]; stderr: string }> {
  const home = mkdtempSync(join(tmpdir(), "warden-corpus-home-"));
  const project = mkdtempSync(join(tmpdir(), "warden-corpus-project-"));
  const run = await permissionsInProcess(["check", "--jsonl", "--cwd", project], {
    home,
    cwd: root,
    input: `${lines.join("\n")}\n`,
  });
  return {
    code: run.code,
    stderr: run.stderr,
    decisions: run.stdout
      .split("\n")
      .filter((l) => l.trim() !== "")
      .map((l) => JSON.parse(l) as Decision),
  };
}

describe.runIf(haveCorpus)("bash permission corpus through `warden permissions check --jsonl`", () => {
  const attacks = corpusDir ? readCorpus(corpusDir, "attacks.jsonl") : [];
  const benign = corpusDir ? readCorpus(corpusDir, "benign.jsonl") : [];
  let attackDecisions: Decision[] = [];
  let benignDecisions: Decision[] = [];

  beforeAll(async () => {
    const all = [...attacks, ...benign];
    const result = await runCheck(all.map((entry) => JSON.stringify(entry)));
    expect(result.stderr).toBe("");
    expect(result.decisions).toHaveLength(all.length);
    attackDecisions = result.decisions.slice(0, attacks.length);
    benignDecisions = result.decisions.slice(attacks.length);
  }, 120_000);

  it("answers every line with a decision, never an error", () => {
    for (const decision of [...attackDecisions, ...benignDecisions]) {
      expect(decision.error).toBeUndefined();
      expect(["allow", "ask", "deny"]).toContain(decision.behavior);
    }
  });

  it("lets no attack through and denies every attack that a deny rule recovers", () => {
    const allowed: string[] = [];
    const notDenied: string[] = [];
    const byCategory = new Map<string, { total: number; held: number }>();
    attacks.forEach((entry, i) => {
      const behavior = attackDecisions[i]?.behavior;
      const held = behavior !== "allow" && (entry.expect !== "deny" || behavior === "deny");
      const row = byCategory.get(entry.category) ?? { total: 0, held: 0 };
      row.total += 1;
      if (held) row.held += 1;
      byCategory.set(entry.category, row);
      if (behavior === "allow") allowed.push(`${entry.id}: ${JSON.stringify(entry.command)}`);
      if (entry.expect === "deny" && behavior !== "deny")
        notDenied.push(`${entry.id} -> ${behavior}: ${JSON.stringify(entry.command)}`);
    });
    const held = attacks.length - new Set([...allowed, ...notDenied].map((s) => s.split(/[: ]/)[0])).size;
    process.stdout.write(
      `\nattacks held: ${held}/${attacks.length} (${((100 * held) / attacks.length).toFixed(1)}%)\n`,
    );
    for (const [category, row] of [...byCategory].sort()) {
      process.stdout.write(`  ${category.padEnd(26)} ${row.held}/${row.total}\n`);
    }
    expect(allowed).toEqual([]);
    expect(notDenied).toEqual([]);
  });

  it("matches the benign expectations, and every benign ask entry asks", () => {
    const byCategory = new Map<string, { total: number; matched: number }>();
    const askMisses: string[] = [];
    benign.forEach((entry, i) => {
      const behavior = benignDecisions[i]?.behavior;
      const row = byCategory.get(entry.category) ?? { total: 0, matched: 0 };
      row.total += 1;
      if (behavior === entry.expect) row.matched += 1;
      byCategory.set(entry.category, row);
      if (entry.expect === "ask" && behavior !== "ask")
        askMisses.push(`${entry.id} -> ${behavior}: ${JSON.stringify(entry.command)}`);
    });
    const matched = [...byCategory.values()].reduce((sum, row) => sum + row.matched, 0);
    process.stdout.write(
      `\nbenign as expected: ${matched}/${benign.length} (${((100 * matched) / benign.length).toFixed(1)}%)\n`,
    );
    for (const [category, row] of [...byCategory].sort()) {
      process.stdout.write(
        `  ${category.padEnd(26)} ${row.matched}/${row.total} (${((100 * row.matched) / row.total).toFixed(0)}%)\n`,
      );
    }
    expect(askMisses).toEqual([]);
  });
});
