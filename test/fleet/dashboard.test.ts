// `warden fleet dashboard` against a real redis-server and a real worker of the built CLI: the
// queue shown by @bull-board in Debian's chromium (playwright-core), refused without its token,
// and a finished job's link opening its session (the transcript the worker copied into Redis)
// through warden view's pages. Screenshots are written to a temp folder.
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdtempSync, statSync, writeFileSync } from "node:fs";
import { request } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Browser, chromium } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CHROMIUM, CHROMIUM_FLAGS } from "../helpers/chromium.js";
import { redisServerBinary } from "../helpers/redis-server.js";
import { type FleetEnv, startTestFleet, type TestFleet, waitFor, warden, wardenBin } from "./harness.js";

const binary = redisServerBinary();
if (!existsSync(CHROMIUM)) console.warn("test/fleet/dashboard: chromium is not installed; skipped");

function status(url: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(url, (res) => {
      res.resume();
      res.on("end", () => resolve(res.statusCode ?? 0));
    });
    req.on("error", reject);
    req.end();
  });
}

describe.skipIf(!binary || !existsSync(CHROMIUM))("warden fleet dashboard", () => {
  let tf: TestFleet;
  let fleet: FleetEnv;
  let board: ChildProcess | undefined;
  let browser: Browser;
  let dir: string;

  beforeAll(async () => {
    tf = await startTestFleet(binary as string, {
      name: "dashboard",
      policy: (dir) => ({ repositories: [dir], modelFiles: [dir], jobRules: "any" }),
    });
    ({ fleet, dir } = tf);
    await tf.addWorker([], { workDir: join(dir, "worker") });
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_FLAGS });
  }, 60_000);

  afterAll(async () => {
    board?.kill("SIGTERM");
    await browser?.close();
    await tf?.stop();
  });

  it("shows the queue behind its token and links a job to its session", async () => {
    const script = join(dir, "job.jsonl");
    const turns = [
      { content: [{ type: "tool_use", id: "b1", name: "Bash", input: { command: "echo fleet-was-here" } }] },
      { content: [{ type: "text", text: "The job's final words." }] },
    ];
    writeFileSync(script, `${turns.map((t) => JSON.stringify(t)).join("\n")}\n`);
    const submitted = await warden(fleet, [
      "fleet",
      "submit",
      "--model",
      `replay:${script}`,
      "--repo",
      join(dir, "repo"),
      "--allowed-tools",
      "Bash",
      "say hello from the fleet",
    ]);
    expect(submitted.code, submitted.stderr).toBe(0);
    const id = submitted.stdout.trim();
    expect((await tf.settled(id)).state).toBe("completed");

    board = spawn(process.execPath, [wardenBin, "fleet", "dashboard"], {
      env: { ...process.env, WARDEN_HOME: fleet.home, HOME: fleet.home, WARDEN_REDIS_URL: fleet.redisUrl },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let printed = "";
    board.stdout?.setEncoding("utf8").on("data", (chunk: string) => {
      printed += chunk;
    });
    const url = await waitFor(
      "the dashboard's URL",
      () => /open (http:\/\/127\.0\.0\.1:\d+\/\?token=\S+)/.exec(printed)?.[1],
    );
    const origin = new URL(url).origin;
    expect(await status(`${origin}/`)).toBe(403);
    expect(await status(`${origin}/jobs/${id}`)).toBe(403);
    expect(await status(`${origin}/api/queues`)).toBe(403);

    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.goto(url);
    await page.goto(`${origin}/queue/warden-fleet?status=completed`);
    const link = page.getByRole("link", { name: "session in warden view" }).first();
    await link.waitFor({ timeout: 30_000 });
    const shots = mkdtempSync(join(tmpdir(), "warden-dashboard-shots-"));
    const queueShot = join(shots, "queue.png");
    await page.screenshot({ path: queueShot, fullPage: true });
    expect(statSync(queueShot).size).toBeGreaterThan(10_000);
    console.log(`warden fleet dashboard screenshot: ${queueShot}`);

    // The board opens external links in a new tab: follow the link's own address here.
    const href = await link.getAttribute("href");
    expect(href).toBe(`/jobs/${id}`);
    await page.goto(new URL(href ?? "", origin).href);
    await page.evaluate(`for (const d of document.querySelectorAll("details")) d.setAttribute("open", "")`);
    // biome-ignore lint/performance/useDomNodeTextContent: the rendered text is what a person reads
    const text = await page.locator("main").innerText();
    expect(text).toContain("say hello from the fleet");
    expect(text).toContain("fleet-was-here");
    expect(text).toContain("The job's final words.");
    const jobShot = join(shots, "job.png");
    await page.screenshot({ path: jobShot, fullPage: true });
    expect(statSync(jobShot).size).toBeGreaterThan(10_000);

    // A job a schedule added (CronCreate durable, a trigger) has a BullMQ scheduler id: its page too.
    const scheduled = "repeat:cron:walk19:1796533146070";
    const lines = await tf.client.lrange(`warden:fleet:job:${id}:transcript`, 0, -1);
    await tf.client.rpush(`warden:fleet:job:${scheduled}:transcript`, ...lines);
    const opened = await page.goto(`${origin}/jobs/${encodeURIComponent(scheduled)}`);
    expect(opened?.status()).toBe(200);
    // biome-ignore lint/performance/useDomNodeTextContent: the rendered text is what a person reads
    expect(await page.locator("main").innerText()).toContain("fleet-was-here");
  }, 240_000);
});
