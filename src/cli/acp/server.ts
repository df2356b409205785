// `warden acp`: Warden as an editor's agent over the Agent Client Protocol (stdio, newline-
// delimited JSON-RPC) with the official SDK. Each ACP session is a Warden session built by the
// same builder as `-p` (plan, then start), from the command line's flags with the editor's folder
// and MCP servers. Prompts stream back as message chunks and tool calls (kind, title, files);
// asks go to the editor as permission requests; modes are the permission modes; cancel stops the
// running prompt.
import { Readable, Writable } from "node:stream";
// The unstable entry: a superset of the stable one that also has session/fork.
import * as acp from "@agentclientprotocol/sdk/unstable";
import type { QueryEvent, TerminalEvent } from "../../loop/events.js";
import { PromptBlockedError, STOP_HOOK_FEEDBACK } from "../../loop/session-hooks.js";
import { deleteSavedSession } from "../../session/session-list.js";
import type { SessionConfig } from "../flags/session-config.js";
import { SessionSetupError } from "../session/setup-error.js";
import { wardenVersion } from "../version.js";
import { availableModes, configOptions, MODE_NAMES, setConfigOption, setMode } from "./config-options.js";
import { historyUpdates } from "./history.js";
import { type AcpSession, openSession } from "./open-session.js";
import { promptText } from "./prompt-content.js";
import { listSessionsPage } from "./session-list.js";

import { announcedToolCall, finishedContent } from "./tool-calls.js";

/** ACP's error code for a session (or other resource) that does not exist. */
const RESOURCE_NOT_FOUND = -32002;

export interface AcpServerOptions {
  /** The session flags given to `warden acp` (model, permission mode, settings...). */
  base: SessionConfig;
  input: NodeJS.ReadableStream;
  output: NodeJS.WritableStream;
  warn: (message: string) => void;
}

/** The session's modes and pickers for the editor, remembered as the mode it now shows. */
function modeState(entry: AcpSession): { modes: acp.SessionModeState; configOptions: acp.SessionConfigOption[] } {
  const mode = entry.built.session.getAppState().toolPermissionContext.mode;
  entry.shownMode = mode;
  return {
    modes: {
      currentModeId: mode,
      availableModes: availableModes(entry).map((id) => ({ id, name: MODE_NAMES[id] })),
    },
    configOptions: configOptions(entry),
  };
}

function stopReasonOf(terminal: TerminalEvent | undefined, cancelled: boolean): acp.StopReason {
  if (cancelled) return "cancelled";
  switch (terminal?.reason) {
    case "max_turns":
    case "max_budget_usd":
      return "max_turn_requests";
    case "max_output_tokens":
      return "max_tokens";
    case "aborted_streaming":
    case "aborted_tools":
      return "cancelled";
    default:
      return "end_turn";
  }
}

export function serveAcp(options: AcpServerOptions): Promise<void> {
  const sessions = new Map<string, AcpSession>();
  const app = acp.agent({ name: "warden" });
  // What the editor offers (its file system, terminals), as it said in initialize.
  let clientCapabilities: acp.ClientCapabilities | undefined;

  app.onRequest(acp.methods.agent.initialize, ({ params }) => {
    clientCapabilities = params.clientCapabilities;
    return {
      protocolVersion: acp.PROTOCOL_VERSION,
      agentCapabilities: {
        loadSession: true,
        // session/fork is in ACP's unstable schema only; not offered until it is stable.
        sessionCapabilities: { list: {}, resume: {}, close: {}, delete: {}, fork: {} },
        promptCapabilities: { image: false, audio: false, embeddedContext: true },
      },
      agentInfo: { name: "warden", title: "Warden", version: wardenVersion() },
      authMethods: [],
    };
  });

  app.onRequest(acp.methods.agent.session.new, async ({ params, client }) => {
    const entry = await openSession({
      ...params,
      base: options.base,
      client,
      capabilities: clientCapabilities,
      warn: options.warn,
    });
    const sessionId = entry.built.session.sessionId;
    sessions.set(sessionId, entry);
    await entry.built.runStartHooks();
    return { sessionId, ...modeState(entry) };
  });

  /** An earlier Warden session (any front end's, by its id) opened again to continue it. */
  const openSaved = async (
    params: { sessionId: string; cwd: string; mcpServers?: acp.McpServer[] | null; fork?: boolean },
    client: acp.AgentContext,
  ): Promise<AcpSession> => {
    if (!params.fork && sessions.has(params.sessionId)) {
      throw acp.RequestError.invalidRequest({ sessionId: params.sessionId }, "this session is already open");
    }
    try {
      return await openSession({
        ...params,
        base: options.base,
        client,
        capabilities: clientCapabilities,
        warn: options.warn,
        resume: params.sessionId,
        fork: params.fork,
      });
    } catch (error) {
      if (error instanceof SessionSetupError) {
        // No such session is "resource not found", as session/delete says it; anything else about
        // the request (its folder, its id's form) is invalid params.
        if (error.sessionNotFound) throw new acp.RequestError(RESOURCE_NOT_FOUND, error.message);
        throw acp.RequestError.invalidParams({ sessionId: params.sessionId }, error.message);
      }
      throw error;
    }
  };

  // Loaded: the conversation is shown again as updates, then the session takes prompts as a new one does.
  app.onRequest(acp.methods.agent.session.load, async ({ params, client }) => {
    const entry = await openSaved(params, client);
    for (const update of historyUpdates(entry.built.plan.resumed?.messages ?? [])) {
      await client.notify(acp.methods.client.session.update, { sessionId: params.sessionId, update });
    }
    sessions.set(params.sessionId, entry);
    await entry.built.runStartHooks();
    return modeState(entry);
  });

  // Resumed: the same, without replaying the conversation (the editor still shows it).
  app.onRequest(acp.methods.agent.session.resume, async ({ params, client }) => {
    const entry = await openSaved(params, client);
    sessions.set(params.sessionId, entry);
    await entry.built.runStartHooks();
    return modeState(entry);
  });

  // Forked: the source's saved conversation goes on under a new id, open at once; the source (open
  // here or not) is left as it is, and its running prompt, if any, is not waited for.
  app.onRequest(acp.methods.agent.session.fork, async ({ params, client }) => {
    const entry = await openSaved({ ...params, fork: true }, client);
    const sessionId = entry.built.session.sessionId;
    sessions.set(sessionId, entry);
    await entry.built.runStartHooks();
    return { sessionId, ...modeState(entry) };
  });

  app.onRequest(acp.methods.agent.session.list, ({ params }) => listSessionsPage(params));

  // Closed: its running prompt is cancelled and its resources (MCP servers, teammates) freed.
  const closeOpen = async (entry: AcpSession, why: string) => {
    if (entry.running) {
      entry.cancelled = true;
      entry.built.commands.interrupt(new Error(why));
      await entry.running.catch(() => undefined);
    }
    await entry.built.close();
  };
  app.onRequest(acp.methods.agent.session.close, async ({ params }) => {
    const entry = sessions.get(params.sessionId);
    if (!entry) throw acp.RequestError.invalidParams({ sessionId: params.sessionId }, "no such session");
    sessions.delete(params.sessionId);
    await closeOpen(entry, "the editor closed the session");
    return {};
  });

  // Deleted: closed first when open here, then its transcript and folder are removed, so it leaves
  // session/list. An unknown id is ACP's "resource not found", which the editor's SDK takes as done.
  app.onRequest(acp.methods.agent.session.delete, async ({ params }) => {
    const entry = sessions.get(params.sessionId);
    if (entry) {
      sessions.delete(params.sessionId);
      await closeOpen(entry, "the editor deleted the session");
    }
    if (!deleteSavedSession(params.sessionId) && !entry)
      throw new acp.RequestError(RESOURCE_NOT_FOUND, `no saved session ${params.sessionId}`);
    return {};
  });

  /** The editor is told the mode changed, in its mode picker and its config options. */
  const showMode = async (client: acp.AgentContext, sessionId: string, entry: AcpSession) => {
    const mode = entry.built.session.getAppState().toolPermissionContext.mode;
    entry.shownMode = mode;
    await client.notify(acp.methods.client.session.update, {
      sessionId,
      update: { sessionUpdate: "config_option_update", configOptions: configOptions(entry) },
    });
    await client.notify(acp.methods.client.session.update, {
      sessionId,
      update: { sessionUpdate: "current_mode_update", currentModeId: mode },
    });
  };

  app.onRequest(acp.methods.agent.session.setMode, async ({ params, client }) => {
    const entry = sessions.get(params.sessionId);
    if (!entry) throw acp.RequestError.invalidParams({ sessionId: params.sessionId }, "no such session");
    setMode(entry, params.modeId);
    await showMode(client, params.sessionId, entry);
    return {};
  });

  // The model (from the next request) or the mode, picked in the editor.
  app.onRequest(acp.methods.agent.session.setConfigOption, async ({ params, client }) => {
    const entry = sessions.get(params.sessionId);
    if (!entry) throw acp.RequestError.invalidParams({ sessionId: params.sessionId }, "no such session");
    await setConfigOption(entry, params, options.warn);
    if (entry.built.session.getAppState().toolPermissionContext.mode !== entry.shownMode) {
      await showMode(client, params.sessionId, entry);
    }
    return { configOptions: configOptions(entry) };
  });

  app.onNotification(acp.methods.agent.session.cancel, ({ params }) => {
    const entry = sessions.get(params.sessionId);
    if (!entry?.running) return;
    entry.cancelled = true;
    entry.built.commands.interrupt(new Error("cancelled in the editor"));
  });

  app.onRequest(acp.methods.agent.session.prompt, async ({ params, client }) => {
    const entry = sessions.get(params.sessionId);
    if (!entry) throw acp.RequestError.invalidParams({ sessionId: params.sessionId }, "no such session");
    if (entry.running) throw acp.RequestError.invalidRequest(undefined, "a prompt is already running in this session");
    entry.cancelled = false;
    const send = (update: acp.SessionUpdate) =>
      client.notify(acp.methods.client.session.update, { sessionId: params.sessionId, update });
    const run = async (): Promise<TerminalEvent | undefined> => {
      const events = entry.built.runPrompt(promptText(params.prompt));
      while (true) {
        const step = await events.next();
        if (step.done) return step.value;
        await forward(step.value);
        await showModeChange();
      }
    };
    // The session changed its own mode (an approved plan left plan mode, an "allow and switch"
    // answer): the editor's mode picker is told, as it is after session/set_mode.
    const showModeChange = async () => {
      if (entry.built.session.getAppState().toolPermissionContext.mode === entry.shownMode) return;
      await showMode(client, params.sessionId, entry);
    };
    const forward = async (event: QueryEvent) => {
      if (event.type === "text_delta") {
        await send({ sessionUpdate: "agent_message_chunk", content: { type: "text", text: event.text } });
      } else if (event.type === "thinking_delta") {
        await send({ sessionUpdate: "agent_thought_chunk", content: { type: "text", text: event.thinking } });
      } else if (event.type === "assistant") {
        for (const block of event.message.content) {
          if (block.type !== "tool_use" || entry.announced.has(block.id)) continue;
          entry.announced.add(block.id);
          await send({ sessionUpdate: "tool_call", ...announcedToolCall(block.id, block.name, block.input) });
        }
      } else if (event.type === "tool_result") {
        const { toolUse, result } = event;
        const terminalId = entry.terminals.get(toolUse.id);
        entry.terminals.delete(toolUse.id);
        if (!entry.announced.has(toolUse.id)) {
          entry.announced.add(toolUse.id);
          await send({ sessionUpdate: "tool_call", ...announcedToolCall(toolUse.id, toolUse.name, toolUse.input) });
        }
        await send({
          sessionUpdate: "tool_call_update",
          toolCallId: toolUse.id,
          status: result.is_error ? "failed" : "completed",
          content: finishedContent(toolUse.name, toolUse.input, result, terminalId),
        });
      } else if (event.type === "user" && event.message.attachment === STOP_HOOK_FEEDBACK) {
        // A Stop hook sent the model back to work: the person sees why the answer goes on, as a
        // loaded session's history shows it, not two answers run together.
        for (const block of event.message.content) {
          if (block.type === "text")
            await send({ sessionUpdate: "user_message_chunk", content: { type: "text", text: block.text } });
        }
      } else if (event.type === "todo") {
        await send({
          sessionUpdate: "plan",
          entries: event.list.items.map((item) => ({
            content: item.content,
            priority: "medium",
            status:
              item.status === "completed" ? "completed" : item.status === "in_progress" ? "in_progress" : "pending",
          })),
        });
      } else if (event.type === "notice") {
        options.warn(event.message);
      }
    };
    const running = run();
    entry.running = running;
    try {
      const terminal = await running;
      // The model request failed (after the provider's retries) or the conversation no longer
      // fits: an error the editor shows for the turn, as Claude Code's ACP agent answers, rather
      // than an `end_turn` with nothing said. The session stays open for the next prompt.
      if (!entry.cancelled && (terminal?.reason === "model_error" || terminal?.reason === "prompt_too_long")) {
        throw acp.RequestError.internalError({ reason: terminal.reason }, terminal.error ?? terminal.reason);
      }
      return { stopReason: stopReasonOf(terminal, entry.cancelled) };
    } catch (error) {
      if (entry.cancelled) return { stopReason: "cancelled" };
      // A UserPromptSubmit hook refused the prompt: nothing reached the model. The person sees
      // the hook's reason, and the turn ends as refused rather than as an internal error.
      if (error instanceof PromptBlockedError) {
        await send({ sessionUpdate: "agent_message_chunk", content: { type: "text", text: error.message } });
        return { stopReason: "refusal" };
      }
      throw error;
    } finally {
      entry.running = undefined;
    }
  });

  const stream = acp.ndJsonStream(
    Writable.toWeb(options.output as Writable) as WritableStream<Uint8Array>,
    Readable.toWeb(options.input as Readable) as ReadableStream<Uint8Array>,
  );
  const connection = app.connect(stream);
  return connection.closed.finally(async () => {
    for (const entry of sessions.values()) {
      entry.built.commands.interrupt(new Error("the editor closed the connection"));
      await entry.built.close();
    }
  });
}
