// `warden fleet dashboard`: the fleet's BullMQ queue in a browser, through the BullMQ ecosystem's
// own dashboard (@bull-board, on express: its adapter brings express, so the dashboard is one
// express app), on 127.0.0.1 behind warden view's access check (token, Host). Each job links to
// its session, shown with warden view's pages from the transcript copy the worker keeps in Redis
// (keys.transcript), so a job run on another machine can be read here too, live while it runs.
// The board is read-only: retrying or removing a job from the board would go around the fleet's
// own bookkeeping (its cancel flag, signatures, retention); `warden fleet cancel` does that.
import { randomBytes } from "node:crypto";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createBullBoard } from "@bull-board/api";
import { BullMQAdapter } from "@bull-board/api/bullMQAdapter";
import { ExpressAdapter } from "@bull-board/express";
import { Queue } from "bullmq";
import express from "express";
import type { Redis } from "ioredis";
import { type AccessCheck, createAccessCheck } from "../view/access.js";
import { html } from "../view/html.js";
import { page } from "../view/layout.js";
import { sessionViewOf } from "../view/session-model.js";
import { sessionBody } from "../view/session-page.js";
import { isFleetJobId } from "./job-id.js";
import { keys, QUEUE_NAME } from "./keys.js";

export interface DashboardOptions {
  redis: Redis;
  port?: number;
  access?: AccessCheck;
}

export interface Dashboard {
  port: number;
  token: string;
  url: string;
  close(): Promise<void>;
}

/** The page of a job's session: its transcript lines from Redis, through warden view's renderer. */
function jobPath(jobId: string): string {
  return `/jobs/${encodeURIComponent(jobId)}`;
}

export async function startDashboard(options: DashboardOptions): Promise<Dashboard> {
  const access = options.access ?? createAccessCheck();
  const queue = new Queue(QUEUE_NAME, { connection: options.redis });
  queue.on("error", () => undefined);
  const serverAdapter = new ExpressAdapter();
  serverAdapter.setBasePath("/");
  createBullBoard({
    queues: [
      new BullMQAdapter(queue, {
        readOnlyMode: true,
        externalJobUrl: (job) => ({ displayText: "session in warden view", href: jobPath(String(job.id)) }),
      }),
    ],
    // @bull-board/express 9.10.1 pins its own @bull-board/api 9.10.1, whose class declarations
    // TypeScript tells apart from 9.10.2's; the adapter's interface is the same in both.
    serverAdapter: serverAdapter as unknown as Parameters<typeof createBullBoard>[0]["serverAdapter"],
    options: { uiConfig: { boardTitle: "Warden fleet" } },
  });
  let port = 0;
  const app = express();
  app.disable("x-powered-by");
  app.use((req, res, next) => {
    if (access.admit(req, res, port)) next();
  });
  app.get("/jobs/:id{/stamp}", async (req, res) => {
    const id = String(req.params.id);
    // The ids a worker runs (a schedule's are `repeat:<scheduler>:<time>`), nothing that could name another key.
    if (!isFleetJobId(id)) {
      res.status(404).type("text/plain").send("404 Not Found: no such job\n");
      return;
    }
    try {
      if (req.path.endsWith("/stamp")) {
        res.set("cache-control", "no-store").json({ stamp: String(await options.redis.llen(keys.transcript(id))) });
        return;
      }
      const [lines, sessionId] = await Promise.all([
        options.redis.lrange(keys.transcript(id), 0, -1),
        options.redis.hget(keys.job(id), "sessionId"),
      ]);
      const nonce = randomBytes(16).toString("base64");
      const view = sessionViewOf(lines, sessionId ?? id);
      const body =
        lines.length === 0
          ? html`<p>Job ${id} has no transcript yet (it waits for a worker, or its data has expired).</p>`
          : sessionBody(view, { agent: () => "#" });
      const title = `Fleet job ${id}${sessionId ? ` · session ${sessionId}` : ""}`;
      res
        .status(200)
        .set({
          "cache-control": "no-store",
          "referrer-policy": "no-referrer",
          "x-content-type-options": "nosniff",
          "content-security-policy": `default-src 'none'; script-src 'nonce-${nonce}'; style-src 'nonce-${nonce}'; connect-src 'self'; base-uri 'none'; frame-ancestors 'none'`,
        })
        .type("html")
        .send(page({ title, nav: html`<a href="/">the queue</a>`, stampUrl: `${jobPath(id)}/stamp`, nonce }, body));
    } catch (error) {
      res
        .status(500)
        .type("text/plain")
        .send(`500: ${error instanceof Error ? error.message : String(error)}\n`);
    }
  });
  app.use("/", serverAdapter.getRouter());
  const server: Server = await new Promise((resolve, reject) => {
    const listening = app.listen(options.port ?? 0, "127.0.0.1", (error?: Error) =>
      error ? reject(error) : resolve(listening),
    );
  });
  port = (server.address() as AddressInfo).port;
  return {
    port,
    token: access.token,
    url: `http://127.0.0.1:${port}/?token=${access.token}`,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await queue.close().catch(() => undefined);
    },
  };
}
