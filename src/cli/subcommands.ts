// The `warden` binary's subcommands, each loaded on demand so that a headless session does not pay
// for the MCP SDK or the permission tooling at start-up. docs/cli.md is generated from this table
// (scripts/docs/reference.ts): a subcommand added here shows up there, with its --help.

export type CommandModule = { run(argv: string[]): Promise<number> };

export const SUBCOMMANDS: Record<string, () => Promise<CommandModule>> = {
  permissions: () => import("./commands/permissions.js"),
  undo: () => import("./commands/undo.js"),
  mcp: () => import("./commands/mcp.js"),
  trust: () => import("./commands/trust.js"),
  plugin: () => import("./commands/plugin.js"),
  acp: () => import("./commands/acp.js"),
  // BullMQ and ioredis load only here: a local session never pays for the fleet.
  fleet: () => import("./commands/fleet.js"),
  // A fleet worker's warm session process (internal: the job arrives on stdin).
  "fleet-session": () => import("./commands/fleet-session.js"),
  // The session viewer's web server (node:http and server-rendered pages, loaded only here).
  view: () => import("./commands/view.js"),
  // A lead's teammate in its own process (internal: the spec arrives on stdin).
  teammate: () => import("./commands/teammate.js"),
  // A teammate's tmux pane in --teammate-mode tmux (internal: follows its transcript).
  "teammate-view": () => import("./commands/teammate-view.js"),
};

/** Subcommands a person runs; the others are started by Warden itself. */
export const INTERNAL_SUBCOMMANDS: ReadonlySet<string> = new Set(["fleet-session", "teammate", "teammate-view"]);
