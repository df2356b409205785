// The `warden` binary. Subcommands are loaded on demand so that a headless session does not pay
// for the MCP SDK or the permission tooling at start-up.

import module from "node:module";
import { isatty } from "node:tty";
import { SUBCOMMANDS } from "./subcommands.js";

/** Flags after which the session command prints something and exits, or runs headless. */
const NOT_INTERACTIVE = new Set(["-p", "--print", "-h", "--help", "-v", "--version", "--session-spec", "--init-only"]);

/**
 * `warden` in a terminal without -p: decided from argv alone, so that the plain prompt is drawn
 * and keys are captured before the session's modules load (see ../ui/early-input.ts).
 */
function isInteractiveLaunch(argv: readonly string[]): boolean {
  if (argv[0] !== undefined && SUBCOMMANDS[argv[0]]) return false;
  if (argv.some((arg) => NOT_INTERACTIVE.has(arg))) return false;
  return isatty(0) && isatty(1);
}

async function main(): Promise<number> {
  // V8's on-disk compile cache (Node >= 22.1): later runs skip compiling the code they load, most
  // of the start-up after the files are read. Older Nodes have no such thing for ES modules and
  // simply compile as before. Everything else is loaded below, after this call.
  (module as { enableCompileCache?: () => unknown }).enableCompileCache?.();
  const argv = process.argv.slice(2);
  if (isInteractiveLaunch(argv)) {
    const { startEarlyInput } = await import("../ui/early-input.js");
    const early = startEarlyInput({ stdin: process.stdin, stdout: process.stdout }, () => {
      early.restore();
      process.exit(0);
    });
    const { runInteractive } = await import("./interactive/run.js");
    const code = await runInteractive(argv, early);
    // The person asked to leave: a timer or a reconnecting MCP client must not keep us here.
    process.exit(code);
  }
  const load = argv[0] !== undefined ? SUBCOMMANDS[argv[0]] : undefined;
  const command = load ? await load() : await import("./commands/session.js");
  return command.run(load ? argv.slice(1) : argv);
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`warden: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  },
);
