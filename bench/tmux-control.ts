// A tmux pane driven through one control-mode client (`tmux -C`), for latency figures that are the
// program's and not the harness's. Polling `tmux capture-pane` spawns a tmux client process per
// look at the screen (2-5 ms idle, tens of ms on a loaded machine), and so does each `send-keys`:
// the measured latency then holds the harness's own process start-ups. Here keys go out and screens
// come back over one open socket, and the screen is read only when tmux reports that the program
// wrote something (`%output`): an echo is timed at the output notification that produced it.
import { type ChildProcessWithoutNullStreams, execFileSync, spawn, spawnSync } from "node:child_process";

let panes = 0;

interface Pending {
  resolve(lines: string[]): void;
  reject(error: Error): void;
}

export class ControlPane {
  readonly socket = `warden-bench-ctl-${process.pid}-${++panes}`;
  private readonly client: ChildProcessWithoutNullStreams;
  private readonly pending: Pending[] = [];
  /** The lines of the reply being read (between %begin and %end), when one is. */
  private reply: string[] | undefined;
  /** Whether the reply being read answers one of our commands (flag 1) or the attach itself. */
  private replyIsOurs = false;
  private partial = "";
  private outputSeq = 0;
  private lastOutputAt = 0;
  private readonly outputWaiters = new Set<() => void>();

  constructor(command: string, size = { columns: 100, rows: 30 }) {
    execFileSync("tmux", [
      "-L",
      this.socket,
      "-f",
      "/dev/null",
      "new-session",
      "-d",
      "-x",
      String(size.columns),
      "-y",
      String(size.rows),
      command,
    ]);
    // The control client must not resize the window to its own (unset) size.
    this.client = spawn("tmux", ["-L", this.socket, "-C", "attach", "-f", "ignore-size"], { stdio: "pipe" });
    this.client.stdout.setEncoding("utf8");
    this.client.stdout.on("data", (chunk: string) => this.read(chunk));
  }

  /** Runs a tmux command on the open connection; resolves with its output lines. */
  command(line: string): Promise<string[]> {
    return new Promise((resolve, reject) => {
      this.pending.push({ resolve, reject });
      this.client.stdin.write(`${line}\n`);
    });
  }

  async screen(): Promise<string> {
    return (await this.command("capture-pane -p")).join("\n");
  }

  /** Sends literal text as typed keys; resolves once tmux has taken it (not once it is shown). */
  type(text: string): Promise<string[]> {
    return this.command(`send-keys -l ${quote(text)}`);
  }

  press(key: string): Promise<string[]> {
    return this.command(`send-keys ${key}`);
  }

  /**
   * Waits until `test` holds on the screen; returns ms from `since` to the output notification
   * after which the screen first passed the test. The screen is read after each notification
   * (several that arrive while a read is under way make one more read).
   */
  async waitFor(test: (screen: string) => boolean, since: number, timeoutMs = 30_000): Promise<number> {
    const deadline = since + timeoutMs;
    let checkedSeq = -1;
    while (performance.now() < deadline) {
      const seq = this.outputSeq;
      if (seq !== checkedSeq) {
        checkedSeq = seq;
        const screen = await this.screen();
        // The latest notification before the reply: the screen read holds no later output, so this
        // errs late by at most one notification's worth, never early. Output from before `since`
        // (a screen that already passed) counts as now.
        const at = this.lastOutputAt;
        if (test(screen)) return at > since ? at - since : performance.now() - since;
        continue;
      }
      await this.nextOutput(deadline - performance.now());
    }
    throw new Error(`timed out; screen:\n${await this.screen()}`);
  }

  kill(): void {
    this.client.kill();
    spawnSync("tmux", ["-L", this.socket, "kill-server"]);
  }

  private nextOutput(timeoutMs: number): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.outputWaiters.delete(done);
        resolve();
      };
      const timer = setTimeout(done, Math.max(1, timeoutMs));
      this.outputWaiters.add(done);
    });
  }

  private read(chunk: string): void {
    const lines = (this.partial + chunk).split("\n");
    this.partial = lines.pop() ?? "";
    for (const line of lines) this.line(line);
  }

  private line(line: string): void {
    if (this.reply) {
      if (line.startsWith("%end ") || line.startsWith("%error ")) {
        const lines = this.reply;
        this.reply = undefined;
        if (!this.replyIsOurs) return;
        const waiter = this.pending.shift();
        if (line.startsWith("%error ")) waiter?.reject(new Error(`tmux: ${lines.join("\n")}`));
        else waiter?.resolve(lines);
        return;
      }
      this.reply.push(line);
      return;
    }
    if (line.startsWith("%begin ")) {
      this.reply = [];
      this.replyIsOurs = line.trim().endsWith(" 1");
      return;
    }
    if (line.startsWith("%output ")) {
      this.lastOutputAt = performance.now();
      this.outputSeq++;
      for (const waiter of [...this.outputWaiters]) waiter();
    }
  }
}

/** Quotes a string for tmux's command parser. */
function quote(text: string): string {
  return `'${text.replaceAll("'", `'\\''`)}'`;
}
