// Drives the built `warden` binary in a real terminal: a tmux server of its own (one socket per
// test, so parallel tests and a person's own tmux never meet), keys sent with send-keys, the
// screen read with capture-pane. Needs Debian's tmux (scripts/setup.sh installs it) and a built
// dist/ (kept current by the tests' global setup, test/setup/build.ts).
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach } from "vitest";

const root = fileURLToPath(new URL("../..", import.meta.url));
export const builtCli = join(root, "dist/cli.js");

let counter = 0;

export interface TerminalOptions {
  cwd: string;
  args: string[];
  env: Record<string, string>;
  width?: number;
  height?: number;
}

export class TmuxTerminal {
  private constructor(
    private readonly socket: string,
    readonly exitFile: string,
  ) {}

  /** Starts `node dist/cli.js ARGS` in a new tmux pane; the exit code lands in `exitFile`. */
  static start(options: TerminalOptions): TmuxTerminal {
    if (spawnSync("tmux", ["-V"]).status !== 0) throw new Error("tmux is needed for these tests: run scripts/setup.sh");
    if (!existsSync(builtCli)) throw new Error(`${builtCli} is missing: run npm run build`);
    const socket = `warden-test-${process.pid}-${++counter}`;
    const exitFile = join(options.cwd, `.exit-${socket}`);
    const env = Object.entries({ TERM: "xterm-256color", ...options.env })
      .map(([k, v]) => `${k}=${shellQuote(v)}`)
      .join(" ");
    // A person's terminal: not a CI job (ink draws nothing live when CI is set, and CI runs these
    // tests), and no colour settings of the test runner's (FORCE_COLOR=0 from a piped runner turned
    // the UI's dim lines and cursor off); a test that wants them passes them in `env`.
    const command = `cd ${shellQuote(options.cwd)} && env -u CI -u CONTINUOUS_INTEGRATION -u FORCE_COLOR -u NO_COLOR ${env} ${shellQuote(process.execPath)} ${shellQuote(builtCli)} ${options.args
      .map(shellQuote)
      .join(" ")}; echo $? > ${shellQuote(exitFile)}; sleep 600`;
    execFileSync("tmux", [
      "-L",
      socket,
      "-f",
      "/dev/null",
      "new-session",
      "-d",
      "-x",
      String(options.width ?? 100),
      "-y",
      String(options.height ?? 30),
      command,
    ]);
    return new TmuxTerminal(socket, exitFile);
  }

  /** Types text literally (one write, as a person's fast typing or a paste without brackets would arrive). */
  type(text: string): void {
    this.tmux("send-keys", "-l", text);
  }

  /** Presses named keys: Enter, Escape, BTab (Shift+Tab), C-c, C-d, Up, Down, ... */
  press(...keys: string[]): void {
    for (const key of keys) this.tmux("send-keys", key);
  }

  /**
   * Presses `key` in a dialog that has just been drawn, until the screen shows `moved`: ink listens
   * for keys only once the dialog's first frame is committed, and a key that arrives before that is
   * lost. A key that did arrive shows within the short wait, so it is never pressed twice.
   */
  async pressInNewDialog(key: string, moved: RegExp): Promise<void> {
    for (let tries = 0; tries < 5; tries++) {
      this.press(key);
      try {
        await this.waitFor(moved, 1_500);
        return;
      } catch {
        // Lost before the dialog listened: press again.
      }
    }
    throw new Error(`${key} never moved the dialog to ${String(moved)}; the screen was:\n${this.screen()}`);
  }

  /** Pastes text the way a terminal does with bracketed paste on. */
  paste(text: string): void {
    this.tmux("set-buffer", "--", text);
    this.tmux("paste-buffer", "-p");
  }

  /** The screen as text (`escapes`: with colour codes). */
  screen(escapes = false): string {
    return this.tmux("capture-pane", "-p", ...(escapes ? ["-e"] : []));
  }

  /** Waits until the screen matches; throws with the screen when it never does. */
  async waitFor(match: string | RegExp | ((screen: string) => boolean), timeoutMs = 15_000): Promise<string> {
    const test =
      typeof match === "function"
        ? match
        : (s: string) => (typeof match === "string" ? s.includes(match) : match.test(s));
    const deadline = Date.now() + timeoutMs;
    let last = "";
    while (Date.now() < deadline) {
      last = this.screen();
      if (test(last)) return this.settled(last, test);
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error(`timed out waiting for ${String(match)}; the screen was:\n${last}`);
  }

  /**
   * A matching screen once its frame has been drawn whole. tmux reads a large frame from the pty in
   * pieces, so a capture can fall between ink erasing its lower part and drawing it again: the text
   * waited for shows, the footer below it does not yet. A second capture a moment later has the
   * whole frame; the first one is kept when the screen has moved on past the match.
   */
  private async settled(matched: string, test: (screen: string) => boolean): Promise<string> {
    await new Promise((r) => setTimeout(r, 40));
    const again = this.screen();
    return test(again) ? again : matched;
  }

  /** From now on, appends every byte the program writes to the terminal to `file` (tmux pipe-pane). */
  recordOutput(file: string): void {
    this.tmux("pipe-pane", "-o", `cat >> ${shellQuote(file)}`);
  }

  /** The exit code once the binary has ended. */
  async exitCode(timeoutMs = 10_000): Promise<number> {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      if (existsSync(this.exitFile)) {
        const { readFileSync } = await import("node:fs");
        const text = readFileSync(this.exitFile, "utf8").trim();
        if (text !== "") return Number(text);
      }
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error(`warden did not exit; the screen was:\n${this.screen()}`);
  }

  /** Any tmux command on this terminal's server (list-panes, capture-pane -t ...); its output. */
  command(...args: string[]): string {
    return this.tmux(...args);
  }

  kill(): void {
    spawnSync("tmux", ["-L", this.socket, "kill-server"]);
  }

  private tmux(...args: string[]): string {
    return execFileSync("tmux", ["-L", this.socket, ...args], { encoding: "utf8" });
  }
}

function shellQuote(value: string): string {
  return /^[\w@%+=:,./-]+$/.test(value) ? value : `'${value.replace(/'/g, "'\\''")}'`;
}

/** The terminals a test file starts (push each one), each killed after its test. */
export function terminalsKilledAfterEach(): TmuxTerminal[] {
  const terminals: TmuxTerminal[] = [];
  afterEach(() => {
    for (const t of terminals.splice(0)) t.kill();
  });
  return terminals;
}
