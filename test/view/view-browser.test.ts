// `warden view` as a person uses it: a real session run by the built CLI (replay provider, a rule
// file, a PreToolUse hook), then `warden view SESSION` started as its own process and its printed
// URL opened in Debian's chromium, headless, through playwright-core. The page must show the calls
// with their decisions, hook output, diff and token counts; a hostile `<script>` in a tool result
// must show as text and never run; without the token every request is refused; and when the
// session goes on (resumed by another CLI run) the open page shows the new turn by itself.
// Screenshots are written to a temp folder (their paths are logged).
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, realpathSync, statSync, writeFileSync } from "node:fs";
import { request } from "node:http";
import { join } from "node:path";
import { type Browser, chromium } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { projectDataDir } from "../../src/config/paths.js";
import { runCli } from "../cli/run-cli.js";
import { BUILT_CLI } from "../helpers/built.js";
import { CHROMIUM, CHROMIUM_FLAGS } from "../helpers/chromium.js";
import { tempDir, writeScript } from "../loop/helpers.js";

const HOSTILE = "<script>window.pwned=1</script>";

if (!existsSync(CHROMIUM)) {
  console.warn("test/view: chromium is not installed (apt-get install chromium); the browser test is skipped");
}

function status(url: string, headers: Record<string, string> = {}): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers }, (res) => {
      res.resume();
      res.on("end", () => resolve(res.statusCode ?? 0));
    });
    req.on("error", reject);
    req.end();
  });
}

/** Starts `warden view` and resolves with the URL it prints. */
function startView(args: string[], cwd: string, home: string): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, [BUILT_CLI, "view", ...args], {
    cwd,
    env: { ...process.env, WARDEN_HOME: home, HOME: home },
    stdio: ["ignore", "pipe", "pipe"],
  });
  return new Promise((resolve, reject) => {
    let out = "";
    let err = "";
    child.stdout?.setEncoding("utf8").on("data", (chunk: string) => {
      out += chunk;
      const url = /open (http:\/\/127\.0\.0\.1:\d+\S*)/.exec(out)?.[1];
      if (url) resolve({ child, url });
    });
    child.stderr?.setEncoding("utf8").on("data", (chunk: string) => {
      err += chunk;
    });
    child.on("close", (code) => reject(new Error(`warden view exited (${code}) before printing a URL: ${err}`)));
  });
}

describe.skipIf(!existsSync(CHROMIUM))("warden view in a real browser", () => {
  let browser: Browser;
  let view: ChildProcess | undefined;
  const shots = tempDir("warden-view-shots-");

  beforeAll(async () => {
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_FLAGS });
  }, 60_000);
  afterAll(async () => {
    view?.kill("SIGTERM");
    await browser?.close();
  });

  it("shows a session's calls, decisions, hooks and diff, escapes hostile output, and follows the session live", async () => {
    const cwd = realpathSync(tempDir("warden-view-repo-"));
    const home = tempDir("warden-view-home-");
    writeFileSync(join(cwd, "notes.md"), "alpha\nbeta\n");
    const hook = join(cwd, "guard.sh");
    writeFileSync(hook, '#!/usr/bin/env bash\necho "guard looked at the call"\n', { mode: 0o755 });
    const settings = join(cwd, "view-settings.json");
    writeFileSync(
      settings,
      JSON.stringify({
        permissions: { allow: ["Edit"], deny: ["Bash(rm:*)"] },
        hooks: { PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: hook }] }] },
      }),
    );
    const script = writeScript(cwd, [
      {
        content: [
          { type: "text", text: "Echoing first." },
          { type: "tool_use", id: "toolu_echo", name: "Bash", input: { command: `echo '${HOSTILE}'` } },
        ],
        usage: { input_tokens: 1800, output_tokens: 60 },
      },
      { content: [{ type: "tool_use", id: "toolu_read", name: "Read", input: { file_path: join(cwd, "notes.md") } }] },
      {
        content: [
          {
            type: "tool_use",
            id: "toolu_edit",
            name: "Edit",
            input: { file_path: join(cwd, "notes.md"), old_string: "beta", new_string: "gamma" },
          },
        ],
      },
      { content: [{ type: "tool_use", id: "toolu_rm", name: "Bash", input: { command: "rm -rf build" } }] },
      {
        content: [{ type: "text", text: "Done, and the rm was refused." }],
        usage: { input_tokens: 2600, output_tokens: 55 },
      },
    ]);
    const first = await runCli(["-p", "tidy up", "--model", `replay:${script}`, "--cwd", cwd, "--settings", settings], {
      home,
      processCwd: cwd,
      env: { WARDEN_HOME: home },
    });
    expect(first.code, first.stderr).toBe(0);
    process.env.WARDEN_HOME = home;
    const projectDir = projectDataDir(cwd);
    const sessionId = readdirSync(projectDir)
      .find((name) => name.endsWith(".jsonl"))
      ?.slice(0, -".jsonl".length);
    expect(sessionId).toBeDefined();
    if (sessionId === undefined) return;

    const started = await startView([sessionId], cwd, home);
    view = started.child;
    const url = new URL(started.url);
    const bare = `${url.origin}${url.pathname}`;
    // No token, a wrong one, or a rebinding host name: refused.
    expect(await status(bare)).toBe(403);
    expect(await status(`${bare}?token=nope`)).toBe(403);
    expect(await status(started.url, { host: `attacker.test:${url.port}` })).toBe(403);

    const page = await browser.newPage({ viewport: { width: 1100, height: 900 } });
    const dialogs: string[] = [];
    page.on("dialog", (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });
    await page.goto(started.url);
    // Page-side code as strings: this file is type-checked for Node, without the DOM's types.
    await page.evaluate(`for (const d of document.querySelectorAll("details")) d.setAttribute("open", "")`);
    // biome-ignore lint/performance/useDomNodeTextContent: the rendered text is what a person reads
    const text = await page.locator("main").innerText();
    expect(text).toContain("tidy up");
    expect(text).toContain("guard looked at the call");
    expect(text).toContain(`rule Bash(rm:*) (deny rule from command-line flags, ${settings}:1)`);
    expect(text).toMatch(/by the engine: rule Edit \(allow rule from command-line flags/);
    expect(text).toContain("- beta");
    expect(text).toContain("+ gamma");
    expect(text).toContain("1800 in · 60 out");
    // The hostile result is on the page as text, and it never ran.
    expect(text).toContain(HOSTILE);
    expect(await page.evaluate("typeof window.pwned")).toBe("undefined");
    expect(dialogs).toEqual([]);
    const shot = join(shots, "session.png");
    await page.screenshot({ path: shot, fullPage: true });
    expect(statSync(shot).size).toBeGreaterThan(10_000);
    console.log(`warden view screenshot: ${shot}`);

    // The session goes on in another process: the open page shows the new turn without a reload.
    const more = writeScript(cwd, [{ content: [{ type: "text", text: "A second answer, live." }] }], "more.jsonl");
    const second = await runCli(
      [
        "-p",
        "one more thing",
        "--resume",
        sessionId,
        "--model",
        `replay:${more}`,
        "--cwd",
        cwd,
        "--settings",
        settings,
      ],
      { home, processCwd: cwd, env: { WARDEN_HOME: home } },
    );
    expect(second.code, second.stderr).toBe(0);
    // A locator waits in Playwright's own world: the page's CSP (no eval) does not apply there, as it
    // does to waitForFunction's predicate in the page's world.
    await page.locator("main", { hasText: "A second answer, live." }).waitFor({ timeout: 30_000 });
    expect(await page.evaluate("Number(document.body.dataset.refreshed)")).toBeGreaterThanOrEqual(1);
    const liveShot = join(shots, "live.png");
    await page.screenshot({ path: liveShot, fullPage: true });
    expect(statSync(liveShot).size).toBeGreaterThan(10_000);

    // The list of the project's sessions links to this one.
    await page.goto(`${url.origin}/`);
    await page.getByRole("link", { name: "tidy up" }).click();
    await page.waitForURL(`**/s/${sessionId}`);
    mkdirSync(shots, { recursive: true });
  }, 240_000);
});
