// A real redis-server (Debian's package) for tests: its own port and folder, append-only file on,
// so a restart keeps the data as a production Redis with persistence would.
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";

export function redisServerBinary(): string | undefined {
  const found = spawnSync("sh", ["-c", "command -v redis-server"], { encoding: "utf8" });
  const path = found.stdout.trim();
  return found.status === 0 && path !== "" ? path : undefined;
}

export interface TestRedis {
  url: string;
  port: number;
  dir: string;
  /** Stops it (SIGTERM: the append-only file is flushed) and waits until it is gone. */
  stop(): Promise<void>;
  /** Starts it again on the same port and folder. */
  start(): Promise<void>;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

export async function startTestRedis(binary: string): Promise<TestRedis> {
  const dir = mkdtempSync(join(tmpdir(), "warden-redis-"));
  const port = await freePort();
  let child: ChildProcess | undefined;
  const start = async () => {
    const started = spawn(
      binary,
      ["--port", String(port), "--bind", "127.0.0.1", "--dir", dir, "--save", "", "--appendonly", "yes"],
      { stdio: ["ignore", "pipe", "pipe"] },
    );
    child = started;
    let output = "";
    await new Promise<void>((resolve, reject) => {
      const onData = (chunk: Buffer) => {
        output += chunk.toString();
        if (/Ready to accept connections/.test(output)) resolve();
      };
      started.stdout?.on("data", onData);
      started.stderr?.on("data", onData);
      started.once("exit", (code) => reject(new Error(`redis-server exited (${code}): ${output}`)));
    });
  };
  const stop = async () => {
    const running = child;
    child = undefined;
    if (!running || running.exitCode !== null) return;
    await new Promise<void>((resolve) => {
      running.once("exit", () => resolve());
      running.kill("SIGTERM");
    });
  };
  await start();
  return { url: `redis://127.0.0.1:${port}`, port, dir, stop, start };
}
