// The unit tier (test/tiers.ts) is the one a developer runs on every change: it must not start the
// CLI, a terminal, the Agent SDK, Redis, an MCP server or a language server. A test file that does
// belongs to the integration or heavy tier; this check names any that landed in the unit tier.
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import picomatch from "picomatch";
import { describe, expect, it } from "vitest";
import { REPO_ROOT } from "../helpers/built.js";
import { HEAVY_TESTS, INTEGRATION_TESTS } from "../tiers.js";

/** What in a test file's text starts a process of the other tiers' kind, and what it starts. */
const PROCESS_MARKERS: ReadonlyArray<[RegExp, string]> = [
  [/from "[./]*\/?(cli\/)?(run-cli|scripted-cli)\.js"/, "the CLI"],
  [/\bBUILT_CLI\b|dist\/cli\.js|bin\/warden\.js/, "the built CLI"],
  [/helpers\/(tmux|tui-project)\.js/, "tmux"],
  [/sdk-harness\.js|@anthropic-ai\/claude-agent-sdk/, "the Agent SDK"],
  [/helpers\/redis-server\.js|fleet\/harness\.js/, "Redis"],
  [/\b(stdioServerConfig|startHttpFixture)\b/, "an MCP server"],
  [/\b(LspService|chooseLspServers)\b/, "a language server"],
  [/acp\/editor-client\.js|@agentclientprotocol\/sdk/, "an ACP editor"],
];

function testFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: "utf8" })
    .filter((name) => name.endsWith(".test.ts") && !name.includes("fixtures/"))
    .map((name) => relative(REPO_ROOT, join(dir, name)));
}

describe("the test tiers", () => {
  const inOtherTier = picomatch([...INTEGRATION_TESTS, ...HEAVY_TESTS]);
  const unitFiles = testFiles(join(REPO_ROOT, "test")).filter((file) => !inOtherTier(file));

  it("keep the unit tier in process: no unit test starts the CLI or a server", () => {
    const misfiled: string[] = [];
    for (const file of unitFiles) {
      const text = readFileSync(join(REPO_ROOT, file), "utf8");
      for (const [marker, what] of PROCESS_MARKERS) {
        if (marker.test(text)) misfiled.push(`${file} starts ${what}`);
      }
    }
    // This very file names the markers; it starts none of them.
    expect(misfiled.filter((line) => !line.startsWith("test/architecture/test-tiers.test.ts"))).toEqual([]);
  });

  it("spawn no TypeScript through tsx in any tier: the built CLI or a compiled fixture instead", () => {
    // A spawn under tsx costs ~1-2 s of compiling; the global setups build dist/ and test/.build/.
    const throughTsx =
      /["']--import["'],\s*["']tsx\b|["']--(loader|require)["'],\s*["']tsx\b|node_modules\/\.bin\/tsx\b/;
    // Helpers and fixtures too, not only the test files.
    const sources = readdirSync(join(REPO_ROOT, "test"), { recursive: true, encoding: "utf8" })
      .filter((name) => name.endsWith(".ts") && !name.startsWith(".build"))
      .map((name) => `test/${name}`);
    const offenders = sources.filter(
      (file) =>
        file !== "test/architecture/test-tiers.test.ts" && throughTsx.test(readFileSync(join(REPO_ROOT, file), "utf8")),
    );
    expect(offenders).toEqual([]);
  });

  it("list only files that exist, so a renamed test does not fall back into the unit tier unseen", () => {
    const all = testFiles(join(REPO_ROOT, "test"));
    const unmatched = [...INTEGRATION_TESTS, ...HEAVY_TESTS].filter((glob) => {
      const matches = picomatch(glob);
      return !all.some((file) => matches(file));
    });
    expect(unmatched).toEqual([]);
  });

  it("leave most of the suite in the unit tier", () => {
    expect(unitFiles.length).toBeGreaterThan(80);
  });
});
