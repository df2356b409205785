// The `warden` binary. Subcommands are loaded on demand so that a headless session does not pay
// for the MCP SDK or the permission tooling at start-up.

import module from "node:module";

type CommandModule = { run(argv: string[]): Promise<number> };

const SUBCOMMANDS: Record<string, () => Promise<CommandModule>> = {
  permissions: () => import("./commands/permissions.js"),
  undo: () => import("./commands/undo.js"),
  mcp: () => import("./commands/mcp.js"),
  trust: () => import("./commands/trust.js"),
};

async function main(): Promise<number> {
  // V8's on-disk compile cache (Node >= 22.1): later runs skip compiling the code they load, most
  // of the start-up after the files are read. Older Nodes have no such thing for ES modules and
  // simply compile as before. Everything else is loaded below, after this call.
  (module as { enableCompileCache?: () => unknown }).enableCompileCache?.();
  const argv = process.argv.slice(2);
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
