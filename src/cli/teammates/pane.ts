// `--teammate-mode tmux`: each teammate runs as in process mode (a `warden teammate` child of its
// own) and is shown live in a tmux pane beside the lead, opened when it starts and closed when it
// stops. The pane runs `warden teammate-view` on the teammate's sidechain transcript, so it shows
// what the teammate does without being part of its work: a closed pane stops nothing.
import { execFile } from "node:child_process";
import type { TeammateRunner } from "../../loop/subagent/deps.js";
import type { SessionConfig } from "../flags/session-config.js";

function tmux(args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile("tmux", args, { encoding: "utf8" }, (error, stdout, stderr) => {
      if (error) reject(new Error((stderr || error.message).trim()));
      else resolve(stdout.trim());
    });
  });
}

/** A shell word for tmux's command line (it runs the pane's command through the shell). */
const quote = (word: string) => `'${word.replaceAll("'", `'\\''`)}'`;

/** Opens a pane beside the lead's, following the transcript; resolves with its id. */
async function openPane(transcriptPath: string, title: string): Promise<string> {
  const script = process.argv[1];
  if (!script) throw new Error("cannot tell which warden the pane should run");
  // The warden this lead runs as (node, its flags such as a loader, the CLI script), as for the teammate.
  const command = [process.execPath, ...process.execArgv, script, "teammate-view", transcriptPath, title]
    .map(quote)
    .join(" ");
  // -d: the lead's pane keeps the keyboard; the target is the lead's own pane ($TMUX_PANE).
  const target = process.env.TMUX_PANE ? ["-t", process.env.TMUX_PANE] : [];
  return tmux(["split-window", "-d", "-h", ...target, "-P", "-F", "#{pane_id}", command]);
}

/**
 * The runner of tmux mode. Outside tmux (no $TMUX) it is process mode, said once; a pane that
 * cannot be opened is said and the teammate runs on without one.
 */
export function tmuxTeammateRunner(config: SessionConfig, warn: (message: string) => void): TeammateRunner {
  const inProcesses: TeammateRunner = async (deps, request, parent, setState) => {
    const { runTeammateProcess } = await import("./process-runner.js");
    return runTeammateProcess({ config, warn }, deps, request, parent, setState);
  };
  let toldNoTmux = false;
  return async (deps, request, parent, setState) => {
    if (!process.env.TMUX) {
      if (!toldNoTmux)
        warn("teammate mode tmux: this session is not inside tmux; teammates run as processes without panes");
      toldNoTmux = true;
      return inProcesses(deps, request, parent, setState);
    }
    const { sidechainPath } = await import("../../loop/subagent/child.js");
    const transcript = sidechainPath(deps.sessionCwd, deps.sessionId, request.agentId);
    const pane = await openPane(transcript, `${request.name} (${request.team.teamName})`).catch((error: unknown) => {
      warn(`teammate ${request.name}: no tmux pane (${error instanceof Error ? error.message : String(error)})`);
      return undefined;
    });
    try {
      return await inProcesses(deps, request, parent, setState);
    } finally {
      if (pane) await tmux(["kill-pane", "-t", pane]).catch(() => undefined);
    }
  };
}
