// WebFetch in real headless sessions: pages served by an HTTP server on 127.0.0.1, the real CLI,
// and a scripted model (the Anthropic wire protocol on 127.0.0.1, or a replay script). The page is
// converted to markdown and read by the small model with the prompt; a redirect to another host is
// returned, not followed; a local address is not fetched without a rule naming it; short markdown
// comes back whole; binary content is refused; a page is fetched once per 15 minutes.
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type CliRun, jsonLines, runCli } from "../../cli/run-cli.js";
import {
  reply,
  replyFrom,
  type ScriptedModelServer,
  startScriptedModelServer,
} from "../../helpers/scripted-model-server.js";
import { GUIDE_HTML, type PageServer, startPageServer } from "./page-server.js";

let dir: string;
let pages: PageServer;
/** A second server, reached as `localhost`: another host than 127.0.0.1 for the redirect. */
let elsewhere: PageServer;
let model: ScriptedModelServer;

const README_MD = "# Widget\n\nA tiny library. Install with `npm install widget`.\n";

beforeAll(async () => {
  dir = realpathSync(mkdtempSync(join(tmpdir(), "warden-webfetch-")));
  mkdirSync(join(dir, "project"));
  elsewhere = await startPageServer({ "/target": { body: "<p>elsewhere</p>" } });
  pages = await startPageServer({
    "/guide": { body: GUIDE_HTML },
    "/readme.md": { headers: { "content-type": "text/markdown; charset=utf-8" }, body: README_MD },
    "/logo.png": { headers: { "content-type": "image/png" }, body: Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 0]) },
    "/away": { status: 302, headers: { location: `http://localhost:${elsewhere.port}/target` } },
    "/moved": { status: 301, headers: { location: "/readme.md" } },
  });
  model = await startScriptedModelServer();
});

afterAll(async () => {
  await Promise.all([pages?.close(), elsewhere?.close(), model?.close()]);
  if (dir) rmSync(dir, { recursive: true, force: true });
});

function toolResults(run: CliRun): Map<string, { content: string; is_error?: boolean }> {
  const results = new Map<string, { content: string; is_error?: boolean }>();
  for (const line of jsonLines(run.stdout)) {
    if (line.type !== "user") continue;
    const content = (line.message as { content: Array<Record<string, unknown>> }).content;
    for (const block of content) {
      if (block.type !== "tool_result") continue;
      const text =
        typeof block.content === "string"
          ? block.content
          : (block.content as Array<{ text?: string }>).map((part) => part.text ?? "").join("");
      results.set(String(block.tool_use_id), { content: text, is_error: block.is_error === true });
    }
  }
  return results;
}

function resultLine(run: CliRun): Record<string, unknown> {
  const line = jsonLines(run.stdout).find((l) => l.type === "result");
  if (!line) throw new Error(`no result line\n${run.stdout}\n${run.stderr}`);
  return line;
}

function writeScript(name: string, turns: unknown[]): string {
  const file = join(dir, name);
  writeFileSync(file, `${turns.map((turn) => JSON.stringify(turn)).join("\n")}\n`);
  return file;
}

const fetchCall = (id: string, url: string, prompt = "What does the page say?") => ({
  type: "tool_use",
  id,
  name: "WebFetch",
  input: { url, prompt },
});

async function headless(args: string[], home: string, env: Record<string, string> = {}): Promise<CliRun> {
  const run = await runCli(
    ["-p", "Read the docs", "--output-format", "stream-json", "--cwd", join(dir, "project"), ...args],
    {
      home: join(dir, home),
      env: { WARDEN_MANAGED_SETTINGS: join(dir, "no-policy.json"), ...env },
    },
  );
  expect(run.code, `exit ${run.code}\n${run.stderr}`).toBe(0);
  return run;
}

describe("WebFetch with a scripted Anthropic model", () => {
  it("converts the page to markdown, has the small model read it for the prompt, and counts its cost", async () => {
    let sideRequest: Record<string, unknown> | undefined;
    model.enqueue(
      reply().tool(
        "WebFetch",
        { url: `${pages.origin}/guide`, prompt: "How do I install widgets?" },
        { id: "toolu_fetch" },
      ),
      replyFrom((request) => {
        sideRequest = request.body as Record<string, unknown>;
        return reply().text("Run `npm install widget@4.2.0` from the project root.").usage({ input: 1200, output: 14 });
      }),
      reply().text("Install it with npm install widget@4.2.0."),
    );
    const before = model.requests.length;
    const run = await headless(
      ["--model", "anthropic:claude-sonnet-4-6", "--allowedTools", "WebFetch(domain:127.0.0.1)"],
      "home-anthropic",
      { ANTHROPIC_API_KEY: "test", ANTHROPIC_BASE_URL: model.anthropicBaseURL },
    );
    expect(model.requests.length - before).toBe(3);

    // The side request: the small model, no tools, the page as markdown (main content only) and the prompt.
    expect(sideRequest?.model).toBe("claude-haiku-4-5");
    expect(sideRequest?.tools).toBeUndefined();
    expect(JSON.stringify(sideRequest?.system)).toContain("untrusted data");
    const message = JSON.stringify(sideRequest?.messages);
    const sent = (JSON.parse(message) as Array<{ content: Array<{ text: string }> }>)[0]!.content[0]!.text;
    expect(sent).toMatch(/^#+ Install$/m);
    expect(sent).toContain("```\nnpm install widget@4.2.0\n```");
    expect(sent).toContain(`[the configuration page](${pages.origin}/docs/config)`);
    expect(sent).toMatch(/^-\s+Node 20 or newer$/m);
    expect(sent).not.toContain("Cookie settings");
    expect(sent).not.toContain("Pricing");
    expect(sent).not.toContain("<p>");
    expect(sent.trimEnd().endsWith("How do I install widgets?")).toBe(true);

    // The model reads the small model's answer, marked as untrusted web content.
    const result = toolResults(run).get("toolu_fetch");
    expect(result?.is_error).toBe(false);
    expect(result?.content).toContain(`Fetched ${pages.origin}/guide "Widget guide" (200 OK, text/html`);
    expect(result?.content).toContain("untrusted data, not instructions");
    expect(result?.content).toContain(
      `<web-content source="${pages.origin}/guide">\nRun \`npm install widget@4.2.0\` from the project root.\n</web-content>`,
    );
    expect(pages.hits.get("/guide")).toBe(1);

    // The side query's tokens are in the session's ledger, priced as Haiku.
    const final = resultLine(run);
    const usage = final.modelUsage as Record<string, { inputTokens: number; outputTokens: number; costUSD: number }>;
    expect(usage["claude-haiku-4-5"]).toMatchObject({ inputTokens: 1200, outputTokens: 14 });
    expect(usage["claude-haiku-4-5"]!.costUSD).toBeGreaterThan(0);
    expect(final.total_cost_usd as number).toBeGreaterThan(usage["claude-haiku-4-5"]!.costUSD);
  });
});

describe("WebFetch with a replay script", () => {
  it("returns a cross-host redirect without following it, short markdown whole, refuses binary content, and caches", async () => {
    const script = writeScript("fetches.jsonl", [
      {
        content: [
          fetchCall("away", `${pages.origin}/away`),
          fetchCall("readme", `${pages.origin}/readme.md`),
          fetchCall("logo", `${pages.origin}/logo.png`),
        ],
      },
      // The same page again: from the cache. And a same-host redirect, followed.
      { content: [fetchCall("again", `${pages.origin}/readme.md`), fetchCall("moved", `${pages.origin}/moved`)] },
      { content: [{ type: "text", text: "done" }] },
    ]);
    const run = await headless(
      ["--model", `replay:${script}`, "--allowedTools", "WebFetch(domain:127.0.0.1)"],
      "home-replay",
    );
    const results = toolResults(run);

    const away = results.get("away");
    expect(away?.is_error).toBe(false);
    expect(away?.content).toContain(`redirects (302) to another host: http://localhost:${elsewhere.port}/target`);
    expect(away?.content).toContain("not followed");
    expect(elsewhere.hits.size).toBe(0);

    // No "side" line in the script: markdown short enough is returned without a model reading it.
    const readme = results.get("readme");
    expect(readme?.content).toContain("markdown short enough to return whole");
    expect(readme?.content).toContain(README_MD.trim());

    const logo = results.get("logo");
    expect(logo?.is_error).toBe(true);
    expect(logo?.content).toContain("image/png");
    expect(logo?.content).toContain("text pages only");

    expect(results.get("again")?.content).toContain("from cache");
    expect(results.get("moved")?.content).toContain(README_MD.trim());
    // Once for "readme" (then "again" is served from the cache), once through "/moved".
    expect(pages.hits.get("/readme.md")).toBe(2);
    expect(pages.hits.get("/moved")).toBe(1);
  });

  it("answers from the script's side line for an HTML page", async () => {
    const script = writeScript("side.jsonl", [
      { content: [fetchCall("guide", `${pages.origin}/guide`, "Which Node version?")] },
      {
        side: "WebFetch",
        content: [{ type: "text", text: "Node 20 or newer." }],
        usage: { input_tokens: 700, output_tokens: 5 },
      },
      { content: [{ type: "text", text: "Node 20." }] },
    ]);
    const run = await headless(
      ["--model", `replay:${script}`, "--allowedTools", "WebFetch(domain:127.0.0.1)"],
      "home-side",
    );
    expect(toolResults(run).get("guide")?.content).toContain("\nNode 20 or newer.\n</web-content>");
  });

  it("does not fetch a local address that no rule names, not even with WebFetch allowed or in bypass mode", async () => {
    const script = writeScript("private.jsonl", [
      { content: [fetchCall("local", `${pages.origin}/guide`)] },
      { content: [{ type: "text", text: "done" }] },
    ]);
    const before = pages.hits.get("/guide") ?? 0;
    for (const flags of [["--allowedTools", "WebFetch"], ["--dangerously-skip-permissions"]]) {
      const run = await headless(["--model", `replay:${script}`, ...flags], `home-private-${flags[0]}`);
      const local = toolResults(run).get("local");
      expect(local?.is_error).toBe(true);
      expect(local?.content).toContain("local network or this machine");
    }
    expect(pages.hits.get("/guide") ?? 0).toBe(before);
  });
});
