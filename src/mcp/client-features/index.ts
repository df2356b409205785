// Installs a session's client features on one server's SDK client: the capabilities it declares
// at initialize, and the handlers for the requests and notifications those capabilities invite.

import { basename } from "node:path";
import { pathToFileURL } from "node:url";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { ClientCapabilities } from "@modelcontextprotocol/sdk/types.js";
import { answerElicitation } from "./elicitation.js";
import { answerSampling, SamplingRefused } from "./sampling.js";
import type { McpClientFeatures } from "./types.js";

export { createProviderSampler, MAX_SAMPLING_TOKENS } from "./sampling.js";
export type * from "./types.js";

export const DEFAULT_SERVER_LOG_LEVEL = "warning";

/**
 * What the client tells servers it supports. Elicitation is always declared (form and URL mode):
 * with no one to answer, the answer is a decline, which a server can act on, rather than silence.
 */
export function clientCapabilities(features: McpClientFeatures): ClientCapabilities {
  return {
    elicitation: { form: { applyDefaults: true }, url: {} },
    ...(features.sampler && { sampling: {} }),
    ...(features.roots && { roots: { listChanged: true } }),
  };
}

export function rootsOf(features: McpClientFeatures): Array<{ uri: string; name: string }> {
  return (features.roots?.() ?? []).map((dir) => ({ uri: pathToFileURL(dir).href, name: basename(dir) || dir }));
}

export async function installClientFeatures(
  client: Client,
  server: string,
  features: McpClientFeatures,
): Promise<void> {
  const types = await import("@modelcontextprotocol/sdk/types.js");
  client.setRequestHandler(types.ElicitRequestSchema, (request, extra) =>
    answerElicitation({ server, params: request.params }, features, extra.signal),
  );
  if (features.sampler) {
    client.setRequestHandler(types.CreateMessageRequestSchema, async (request, extra) => {
      try {
        return await answerSampling({ server, params: request.params }, features, extra.signal);
      } catch (error) {
        // The specification's code for a sampling request the user rejected.
        if (error instanceof SamplingRefused) throw new types.McpError(-1, error.message);
        throw error;
      }
    });
  }
  if (features.roots) {
    client.setRequestHandler(types.ListRootsRequestSchema, async () => ({ roots: rootsOf(features) }));
  }
  client.setNotificationHandler(types.ElicitationCompleteNotificationSchema, (notification) => {
    features.onElicitationComplete?.(server, notification.params.elicitationId);
  });
  client.setNotificationHandler(types.LoggingMessageNotificationSchema, (notification) => {
    const { level, logger, data } = notification.params;
    features.onServerLog?.({ server, level, ...(logger !== undefined && { logger }), data });
  });
}

/** After initialize: asks a server that logs to send only what reaches the session's level. */
export async function applyServerLogLevel(
  client: Client,
  features: McpClientFeatures,
  timeoutMs: number,
): Promise<void> {
  if (!client.getServerCapabilities()?.logging) return;
  try {
    await client.setLoggingLevel(features.logLevel ?? DEFAULT_SERVER_LOG_LEVEL, { timeout: timeoutMs });
  } catch {
    // A server that rejects the level keeps its own; its messages are still received.
  }
}
