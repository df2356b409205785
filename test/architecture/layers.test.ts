// The layer order of docs/architecture.md, enforced: dependency-cruiser checks every import of
// src/ (type-only ones, re-exports and dynamic import() included) against .dependency-cruiser.cjs,
// and this test also refuses two folders of src/ that import each other.
// Run the same check by hand: `npx depcruise src` (add `--output-type err` for the short list).
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("../..", import.meta.url));
const depcruiseBin = join(root, "node_modules/dependency-cruiser/bin/dependency-cruise.mjs");
const ruleFile = join(root, ".dependency-cruiser.cjs");

interface CruiseDependency {
  resolved: string;
  dependencyTypes: string[];
  dynamic: boolean;
}

interface CruiseOutput {
  modules: Array<{ source: string; dependencies: CruiseDependency[] }>;
  summary: {
    violations: Array<{ from: string; to: string; rule: { name: string }; cycle?: Array<{ name: string }> }>;
  };
}

/** Runs dependency-cruiser with the project's rule file over `src` of `cwd` (the repository by default). */
function cruise(cwd = root): CruiseOutput {
  const run = spawnSync(process.execPath, [depcruiseBin, "src", "--config", ruleFile, "--output-type", "json"], {
    cwd,
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
  });
  if (!run.stdout.trim()) throw new Error(`dependency-cruiser gave no output (exit ${run.status}):\n${run.stderr}`);
  return JSON.parse(run.stdout) as CruiseOutput;
}

/** One line per broken rule: `rule: from → to` (a cycle lists its modules). */
function describeViolations(output: CruiseOutput): string[] {
  return output.summary.violations.map((v) => {
    const path = v.cycle?.length ? [v.from, ...v.cycle.map((step) => step.name)] : [v.from, v.to];
    return `${v.rule.name}: ${path.join(" → ")}`;
  });
}

/** The top-level folder of src/ a module is in (src/index.ts and the like belong to none). */
function layerOf(path: string): string | undefined {
  return /^src\/([^/]+)\//.exec(path)?.[1];
}

/**
 * Groups of top-level folders of src/ that reach each other through their imports (shell →
 * permissions → shell), which no single file needs to close: each group as its folders, then one
 * import for each step between them.
 */
function folderCycles(output: CruiseOutput): string[] {
  const edges = new Map<string, Map<string, string>>();
  for (const module of output.modules) {
    const from = layerOf(module.source);
    if (!from) continue;
    for (const dependency of module.dependencies) {
      const to = layerOf(dependency.resolved);
      if (!to || to === from) continue;
      const targets = edges.get(from) ?? new Map<string, string>();
      if (!targets.has(to)) targets.set(to, `${module.source} → ${dependency.resolved}`);
      edges.set(from, targets);
    }
  }
  const reaches = (from: string): Set<string> => {
    const seen = new Set<string>();
    const stack = [from];
    while (stack.length) {
      for (const next of edges.get(stack.pop() as string)?.keys() ?? []) {
        if (!seen.has(next)) {
          seen.add(next);
          stack.push(next);
        }
      }
    }
    return seen;
  };
  const reachable = new Map([...edges.keys()].map((layer) => [layer, reaches(layer)]));
  const groups = new Set<string>();
  for (const [layer, reached] of reachable) {
    if (!reached.has(layer)) continue;
    const group = [...reached].filter((other) => reachable.get(other)?.has(layer)).sort();
    const steps = group.flatMap((from) =>
      [...(edges.get(from) ?? [])].filter(([to]) => group.includes(to)).map(([, example]) => example),
    );
    groups.add(`${group.join(" ⇄ ")} (${steps.join("; ")})`);
  }
  return [...groups].sort();
}

describe("src/", () => {
  let output: CruiseOutput;
  // dependency-cruiser walks all of src/ (~800 files): ~10 s alone, several times that on a loaded machine.
  beforeAll(() => {
    output = cruise();
  }, 180_000);

  it("keeps the layer order: no import breaks a rule of .dependency-cruiser.cjs", () => {
    expect(describeViolations(output)).toEqual([]);
  });

  it("has no two folders that import each other", () => {
    expect(folderCycles(output)).toEqual([]);
  });

  it("was checked whole (every module under src/, type-only imports among the edges)", () => {
    const sources = output.modules.map((m) => m.source).filter((s) => s.startsWith("src/"));
    expect(sources).toContain("src/index.ts");
    expect(sources).toContain("src/cli/main.ts");
    expect(sources.length).toBeGreaterThan(150);
    const typeOnly = output.modules
      .flatMap((m) => m.dependencies)
      .filter((d) => d.dependencyTypes.includes("type-only"));
    expect(typeOnly.length).toBeGreaterThan(0);
  });
});

/** Each layer's allowed imports as the rule file states them (the `layer-*` rules' pathNot). */
function layerTableOfRuleFile(): Map<string, string[]> {
  const config = createRequire(import.meta.url)(ruleFile) as {
    forbidden: Array<{ name: string; from: { path?: string }; to: { pathNot?: string } }>;
  };
  const table = new Map<string, string[]>();
  for (const rule of config.forbidden) {
    const layer = /^layer-(.+)$/.exec(rule.name)?.[1];
    const allowed = /^\^src\/\((.+)\)\/$/.exec(rule.to.pathNot ?? "")?.[1];
    if (!layer || layer === "unknown" || !allowed) continue;
    table.set(
      layer,
      allowed
        .split("|")
        .filter((l) => l !== layer)
        .sort(),
    );
  }
  return table;
}

/** The rows of the layer table in docs/architecture.md: `| \`layer/\` | what | may import |`. */
function layerTableOfDocs(): Map<string, string[] | "everything"> {
  const docs = readFileSync(join(root, "docs/architecture.md"), "utf8");
  const table = new Map<string, string[] | "everything">();
  for (const line of docs.split("\n")) {
    const row = /^\| `([a-z-]+)\/` \|.*\| ([^|]*) \|$/.exec(line);
    if (!row) continue;
    const cell = (row[2] as string).trim();
    table.set(row[1] as string, cell === "everything" ? "everything" : cell === "—" ? [] : cell.split(/,\s*/).sort());
  }
  return table;
}

describe("src/cli/", () => {
  it("keeps its files in folders: at most a dozen loose at its root", () => {
    const loose = readdirSync(join(root, "src/cli"), { withFileTypes: true }).filter((e) => e.isFile());
    expect(loose.length).toBeGreaterThan(0);
    expect(loose.length, loose.map((e) => e.name).join(", ")).toBeLessThanOrEqual(12);
  });
});

describe("docs/architecture.md", () => {
  it("names only files and folders of src/ that exist (a move must update the walk-through)", () => {
    const docs = readFileSync(join(root, "docs/architecture.md"), "utf8");
    const layers = new Set(
      readdirSync(join(root, "src"), { withFileTypes: true })
        .filter((e) => e.isDirectory())
        .map((e) => e.name),
    );
    const named = [...docs.matchAll(/`([a-z][a-z0-9-]*\/[a-z0-9/._<>-]*)`/g)]
      .map((match) => match[1] as string)
      // Paths start at src/ (`loop/query.ts`); a pattern such as `tools/<name>/tool.ts` is not a path.
      .filter((path) => layers.has(path.split("/")[0] as string) && !path.includes("<"));
    expect(named.length).toBeGreaterThan(30);
    expect(named.filter((path) => !existsSync(join(root, "src", path)))).toEqual([]);
  });

  it("states the same layer table as the rule file", () => {
    const docs = layerTableOfDocs();
    const rules = layerTableOfRuleFile();
    expect(rules.size).toBeGreaterThan(10);
    const layersWithRules = [...rules.keys()].sort();
    // The CLI may import everything, so it has no layer-cli rule; every other row must match.
    expect([...docs.keys()].filter((layer) => docs.get(layer) !== "everything").sort()).toEqual(layersWithRules);
    for (const [layer, allowed] of rules) expect(docs.get(layer), `the row of ${layer}/`).toEqual(allowed);
    // Read bottom-up, each row names only rows above it: the order the file promises its reader.
    const order = [...docs.keys()];
    for (const [layer, allowed] of docs) {
      if (allowed === "everything") continue;
      const below = allowed.filter((other) => order.indexOf(other) > order.indexOf(layer) || !order.includes(other));
      expect(below, `${layer}/ names layers that are not above it in the table`).toEqual([]);
    }
  });
});

describe("the layer check", () => {
  // A tree built to break each rule once shows the check can fail, and names what it found.
  let broken: CruiseOutput;
  let found: string[];
  beforeAll(() => {
    broken = cruise(join(root, "test/architecture/fixtures/broken-layers"));
    found = describeViolations(broken);
  });

  it.each([
    ["hooks-not-loop", "src/hooks/session-hooks.ts → src/loop/events.ts"], // a type-only import
    ["tools-not-loop-or-cli", "src/tools/demo/tool.ts → src/loop/events.ts"],
    ["tools-not-loop-or-cli", "src/tools/demo/tool.ts → src/cli/main.ts"],
    ["contract-not-concrete-tools", "src/tool/types.ts → src/tools/demo/tool.ts"],
    ["providers-not-tools-or-permissions", "src/providers/request.ts → src/permissions/rules.ts"], // a re-export
    ["shell-permissions-not-loop", "src/shell/analyze.ts → src/loop/events.ts"], // a dynamic import()
    ["no-cycles", "src/shell/brace-expansion.ts → src/shell/word-tokens.ts → src/shell/brace-expansion.ts"],
    ["layer-orchestration", "src/orchestration/run.ts → src/loop/events.ts"],
    ["layer-unknown", "src/extras/new-folder.ts → src/messages/types.ts"],
    ["cli-interactive", "src/cli/interactive/run.ts → src/cli/acp/server.ts"],
    ["cli-headless", "src/cli/headless/output.ts → src/cli/interactive/run.ts"],
  ])("reports %s: %s", (rule, path) => {
    expect(found).toContain(`${rule}: ${path}`);
  });

  it("reports two folders that import each other", () => {
    expect(folderCycles(broken)).toContain(
      "loop ⇄ orchestration (src/loop/driver.ts → src/orchestration/run.ts; src/orchestration/run.ts → src/loop/events.ts)",
    );
  });
});
