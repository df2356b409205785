// What the editor offered in `initialize` (its file system, its terminals), lent to the session's
// tools as the contract's EditorAccess (src/tool/editor.ts). Only what the editor advertised is
// lent: a tool finds the rest absent and uses the disk and its own processes.
import type * as acp from "@agentclientprotocol/sdk/unstable";
import { methods } from "@agentclientprotocol/sdk/unstable";
import type { EditorAccess, EditorExitStatus, EditorTerminal, EditorTerminalRequest } from "../../tool/editor.js";

export interface EditorLink {
  client: acp.AgentContext;
  /** The ACP session the requests belong to (known once the session has been built). */
  sessionId: () => string;
  /** A terminal now runs a tool call's command: the editor is told to show it in that call. */
  onTerminal: (toolCall: NonNullable<EditorTerminalRequest["toolCall"]>, terminalId: string) => Promise<void>;
}

function exitStatusOf(status: acp.TerminalExitStatus | null | undefined): EditorExitStatus | undefined {
  if (!status) return undefined;
  return { exitCode: status.exitCode ?? null, signal: status.signal ?? null };
}

async function createTerminal(link: EditorLink, request: EditorTerminalRequest): Promise<EditorTerminal> {
  const handle = await link.client.createTerminal({
    sessionId: link.sessionId(),
    command: request.command,
    args: request.args,
    cwd: request.cwd,
    env: Object.entries(request.env).map(([name, value]) => ({ name, value })),
    outputByteLimit: request.outputByteLimit,
  });
  if (request.toolCall) await link.onTerminal(request.toolCall, handle.id);
  return {
    id: handle.id,
    async waitForExit() {
      const status = await handle.waitForExit();
      return exitStatusOf(status) ?? { exitCode: null, signal: null };
    },
    async output() {
      const answer = await handle.currentOutput();
      return { output: answer.output, truncated: answer.truncated, exitStatus: exitStatusOf(answer.exitStatus) };
    },
    async kill() {
      await handle.kill();
    },
    async release() {
      await handle.release();
    },
  };
}

export function editorAccess(
  capabilities: acp.ClientCapabilities | undefined,
  link: EditorLink,
): EditorAccess | undefined {
  const access: EditorAccess = {};
  const fs = capabilities?.fs;
  if (fs?.readTextFile || fs?.writeTextFile) {
    access.files = {
      ...(fs.readTextFile && {
        readTextFile: async (path: string) =>
          (await link.client.request(methods.client.fs.readTextFile, { sessionId: link.sessionId(), path })).content,
      }),
      ...(fs.writeTextFile && {
        writeTextFile: async (path: string, content: string) => {
          await link.client.request(methods.client.fs.writeTextFile, { sessionId: link.sessionId(), path, content });
        },
      }),
    };
  }
  if (capabilities?.terminal) access.terminals = { create: (request) => createTerminal(link, request) };
  return access.files || access.terminals ? access : undefined;
}
