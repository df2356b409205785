// MCP servers' requests for a completion from the session's model (sampling), waiting for the
// person one at a time. The session's MCP client hands each one here and waits for a yes or no;
// nothing reaches the model before the person says yes. "Yes, always for this server" is
// remembered for the rest of the process (and written to the user's settings by `remember`, so
// later sessions, headless ones included, let the server sample without asking). A request
// withdrawn meanwhile (the tool call was interrupted) leaves the queue refused.
import type { CreateMessageRequestParams } from "@modelcontextprotocol/sdk/types.js";
import { DialogQueue, type PendingDialog } from "./dialog-queue.js";

/** A server's sampling request, with the server's name so the person knows who asks. */
export interface SamplingQuestion {
  server: string;
  params: CreateMessageRequestParams;
}

export type SamplingChoice = "yes" | "always" | "no";

export type PendingSampling = PendingDialog<SamplingQuestion, SamplingChoice>;

export class SamplingQueue extends DialogQueue<SamplingQuestion, SamplingChoice> {
  private readonly alwaysAllowed = new Set<string>();

  /** `remember` keeps an "always" beyond this process (the CLI writes `mcpSamplingServers`). */
  constructor(private readonly remember: (server: string) => void = () => undefined) {
    super("no");
  }

  /** The session's sampling approval (McpClientFeatures.approveSampling). */
  readonly ask = async (question: SamplingQuestion, signal: AbortSignal): Promise<boolean> => {
    if (this.alwaysAllowed.has(question.server)) return true;
    const choice = await this.enqueue(question, signal);
    if (choice === "always" && !this.alwaysAllowed.has(question.server)) {
      this.alwaysAllowed.add(question.server);
      this.remember(question.server);
      // The same server's other requests waiting behind this one are covered by "always" too.
      for (const other of this.waiting()) if (other.question.server === question.server) other.answer("yes");
    }
    return choice !== "no";
  };
}
