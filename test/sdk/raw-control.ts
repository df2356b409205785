// Drives the built CLI over its stdin and stdout as the Agent SDK would, line by line, for the
// control requests the SDK's Query object has no method for: each request gets its response (or
// error) by request id, and every other line is kept for the test to read.
import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { createInterface } from "node:readline";
import { sdkOptions, type Workspace, wardenBin } from "./sdk-harness.js";

export type Line = Record<string, unknown>;
export type Answer = { ok: true; response: Line } | { ok: false; error: string };

export class RawSession {
  readonly lines: Line[] = [];
  private readonly child: ChildProcessWithoutNullStreams;
  private readonly answers = new Map<string, (answer: Answer) => void>();
  private readonly watchers: Array<{ test: (line: Line) => boolean; resolve: (line: Line) => void }> = [];
  stderr = "";
  readonly exited: Promise<number | null>;

  constructor(ws: Workspace, args: string[], extraEnv: Record<string, string> = {}) {
    const env = sdkOptions(ws, { extraEnv }).env as Record<string, string>;
    this.child = spawn(
      process.execPath,
      [wardenBin, "-p", "--input-format", "stream-json", "--output-format", "stream-json", "--verbose", ...args],
      { cwd: ws.cwd, env, stdio: ["pipe", "pipe", "pipe"] },
    );
    this.child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
      this.stderr += chunk;
    });
    createInterface({ input: this.child.stdout }).on("line", (text) => this.receive(JSON.parse(text) as Line));
    this.exited = new Promise((resolve) => this.child.on("close", (code) => resolve(code)));
  }

  private receive(line: Line): void {
    this.lines.push(line);
    if (line.type === "control_response") {
      const response = line.response as Line;
      const settle = this.answers.get(String(response.request_id));
      this.answers.delete(String(response.request_id));
      settle?.(
        response.subtype === "error"
          ? { ok: false, error: String(response.error) }
          : { ok: true, response: (response.response as Line | undefined) ?? {} },
      );
      return;
    }
    for (const watcher of [...this.watchers]) {
      if (!watcher.test(line)) continue;
      this.watchers.splice(this.watchers.indexOf(watcher), 1);
      watcher.resolve(line);
    }
  }

  /** Sends a control request; resolves with its success payload or its error text. */
  request(request: Line): Promise<Answer> {
    const id = randomUUID();
    return new Promise((resolve) => {
      this.answers.set(id, resolve);
      this.write({ type: "control_request", request_id: id, request });
    });
  }

  /** The success payload of a request that must succeed. */
  async ok(request: Line): Promise<Line> {
    const answer = await this.request(request);
    if (!answer.ok) throw new Error(`${String(request.subtype)} failed: ${answer.error}\n${this.stderr}`);
    return answer.response;
  }

  send(text: string, uuid: string = randomUUID()): string {
    this.write({ type: "user", message: { role: "user", content: text }, parent_tool_use_id: null, uuid });
    return uuid;
  }

  /** The next line (from now on) that passes `test`. */
  next(test: (line: Line) => boolean): Promise<Line> {
    return new Promise((resolve) => this.watchers.push({ test, resolve }));
  }

  write(line: Line): void {
    this.child.stdin.write(`${JSON.stringify(line)}\n`);
  }

  /** Closes stdin without waiting: the host has said all it will. */
  endInput(): void {
    this.child.stdin.end();
  }

  /** Sends the process a signal, as a terminal's Ctrl+C (SIGINT) would. */
  signal(name: NodeJS.Signals): void {
    this.child.kill(name);
  }

  async close(): Promise<number | null> {
    this.child.stdin.end();
    return this.exited;
  }
}

export const isResult = (line: Line) => line.type === "result";
