// Elicitation and ElicitationResult (Claude Code's hooks reference): an MCP server asks the user
// for input. Elicitation hooks see the question first and may answer it themselves
// (`hookSpecificOutput.action` accept/decline/cancel with `content`), so nobody is asked;
// ElicitationResult hooks see the answer before it goes back and may replace it. Exit code 2 or
// `decision: "block"` declines. An accepted answer is still checked against the server's form
// (src/mcp/client-features/elicitation.ts), whoever gave it.
import type { HookOutcome } from "./hook-output.js";

/** A server's question as the hooks see it (the MCP client's request fits; hooks do not import it). */
export interface ElicitationQuestion {
  server: string;
  params: { message: string; mode?: string; url?: string; elicitationId?: string; requestedSchema?: unknown };
}

/** An answer to a question: the user's, or one a hook gives. */
export interface ElicitationReply {
  action: "accept" | "decline" | "cancel";
  content?: Record<string, unknown>;
}

export interface ElicitationAnswer {
  /** The hooks' answer; absent when none gave one (the question goes on, or the answer stands). */
  answer?: ElicitationReply;
  errors: string[];
}

/** The Elicitation hook's input (Claude Code's field names). */
export function elicitationInput(request: ElicitationQuestion): Record<string, unknown> {
  const { params } = request;
  return {
    mcp_server_name: request.server,
    message: params.message,
    mode: params.mode === "url" ? "url" : "form",
    ...(params.mode === "url"
      ? { url: params.url, elicitation_id: params.elicitationId }
      : { requested_schema: params.requestedSchema }),
  };
}

export function resultInput(request: ElicitationQuestion, result: ElicitationReply): Record<string, unknown> {
  const { params } = request;
  return {
    mcp_server_name: request.server,
    ...(params.mode === "url" && { elicitation_id: params.elicitationId }),
    mode: params.mode === "url" ? "url" : "form",
    action: result.action,
    ...(result.content !== undefined && { content: result.content }),
  };
}

/** The first hook that blocks or answers decides; a failed hook is reported and decides nothing. */
export function foldElicitation(outcomes: readonly HookOutcome[], blockReason: string): ElicitationAnswer {
  const errors: string[] = [];
  let answer: ElicitationReply | undefined;
  for (const outcome of outcomes) {
    if (outcome.kind === "failed") {
      errors.push(outcome.message);
      continue;
    }
    if (answer) continue;
    if (outcome.kind === "blocking" || outcome.json?.decision === "block") {
      answer = { action: "decline" };
      const why = outcome.kind === "blocking" ? outcome.message : (outcome.json?.reason ?? blockReason);
      errors.push(`${blockReason}: ${why}`);
      continue;
    }
    const specific = outcome.json?.hookSpecificOutput;
    if (specific?.action === undefined) continue;
    answer =
      specific.action === "accept"
        ? { action: "accept", content: specific.content ?? {} }
        : { action: specific.action };
  }
  return answer ? { answer, errors } : { errors };
}
