// Changing a session's MCP servers while it runs: the Agent SDK's mcp_set_servers, mcp_reconnect
// and mcp_toggle, and the interactive /mcp command (which also approves a project server). Each
// change goes through the session's McpClientManager, whose listeners hand the new tool list to the
// engine: tools that come or go are told to the model as a delta, the system prompt stays as it was.

import type { McpResourceContents } from "../tool/mcp-resource-source.js";
import type { McpServerEntry } from "./config.js";
import { parseServerConfig } from "./config.js";
import type { McpClientManager, McpServerSnapshot } from "./manager.js";
import { hashServerConfig } from "./remembered-tools.js";

/** What mcp_set_servers answers, in the Agent SDK's McpSetServersResult shape. */
export interface McpSetServersOutcome {
  added: string[];
  removed: string[];
  /** Server name → why it is not running (a bad entry, a failed connection). */
  errors: Record<string, string>;
}

export interface McpLiveControl {
  /** Every server as it stands now (none before the first server is added to a session without any). */
  servers(): McpServerSnapshot[];
  /**
   * Replaces the servers an earlier call named with these (name → configuration as in
   * `mcpServers`): a server left out that an earlier call named is removed, a changed one
   * restarted, an unchanged one left alone. The session's configured servers stay unless named.
   * Resolves once each added server has connected or failed.
   */
  setServers(servers: Record<string, unknown>): Promise<McpSetServersOutcome>;
  /** Connects a server afresh; throws when there is none of that name, it is off, or it fails. */
  reconnect(name: string): Promise<McpServerSnapshot>;
  /**
   * Turns a server off or on, and remembers it for the project (settings `disabledMcpServers` in
   * .warden/settings.local.json), so later sessions here do not start a server turned off. Throws,
   * changing nothing, when that file cannot be updated (not valid JSON, a list that is not one of
   * names); turning on throws when the server cannot connect (it stays on).
   */
  setEnabled(name: string, enabled: boolean): Promise<McpServerSnapshot>;
  /**
   * Approves a project server (.mcp.json, project settings) for this folder in the user's local
   * settings, and starts it. Throws when it is not a project server waiting for approval, or when
   * it still cannot run (a folder that is not trusted).
   */
  approve(name: string): Promise<McpServerSnapshot>;
  /**
   * Reads a resource of a connected server (the Agent SDK's mcp_read_resource). Throws, naming
   * the cause, when there is no such server or it is off, failed or not connected yet.
   */
  readResource(server: string, uri: string, signal?: AbortSignal): Promise<McpResourceContents[]>;
}

export interface LiveControlDeps {
  cwd: string;
  /** The session's manager, made (with no servers) when the session started without any. */
  manager(): Promise<McpClientManager>;
  /** The session's configuration read again, counting `approved` as approved by the user. */
  configuredEntry(name: string, approved: readonly string[]): McpServerEntry | undefined;
  /** Servers turned off for the project: read at start, kept up to date here (the manager consults it). */
  disabledForProject: Set<string>;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function sameConfig(a: McpServerSnapshot["config"], b: McpServerEntry["config"]): boolean {
  return a !== undefined && b !== undefined && hashServerConfig(a) === hashServerConfig(b);
}

export function createLiveControl(deps: LiveControlDeps, current: () => McpClientManager | undefined): McpLiveControl {
  /** Names the last setServers call named: the next call removes those it leaves out. */
  let named = new Set<string>();
  const approved: string[] = [];

  return {
    servers: () => current()?.snapshots() ?? [],

    async setServers(servers) {
      if (!isRecord(servers)) throw new Error("servers must be an object of server name to configuration");
      const manager = await deps.manager();
      const outcome: McpSetServersOutcome = { added: [], removed: [], errors: {} };
      const wanted: McpServerEntry[] = [];
      for (const [name, raw] of Object.entries(servers)) {
        const entry = parseServerConfig(name, raw, "dynamic", "mcp_set_servers");
        if (entry.config) wanted.push(entry);
        else outcome.errors[name] = entry.problem ?? "the configuration cannot be used";
      }
      for (const name of named) {
        if (Object.hasOwn(servers, name)) continue;
        if (await manager.removeServer(name)) outcome.removed.push(name);
      }
      // A bad entry for a server an earlier call added leaves that server as it was, still removable.
      named = new Set([...wanted.map((e) => e.name), ...[...named].filter((n) => Object.hasOwn(outcome.errors, n))]);
      const before = new Map(manager.snapshots().map((s) => [s.name, s]));
      await Promise.all(
        wanted.map(async (entry) => {
          const existing = before.get(entry.name);
          if (existing && sameConfig(existing.config, entry.config)) return;
          const added = await manager.addServer(entry);
          outcome.added.push(entry.name);
          if (added.disabledByUser) {
            outcome.errors[entry.name] =
              "disabled: turned off for this project (disabledMcpServers in .warden/settings.local.json); turn it on with mcp_toggle";
          } else if (added.state !== "connected") {
            outcome.errors[entry.name] = `${added.state}: ${added.error ?? "no reason given"}`;
          }
        }),
      );
      outcome.added.sort();
      return outcome;
    },

    async reconnect(name) {
      return (await deps.manager()).reconnect(name);
    },

    async setEnabled(name, enabled) {
      const manager = await deps.manager();
      if (!manager.snapshots().some((s) => s.name === name)) throw new Error(`No MCP server named "${name}"`);
      const { setMcpServerDisabledForProject } = await import("./config-edit.js");
      try {
        setMcpServerDisabledForProject(deps.cwd, name, !enabled);
      } catch (error) {
        const why = error instanceof Error ? error.message : String(error);
        throw new Error(`MCP server "${name}" was not turned ${enabled ? "on" : "off"}: ${why}`);
      }
      if (enabled) deps.disabledForProject.delete(name);
      else deps.disabledForProject.add(name);
      return manager.setEnabled(name, enabled);
    },

    async approve(name) {
      const manager = await deps.manager();
      const server = manager.snapshots().find((s) => s.name === name);
      if (!server) throw new Error(`No MCP server named "${name}"`);
      if (server.scope !== "mcpjson" && server.scope !== "project") {
        throw new Error(`MCP server "${name}" is not a project server; it needs no approval`);
      }
      if (server.config) throw new Error(`MCP server "${name}" is already approved`);
      const { approveProjectMcpServer } = await import("./config-edit.js");
      approveProjectMcpServer(deps.cwd, name);
      approved.push(name);
      const entry = deps.configuredEntry(name, approved);
      if (!entry?.config) throw new Error(`MCP server "${name}" still cannot run: ${entry?.problem ?? "not found"}`);
      return manager.addServer(entry);
    },

    async readResource(server, uri, signal) {
      const manager = current();
      const found = manager?.snapshots().find((s) => s.name === server);
      if (!manager || !found) throw new Error(`No MCP server named "${server}"`);
      if (found.state !== "connected") {
        const why = found.disabledByUser ? "turned off" : found.state;
        throw new Error(
          `MCP server "${server}" is ${why}${found.error ? ` (${found.error})` : ""}; reconnect it first`,
        );
      }
      return manager.readResource(server, uri, signal);
    },
  };
}
