// Questions MCP servers ask the person (elicitation), waiting to be shown one at a time. The
// session's MCP client hands each one here and waits; only the dialog answers, when the person
// chooses Accept, Decline or Cancel. A question whose request is withdrawn leaves the queue,
// answered "cancel", which nobody will read.
import type { ElicitRequestParams, ElicitResult } from "@modelcontextprotocol/sdk/types.js";
import { DialogQueue, type PendingDialog } from "./dialog-queue.js";

/** A server's question, with the server's name so the person knows who asks. */
export interface ElicitationQuestion {
  server: string;
  params: ElicitRequestParams;
}

export type PendingElicitation = PendingDialog<ElicitationQuestion, ElicitResult>;

export class ElicitationQueue extends DialogQueue<ElicitationQuestion, ElicitResult> {
  constructor() {
    super({ action: "cancel" });
  }

  /** The session's elicitation handler (McpClientFeatures.onElicitation). */
  readonly ask = (question: ElicitationQuestion, signal: AbortSignal): Promise<ElicitResult> =>
    this.enqueue(question, signal);
}
