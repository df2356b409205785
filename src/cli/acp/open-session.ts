// One ACP session opened (session/new) or loaded (session/load): a Warden session built by the same
// builder as `-p` (plan, then start), from the command line's flags with the editor's folder and
// MCP servers, its asks sent to the editor, and the editor's file system and terminals lent to
// its tools when the editor offered them in initialize.
import { type Stats, statSync } from "node:fs";
import { isAbsolute } from "node:path";
import * as acp from "@agentclientprotocol/sdk/unstable";
import type { SessionConfig } from "../flags/session-config.js";
import { planSession } from "../session/plan.js";
import { parseSessionSpec } from "../session/spec.js";
import { type BuiltSession, startSession } from "../session/start.js";
import { editorAccess } from "./editor-access.js";
import { editorAskHandler } from "./permission.js";
import { announcedToolCall } from "./tool-calls.js";

export interface AcpSession {
  built: BuiltSession;
  /** Tool calls already shown to the editor. */
  announced: Set<string>;
  /** The editor terminal each Bash call ran in: its final update keeps showing it. */
  terminals: Map<string, string>;
  cancelled: boolean;
  running?: Promise<unknown>;
  /** The permission mode the editor was last told of (session/new's modes, set_mode, an update). */
  shownMode?: string;
}

export interface OpenSessionRequest {
  base: SessionConfig;
  cwd: string;
  mcpServers?: readonly acp.McpServer[] | null;
  client: acp.AgentContext;
  capabilities: acp.ClientCapabilities | undefined;
  warn: (message: string) => void;
  /** The id of an earlier session to continue (session/load, session/resume), or to fork. */
  resume?: string;
  /** session/fork: the conversation of `resume` goes on under a new id; the source is left as it is. */
  fork?: boolean;
}

/** The editor's MCP servers in Warden's `mcpServers` shape (an --mcp-config value). */
function mcpConfigOf(servers: readonly acp.McpServer[], warn: (message: string) => void): string | undefined {
  const entries: Record<string, unknown> = {};
  for (const server of servers) {
    const pairs = (list: ReadonlyArray<{ name: string; value: string }> | undefined) =>
      Object.fromEntries((list ?? []).map((pair) => [pair.name, pair.value]));
    if ("command" in server) {
      entries[server.name] = { type: "stdio", command: server.command, args: server.args, env: pairs(server.env) };
    } else if (server.type === "acp") {
      // A server reached through the editor's own connection: not offered in initialize (mcpCapabilities).
      warn(`MCP server "${server.name}": servers over the ACP connection are not supported; skipped`);
    } else {
      entries[server.name] = { type: server.type, url: server.url, headers: pairs(server.headers) };
    }
  }
  return Object.keys(entries).length > 0 ? JSON.stringify({ mcpServers: entries }) : undefined;
}

/**
 * Why the editor's folder cannot hold a session, or undefined. Checked before anything is built: a
 * session in a folder that is not there was opened all the same, and every tool then failed in it.
 */
function folderProblem(cwd: string): string | undefined {
  if (!isAbsolute(cwd)) return `cwd ${JSON.stringify(cwd)} must be an absolute path`;
  let stats: Stats;
  try {
    stats = statSync(cwd);
  } catch {
    return `cwd ${cwd} does not exist`;
  }
  return stats.isDirectory() ? undefined : `cwd ${cwd} is not a folder`;
}

export async function openSession(request: OpenSessionRequest): Promise<AcpSession> {
  const { base, client } = request;
  const problem = folderProblem(request.cwd);
  if (problem) throw acp.RequestError.invalidParams({ cwd: request.cwd }, problem);
  const extra = mcpConfigOf(request.mcpServers ?? [], request.warn);
  // The editor's session: the command line's spec with the editor's folder, servers and resume,
  // checked by the spec's schema as every front end's is.
  const config = parseSessionSpec({
    ...base,
    cwd: request.cwd,
    mcpConfig: extra ? [...base.mcpConfig, extra] : [...base.mcpConfig],
    // A loaded session continues under its own id, a forked one under a new id; a new one ignores
    // any --resume of the command line.
    resume: request.resume,
    continueLatest: false,
    ...(request.resume !== undefined && { forkSession: request.fork === true, sessionId: undefined }),
  });
  let sessionId = request.fork ? "" : (request.resume ?? "");
  let entry: AcpSession | undefined;
  const announce = async (id: string, name: string, input: Record<string, unknown>) => {
    if (!entry || entry.announced.has(id)) return;
    entry.announced.add(id);
    await client.notify(acp.methods.client.session.update, {
      sessionId,
      update: { sessionUpdate: "tool_call", ...announcedToolCall(id, name, input) },
    });
  };
  const askHandler = editorAskHandler("", {
    announce,
    // The call was "pending" while it waited for the person; allowed, it is running.
    allowed: async (id) => {
      await client.notify(acp.methods.client.session.update, {
        sessionId,
        update: { sessionUpdate: "tool_call_update", toolCallId: id, status: "in_progress" },
      });
    },
    request: async (permission) => {
      const answer = await client.request(acp.methods.client.session.requestPermission, { ...permission, sessionId });
      return answer.outcome;
    },
  });
  const editor = editorAccess(request.capabilities, {
    client,
    sessionId: () => sessionId,
    onTerminal: async (call, terminalId) => {
      entry?.terminals.set(call.id, terminalId);
      await announce(call.id, call.name, call.input);
      await client.notify(acp.methods.client.session.update, {
        sessionId,
        update: {
          sessionUpdate: "tool_call_update",
          toolCallId: call.id,
          status: "in_progress",
          content: [{ type: "terminal", terminalId }],
        },
      });
    },
  });
  const plan = await planSession(config, {
    warn: request.warn,
    ...(request.resume !== undefined && { resume: request.resume }),
  });
  const built = await startSession(plan, {
    ...(editor && { editor }),
    askHandler,
    isNonInteractive: false,
    warn: request.warn,
  });
  sessionId = built.session.sessionId;
  entry = { built, announced: new Set(), terminals: new Map(), cancelled: false };
  return entry;
}
