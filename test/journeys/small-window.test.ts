// Journey: a long session on a local model's small window (32k tokens, set in the user's settings
// as a person with a local server would), headless through the built CLI. The model reads the
// project's long notes before fixing the bug, the window fills and the session compacts itself,
// then goes on: it reads the code again, fixes it, runs the tests, tries an edit its rules do not
// allow; the person then resumes the session. The model is a scripted server on 127.0.0.1 that
// reports each request's real size (its JSON characters / 4) as usage, so the compaction fires
// from real figures. What is checked: what the model was sent after the compaction (the summary,
// what was put back, the content of a file it reads again), that it compacted once, the
// permission engine's decisions afterwards, the repository, and the resumed session.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { jsonLines, runCli } from "../cli/run-cli.js";
import { type RecordedRequest, reply } from "../helpers/scripted-model-server.js";
import { scriptedModelServerFixture } from "../helpers/scripted-server-fixture.js";
import { tempDir } from "../loop/helpers.js";
import { bugRepo, changedLines, git, TEST_COMMAND, testsPass } from "./helpers/bug-repo.js";

const server = scriptedModelServerFixture("file");

const WINDOW = 32_768;
type Line = Record<string, unknown>;

/** A long notes file: distinct lines, about `tokens` tokens, with a marker line to find it by. */
function notes(title: string, tokens: number): string {
  const lines = [`# ${title}`, "", `MARKER-${title.toUpperCase().replace(/\W+/g, "-")}`];
  for (let i = 1; lines.join("\n").length < tokens * 4; i++) {
    lines.push(`${i}. ${title}: the sum module keeps its arithmetic plain and its tests small (${i}).`);
  }
  return `${lines.join("\n")}\n`;
}

/** The project plus three long notes files, committed. */
function notedRepo(): string {
  const cwd = bugRepo("warden-journey-window-");
  for (const name of ["design", "history", "conventions"])
    writeFileSync(join(cwd, `docs-${name}.md`), notes(name, 6_000));
  git(cwd, "add", "-A");
  git(cwd, "-c", "user.name=Journey", "-c", "user.email=journey@example.com", "commit", "-qm", "notes");
  return cwd;
}

const messagesOf = (request: RecordedRequest) =>
  (request.body as { messages?: Array<{ role: string; content: unknown }> }).messages ?? [];
const isSummaryRequest = (request: RecordedRequest) => request.rawBody.includes("Your context window is nearly full");
const startsFromSummary = (request: RecordedRequest) =>
  JSON.stringify(messagesOf(request)[0]).includes("This session continues an earlier conversation");
/** The request's size as the server counts it: its JSON characters / 4. */
const tokensOf = (request: RecordedRequest) => Math.ceil(request.rawBody.length / 4);

/** The text of the tool result for `id` in a request's messages. */
function resultIn(request: RecordedRequest, id: string): string | undefined {
  for (const message of messagesOf(request)) {
    if (!Array.isArray(message.content)) continue;
    for (const block of message.content as Array<{ type: string; tool_use_id?: string; content?: unknown }>) {
      if (block.type === "tool_result" && block.tool_use_id === id)
        return typeof block.content === "string" ? block.content : JSON.stringify(block.content);
    }
  }
  return undefined;
}

/**
 * The model: each ordinary request takes the next move; a summary request is answered with the
 * summary wherever it comes. Every reply reports the request's real size as its input tokens.
 */
function playModel(moves: Array<(request: RecordedRequest) => ReturnType<typeof reply>>, summary: string): void {
  let next = 0;
  server.respondWith((request) => {
    const usage = { input: tokensOf(request), output: 40 };
    if (isSummaryRequest(request)) return reply().text(summary).usage(usage);
    const move = moves[next++];
    if (!move) throw new Error(`the scripted model has no move left for request ${request.seq}`);
    return move(request).usage(usage);
  });
}

const SUMMARY = [
  "1. User requests: fix the failing sum test after reading the project's notes.",
  "2. Decisions: the bug is in src/sum.js (it subtracts).",
  "3. Files: src/sum.js (sum returns a - b; must return a + b), test/sum.test.js, docs-*.md (notes).",
  "4. Errors: `node --test test/` fails: sum(2, 3) is -1, expected 5.",
  "5. Pending work: fix src/sum.js, run the tests.",
  "6. Next step: read src/sum.js again and change `return a - b;` to `return a + b;`.",
].join("\n");

describe("journey: a long session on a small window compacts and carries on", () => {
  it("compacts once when the window fills, re-reads, fixes under its rules, and resumes from the summary", async () => {
    const cwd = notedRepo();
    const home = tempDir("warden-journey-home-");
    // The person's local model has a 32k window: said once in their user settings.
    writeFileSync(
      join(home, "settings.json"),
      JSON.stringify({ models: { "anthropic:claude-test": { contextWindow: WINDOW, maxOutputTokens: 8_192 } } }),
    );
    const env = { ANTHROPIC_API_KEY: "test", ANTHROPIC_BASE_URL: server.anthropicBaseURL };
    const base = ["--model", "anthropic:claude-test", "--output-format", "stream-json", "--verbose"];
    const rules = ["--allowedTools", "Edit(./src/**)", `Bash(${TEST_COMMAND})`];

    let afterCompaction: RecordedRequest | undefined;
    playModel(
      [
        () => reply().text("Reading the code and its test first.").tool("Glob", { pattern: "**/*" }, { id: "w1" }),
        () =>
          reply()
            .tool("Read", { file_path: join(cwd, "src/sum.js") }, { id: "w2" })
            .tool("Read", { file_path: join(cwd, "test/sum.test.js") }, { id: "w3" }),
        () => reply().text("Running the tests.").tool("Bash", { command: TEST_COMMAND }, { id: "w4" }),
        () =>
          reply()
            .text("Now the notes, as asked.")
            .tool("Read", { file_path: join(cwd, "docs-design.md") }, { id: "w5" })
            .tool("Read", { file_path: join(cwd, "docs-history.md") }, { id: "w6" })
            .tool("Read", { file_path: join(cwd, "docs-conventions.md") }, { id: "w7" }),
        // The window filled here: this request comes after the compaction.
        (request) => {
          afterCompaction = request;
          return reply()
            .text("Reading the code again.")
            .tool("Read", { file_path: join(cwd, "src/sum.js") }, { id: "w8" });
        },
        () =>
          reply().tool(
            "Edit",
            { file_path: join(cwd, "src/sum.js"), old_string: "return a - b;", new_string: "return a + b;" },
            { id: "w9" },
          ),
        () => reply().tool("Bash", { command: TEST_COMMAND }, { id: "w10" }),
        () =>
          reply()
            .text("Committing the fix.")
            .tool("Bash", { command: "git commit -am 'Fix sum'", description: "Commit the fix" }, { id: "w11" }),
        () => reply().text("Fixed: sum adds and the test passes. The commit is yours to make."),
      ],
      SUMMARY,
    );
    const first = server.requests.length;
    const run = await runCli(["-p", "Read the notes, then fix the failing sum test.", ...base, ...rules], {
      home,
      processCwd: cwd,
      env,
    });
    expect(run.code, run.stderr).toBe(0);
    const requests = server.requests.slice(first);
    const lines = jsonLines(run.stdout);

    // One compaction, automatic, when the window filled (not before: the notes came last).
    const boundaries = lines.filter((l) => l.type === "system" && l.subtype === "compact_boundary");
    expect(boundaries).toHaveLength(1);
    expect(boundaries[0]).toMatchObject({ compact_metadata: { trigger: "auto" } });
    const summaryRequests = requests.filter(isSummaryRequest);
    expect(summaryRequests).toHaveLength(1);
    expect(requests.indexOf(summaryRequests[0] as RecordedRequest)).toBe(4);
    // The summary was written from the whole conversation: the failing run and the notes.
    expect(summaryRequests[0]?.rawBody).toContain("not ok 1 - sum adds");
    expect(summaryRequests[0]?.rawBody).toContain("MARKER-CONVENTIONS");
    // No request ever passed the window.
    for (const request of requests) expect(tokensOf(request)).toBeLessThan(WINDOW);

    // After it: the summary reaches the model, first; the notes' full text is gone, and what was
    // put back leaves room to work (under half the window).
    const after = afterCompaction as RecordedRequest;
    expect(after).toBeDefined();
    expect(startsFromSummary(after)).toBe(true);
    expect(after.rawBody).toContain("Next step: read src/sum.js again");
    expect(after.rawBody).not.toContain("MARKER-DESIGN");
    expect(tokensOf(after)).toBeLessThan(WINDOW / 2);

    // The file read before the compaction, read again: its content comes back (the earlier result
    // is gone from the conversation, so "unchanged since last read" would leave the model blind).
    const lastRequest = requests.at(-1) as RecordedRequest;
    expect(resultIn(lastRequest, "w8")).toContain("return a - b;");
    // The permission engine still decides: the rule lets the source edit and the tests through,
    // and the commit (no rule for it; -p cannot ask) is refused.
    expect(resultIn(lastRequest, "w9")).toMatch(/updated/i);
    expect(resultIn(lastRequest, "w10")).toContain("pass 1");
    const result = lines.at(-1) as Line;
    expect(result).toMatchObject({ type: "result", subtype: "success" });
    expect(result.permission_denials).toEqual([expect.objectContaining({ tool_name: "Bash", tool_use_id: "w11" })]);
    expect(testsPass(cwd)).toBe(true);
    expect(changedLines(cwd)).toEqual(["-  return a - b;", "+  return a + b;"]);

    // The person resumes the session: the model is sent the summary and what followed it, not the
    // conversation before the compaction.
    playModel([() => reply().text("Yes: the sum test passes since the fix.")], SUMMARY);
    const resumedAt = server.requests.length;
    const resumed = await runCli(
      ["--resume", String(result.session_id), "-p", "Is the test passing now?", ...base, ...rules],
      { home, processCwd: cwd, env },
    );
    expect(resumed.code, resumed.stderr).toBe(0);
    const again = server.requests[resumedAt] as RecordedRequest;
    expect(startsFromSummary(again)).toBe(true);
    expect(again.rawBody).toContain("return a + b;");
    expect(again.rawBody).toContain("Is the test passing now?");
    expect(again.rawBody).not.toContain("Read the notes, then fix the failing sum test.");
    expect(again.rawBody).not.toContain("MARKER-DESIGN");
    expect(jsonLines(resumed.stdout).at(-1)).toMatchObject({
      type: "result",
      subtype: "success",
      session_id: result.session_id,
      result: "Yes: the sum test passes since the fix.",
    });
  }, 60_000);
});
