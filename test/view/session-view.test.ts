// warden view's pages from transcripts the real writer produced: every piece of a session in its
// place (calls with their decisions, hooks, results and diffs; costs; compaction; subagents as
// nested pages), hostile transcript text escaped, and the server's token and Host checks.
import { appendFileSync, mkdirSync, realpathSync } from "node:fs";
import { request } from "node:http";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { transcriptPath } from "../../src/config/paths.js";
import { TranscriptWriter } from "../../src/session/transcript.js";
import { escapeHtml, html } from "../../src/view/html.js";
import { startViewServer, type ViewServer } from "../../src/view/server.js";
import { readSessionView } from "../../src/view/session-model.js";
import { sessionBody } from "../../src/view/session-page.js";
import { tempDir } from "../loop/helpers.js";

const HOSTILE = `<script>window.pwned=1</script><img src=x onerror="alert(1)">`;

const savedHome = process.env.WARDEN_HOME;
let cwd: string;
beforeEach(() => {
  process.env.WARDEN_HOME = tempDir("warden-view-home-");
  cwd = realpathSync(tempDir("warden-view-cwd-"));
});
afterEach(() => {
  process.env.WARDEN_HOME = savedHome;
});

/** A finished session as the real writer leaves it: one of each kind of entry the viewer shows. */
function writeSession(sessionId: string): string {
  const path = transcriptPath(cwd, sessionId);
  const writer = new TranscriptWriter(path, { sessionId, cwd, model: "anthropic:claude-sonnet-4-5" });
  writer.recordMessage({ role: "user", content: [{ type: "text", text: "tidy the notes" }] });
  // Tools start while the reply streams: a call's hook can be written before its assistant line.
  writer.recordEntry({
    type: "hook_outcome",
    hookEvent: "PreToolUse",
    toolName: "Edit",
    toolUseId: "toolu_edit",
    outcomes: [{ hook: "/hooks/early.sh", kind: "success", said: "seen early" }],
  });
  writer.recordMessage({
    role: "assistant",
    model: "claude-sonnet-4-5",
    usage: { input_tokens: 1000, output_tokens: 200 },
    content: [
      { type: "text", text: "Reading the page first." },
      { type: "tool_use", id: "toolu_fetch", name: "Bash", input: { command: "curl example.test" } },
      {
        type: "tool_use",
        id: "toolu_edit",
        name: "Edit",
        input: { file_path: `${cwd}/notes.md`, old_string: "alpha\nbeta\n", new_string: "alpha\ngamma\n" },
      },
      { type: "tool_use", id: "toolu_rm", name: "Bash", input: { command: "rm -rf /" } },
      { type: "tool_use", id: "toolu_agent", name: "Agent", input: { description: "look around", prompt: "go" } },
    ],
  });
  const rule = {
    source: "projectSettings",
    behavior: "allow",
    value: { toolName: "Edit" },
    file: `${cwd}/.warden/settings.json`,
    line: 3,
  };
  writer.recordEntry({
    type: "permission_decision",
    toolName: "Bash",
    toolUseId: "toolu_fetch",
    behavior: "allow",
    decidedBy: "askHandler",
    reason: "approved when asked",
    decision: { behavior: "allow", decisionReason: { type: "other", reason: "approved when asked" } },
    asked: { message: "Warden wants to run curl", reason: "no rule allows curl" },
  });
  writer.recordEntry({
    type: "permission_decision",
    toolName: "Edit",
    toolUseId: "toolu_edit",
    behavior: "allow",
    decidedBy: "engine",
    reason: "rule Edit (allow rule from project settings)",
    decision: { behavior: "allow", decisionReason: { type: "rule", rule } },
  });
  writer.recordEntry({
    type: "hook_outcome",
    hookEvent: "PreToolUse",
    toolName: "Bash",
    toolUseId: "toolu_rm",
    outcomes: [{ hook: "/hooks/guard.sh", kind: "blocking", said: "never rm -rf /" }],
  });
  writer.recordEntry({
    type: "permission_decision",
    toolName: "Bash",
    toolUseId: "toolu_rm",
    behavior: "deny",
    decidedBy: "hook",
    reason: "hook /hooks/guard.sh: never rm -rf /",
    decision: {
      behavior: "deny",
      message: "blocked by a hook",
      decisionReason: { type: "hook", hookName: "/hooks/guard.sh" },
    },
  });
  writer.recordMessage({
    role: "user",
    content: [
      { type: "tool_result", tool_use_id: "toolu_fetch", content: HOSTILE },
      { type: "tool_result", tool_use_id: "toolu_edit", content: "edited notes.md" },
      { type: "tool_result", tool_use_id: "toolu_rm", content: "blocked by a hook", is_error: true },
      { type: "tool_result", tool_use_id: "toolu_agent", content: "the subagent looked" },
    ],
  });
  writer.recordEntry({
    type: "compact_boundary",
    trigger: "auto",
    preTokens: 150000,
    postTokens: 9000,
    loadedDeferredTools: [],
  });
  writer.recordMessage({
    role: "user",
    content: [{ type: "text", text: "Summary of the conversation so far" }],
    isMeta: true,
  });
  writer.recordEntry({
    type: "result",
    reason: "completed",
    turnCount: 2,
    usage: { input_tokens: 1000, output_tokens: 200 },
  });
  writer.close();
  // The Agent call's subagent, as loop/subagent/child.ts writes it beside the session.
  const sidechain = new TranscriptWriter(join(path.slice(0, -".jsonl".length), "subagents", "a0f1.jsonl"), {
    sessionId,
    cwd,
    model: "anthropic:claude-haiku-4-5",
    agentId: "a0f1",
  });
  sidechain.recordEntry({
    type: "agent",
    agentId: "a0f1",
    agentType: "Explore",
    description: "look around",
    parentToolUseId: "toolu_agent",
    background: false,
    fork: false,
  });
  sidechain.recordMessage({ role: "user", content: [{ type: "text", text: "go" }] });
  sidechain.recordMessage({ role: "assistant", content: [{ type: "text", text: "the subagent's own words" }] });
  sidechain.recordEntry({ type: "agent_result", agentId: "a0f1", reason: "completed" });
  sidechain.close();
  return path;
}

describe("a session's page", () => {
  it("shows each call with its decision, hook, result and diff, costs, compaction and the subagent", () => {
    const path = writeSession("s-whole");
    const view = readSessionView(path, path.slice(0, -".jsonl".length));
    const body = sessionBody(view, { agent: (id) => `/s/s-whole/a/${id}` }).text;
    // Allowed by which rule (and from which file), asked and answered how, denied by what.
    expect(body).toContain("rule Edit (allow rule from project settings)");
    expect(body).toContain(escapeHtml(`${cwd}/.warden/settings.json:3`));
    expect(body).toContain("asked because no rule allows curl: Warden wants to run curl");
    expect(body).toMatch(/badge allow">allow<\/span>\s*<span>when asked: approved when asked<\/span>/);
    expect(body).toMatch(/badge deny">deny<\/span>\s*<span>by a hook: hook \/hooks\/guard.sh: never rm -rf \/<\/span>/);
    // The hook and what it said.
    expect(body).toContain("hook PreToolUse");
    expect(body).toContain("never rm -rf /");
    // The edit as a diff: the changed line out, the new one in, the unchanged one kept.
    expect(body).toContain('<div class="del">- beta</div>');
    expect(body).toContain('<div class="add">+ gamma</div>');
    expect(body).toContain('<div class="">  alpha</div>');
    // Tokens and cost of the turn at Sonnet's price: 1000 × $3/M + 200 × $15/M = $0.0060.
    expect(body).toContain("1000 in · 200 out · $0.0060");
    expect(body).toContain("conversation compacted (auto): 150000 → 9000 tokens");
    expect(body).toContain('href="/s/s-whole/a/a0f1"');
    expect(body).toContain("Explore: look around");
    expect(view.otherAgents).toEqual([]);
    const editCall = view.items
      .flatMap((i) => (i.kind === "assistant" ? i.calls : []))
      .find((c) => c.id === "toolu_edit");
    expect(editCall?.hooks).toEqual([
      { event: "PreToolUse", outcomes: [expect.objectContaining({ said: "seen early" })] },
    ]);
    expect(view.items.filter((i) => i.kind === "hook" || i.kind === "decision")).toEqual([]);
    const sub = readSessionView(join(path.slice(0, -".jsonl".length), "subagents", "a0f1.jsonl"), undefined);
    expect(sessionBody(sub, { agent: () => "" }).text).toContain("the subagent&#39;s own words");
  });

  it("escapes a hostile tool result instead of running it", () => {
    const path = writeSession("s-hostile");
    const body = sessionBody(readSessionView(path, undefined), { agent: () => "" }).text;
    expect(body).not.toContain("<script>window.pwned");
    expect(body).not.toContain("<img src=x");
    expect(body).toContain(escapeHtml(HOSTILE));
  });

  it("escapes every interpolated value, attributes included", () => {
    expect(html`<a title="${`"><script>x</script>`}">${"<b>"}</a>`.text).toBe(
      '<a title="&quot;&gt;&lt;script&gt;x&lt;/script&gt;">&lt;b&gt;</a>',
    );
  });

  it("says which lines are damaged and keeps reading after them", () => {
    const path = writeSession("s-damaged");
    appendFileSync(path, "{not json\n");
    appendFileSync(
      path,
      `${JSON.stringify({ type: "user", uuid: "u", message: { role: "user", content: [{ type: "text", text: "after the damage" }] } })}\n`,
    );
    const view = readSessionView(path, undefined);
    expect(view.warnings).toEqual([expect.stringMatching(/^line \d+ is not valid JSON/)]);
    expect(view.items.at(-1)).toMatchObject({ kind: "user", text: "after the damage" });
  });
});

function get(
  url: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: string; cookie?: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers }, (res) => {
      let body = "";
      res.setEncoding("utf8").on("data", (c: string) => {
        body += c;
      });
      res.on("end", () =>
        resolve({ status: res.statusCode ?? 0, body, cookie: res.headers["set-cookie"]?.[0]?.split(";")[0] }),
      );
    });
    req.on("error", reject);
    req.end();
  });
}

describe("the view server", () => {
  let server: ViewServer;
  afterEach(async () => {
    await server?.close();
  });

  it("answers only with the token, only to a local Host, and then by cookie", async () => {
    writeSession("s-served");
    server = await startViewServer({ cwd });
    const base = `http://127.0.0.1:${server.port}`;
    expect((await get(`${base}/s/s-served`)).status).toBe(403);
    expect((await get(`${base}/s/s-served?token=wrong`)).status).toBe(403);
    expect((await get(`${base}/`)).status).toBe(403);
    // DNS rebinding: a page of evil.test resolving to 127.0.0.1 sends its own host name.
    expect((await get(server.urlFor("s-served"), { host: `evil.test:${server.port}` })).status).toBe(403);
    const first = await get(server.urlFor("s-served"));
    expect(first.status).toBe(200);
    expect(first.body).toContain("tidy the notes");
    expect(first.cookie).toBe(`warden_token_${server.port}=${server.token}`);
    const byCookie = await get(`${base}/s/s-served/a/a0f1`, { cookie: first.cookie ?? "" });
    expect(byCookie.status).toBe(200);
    expect(byCookie.body).toContain("the subagent&#39;s own words");
    const list = await get(server.urlFor());
    expect(list.body).toContain('href="/s/s-served"');
    expect((await get(`${base}/s/..%2F..%2Fetc%2Fpasswd?token=${server.token}`)).status).toBe(404);
    expect((await get(`${base}/s/s-served/a/..?token=${server.token}`)).status).toBe(404);
  });

  it("reports a new stamp when the transcript grows", async () => {
    const path = writeSession("s-live");
    server = await startViewServer({ cwd });
    const stampUrl = `http://127.0.0.1:${server.port}/s/s-live/stamp?token=${server.token}`;
    const before = JSON.parse((await get(stampUrl)).body) as { stamp: string };
    expect(JSON.parse((await get(stampUrl)).body)).toEqual(before);
    mkdirSync(join(path.slice(0, -".jsonl".length)), { recursive: true });
    appendFileSync(path, `${JSON.stringify({ type: "resume", timestamp: new Date().toISOString() })}\n`);
    expect(JSON.parse((await get(stampUrl)).body)).not.toEqual(before);
  });
});
