// A tmux pane driven through one control-mode client (`tmux -C`), for latency figures that are the
// program's and not the harness's. Polling `tmux capture-pane` spawns a tmux client process per
// look at the screen (2-5 ms idle, tens of ms on a loaded machine), and so does each `send-keys`:
// the measured latency then holds the harness's own process start-ups. Here keys go out over one
// open socket, and the screen is followed output by output: tmux sends every byte the program
// writes (`%output`), which is fed to a terminal emulator (@xterm/headless) of the pane's size, so
// the time a screen first passes a test is the arrival of the very output that made it pass. (A
// capture-pane after each notice could only say "by the latest output before the reply", which
// is late whenever the program writes twice in a row, as an echo followed by a frame does.) The
// program starts only once this client is attached, so the emulator sees all its output; `inStep`
// checks it against tmux's own screen.
import { type ChildProcessWithoutNullStreams, execFileSync, spawn, spawnSync } from "node:child_process";
import xterm from "@xterm/headless";

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
  /** The pane as the program's output so far draws it. */
  private readonly terminal: InstanceType<typeof xterm.Terminal>;
  /** Outputs fed to the emulator and parsed, and when the latest of them arrived from tmux. */
  private parsedSeq = 0;
  private parsedArrivedAt = 0;
  private readonly outputWaiters = new Set<() => void>();

  constructor(command: string, size = { columns: 100, rows: 30 }) {
    this.terminal = new xterm.Terminal({ cols: size.columns, rows: size.rows, allowProposedApi: true });
    // The program waits for this client (see the top of the file).
    const gated = `tmux -L ${this.socket} wait-for warden-bench-go; ${command}`;
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
      gated,
    ]);
    // The control client must not resize the window to its own (unset) size.
    this.client = spawn("tmux", ["-L", this.socket, "-C", "attach", "-f", "ignore-size"], { stdio: "pipe" });
    // Bytes as they come (the program's UTF-8 may be split between two notices): the emulator
    // decodes them, and screen() decodes its replies.
    this.client.stdout.setEncoding("latin1");
    this.client.stdout.on("data", (chunk: string) => this.read(chunk));
    void this.command("wait-for -S warden-bench-go");
  }

  /** Runs a tmux command on the open connection; resolves with its output lines. */
  command(line: string): Promise<string[]> {
    return new Promise((resolve, reject) => {
      this.pending.push({ resolve, reject });
      this.client.stdin.write(`${line}\n`);
    });
  }

  async screen(): Promise<string> {
    return Buffer.from((await this.command("capture-pane -p")).join("\n"), "latin1").toString("utf8");
  }

  /** Sends literal text as typed keys; resolves once tmux has taken it (not once it is shown). */
  type(text: string): Promise<string[]> {
    return this.command(`send-keys -l ${quote(text)}`);
  }

  press(key: string): Promise<string[]> {
    return this.command(`send-keys ${key}`);
  }

  /** The screen as the emulator has it now (lines without trailing blanks, as capture-pane gives). */
  virtualScreen(): string {
    const buffer = this.terminal.buffer.active;
    const lines: string[] = [];
    for (let y = 0; y < this.terminal.rows; y++) {
      lines.push((buffer.getLine(buffer.viewportY + y)?.translateToString(true) ?? "").trimEnd());
    }
    return lines.join("\n");
  }

  /**
   * Waits until `test` holds on the screen; returns ms from `since` to the arrival of the output
   * after which it first held (a screen that already held before `since` counts as now).
   */
  async waitFor(test: (screen: string) => boolean, since: number, timeoutMs = 30_000): Promise<number> {
    const deadline = since + timeoutMs;
    let checkedSeq = -1;
    while (performance.now() < deadline) {
      if (this.parsedSeq !== checkedSeq) {
        checkedSeq = this.parsedSeq;
        const at = this.parsedArrivedAt;
        if (test(this.virtualScreen())) return at > since ? at - since : performance.now() - since;
        continue;
      }
      await this.nextOutput(deadline - performance.now());
    }
    throw new Error(`timed out; screen:\n${this.virtualScreen()}`);
  }

  /** Whether the emulator's screen is tmux's (retried a few times while output is in flight). */
  async inStep(): Promise<boolean> {
    for (let attempt = 0; attempt < 10; attempt++) {
      const real = (await this.screen())
        .split("\n")
        .map((l) => l.trimEnd())
        .join("\n")
        .replace(/\n+$/, "");
      if (real === this.virtualScreen().replace(/\n+$/, "")) return true;
      await new Promise((r) => setTimeout(r, 100));
    }
    return false;
  }

  kill(): void {
    this.terminal.dispose();
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
      const arrivedAt = performance.now();
      const data = Buffer.from(unescapeOutput(line.slice(line.indexOf(" ", "%output ".length) + 1)), "latin1");
      // Parsed in arrival order; the screen is looked at once this output is on it.
      this.terminal.write(data, () => {
        this.parsedSeq++;
        this.parsedArrivedAt = arrivedAt;
        for (const waiter of [...this.outputWaiters]) waiter();
      });
    }
  }
}

/** tmux writes bytes below 32 and the backslash of `%output` as octal escapes (`\\033`). */
function unescapeOutput(text: string): string {
  return text.replace(/\\([0-7]{3})/g, (_, octal: string) => String.fromCharCode(Number.parseInt(octal, 8)));
}

/** Quotes a string for tmux's command parser. */
function quote(text: string): string {
  return `'${text.replaceAll("'", `'\\''`)}'`;
}
