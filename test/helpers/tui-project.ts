// A project folder, a home folder and a replay script for driving the built `warden` in tmux
// (test/helpers/tmux.ts), with readers for the session's transcript.
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { projectDataDir } from "../../src/config/paths.js";
import { tempDir, writeScript } from "../loop/helpers.js";
import { TmuxTerminal } from "./tmux.js";

export interface TuiProject {
  home: string;
  cwd: string;
  script: string;
  /** Starts warden in the project; every terminal started is in `terminals` (kill them after the test). */
  start(extraArgs?: string[], env?: Record<string, string>, size?: { width: number; height: number }): TmuxTerminal;
}

export const terminals: TmuxTerminal[] = [];

export function killTerminals(): void {
  for (const t of terminals.splice(0)) t.kill();
}

export function tuiProject(turns: object[], files: Record<string, string> = {}): TuiProject {
  const home = tempDir("warden-tui-home-");
  const cwd = tempDir("warden-tui-project-");
  const script = writeScript(tempDir("warden-tui-script-"), turns);
  for (const [name, content] of Object.entries(files)) writeIn(cwd, name, content);
  return {
    home,
    cwd,
    script,
    start(extraArgs = [], env = {}, size) {
      const terminal = TmuxTerminal.start({
        cwd,
        args: ["--model", `replay:${script}`, ...extraArgs],
        env: { WARDEN_HOME: home, HOME: home, ...env },
        ...size,
      });
      terminals.push(terminal);
      return terminal;
    },
  };
}

export function writeIn(dir: string, name: string, content: string | Buffer): void {
  mkdirSync(join(dir, name, ".."), { recursive: true });
  writeFileSync(join(dir, name), content);
}

/** Every JSON line of the project's transcripts (there is one per session). */
export function transcriptLines(p: TuiProject): Array<Record<string, unknown>> {
  const dir = projectDataDir(p.cwd).replace(/^.*\/projects\//, join(p.home, "projects/"));
  let files: string[];
  try {
    files = readdirSync(dir).filter((f) => f.endsWith(".jsonl"));
  } catch {
    return [];
  }
  return files.flatMap((file) =>
    readFileSync(join(dir, file), "utf8")
      .split("\n")
      .filter(Boolean)
      .map((line) => JSON.parse(line) as Record<string, unknown>),
  );
}

/** The transcript once it holds what `until` looks for (it is written as the session goes). */
export async function transcriptWhen(
  p: TuiProject,
  until: (lines: Array<Record<string, unknown>>) => boolean,
): Promise<Array<Record<string, unknown>>> {
  const deadline = Date.now() + 10_000;
  let lines: Array<Record<string, unknown>> = [];
  while (Date.now() < deadline) {
    lines = transcriptLines(p);
    if (until(lines)) return lines;
    await new Promise((r) => setTimeout(r, 50));
  }
  return lines;
}

/** The status line once the session has started. */
export const READY = /default mode \(shift\+tab to cycle\)/;

export async function submit(terminal: TmuxTerminal, prompt: string): Promise<void> {
  terminal.type(prompt);
  await terminal.waitFor(prompt);
  terminal.press("Enter");
}
