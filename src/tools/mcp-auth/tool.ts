// McpAuth: stands in for the tools of an MCP server that answered 401 (`needs-auth`). Calling it
// starts the OAuth login (src/mcp/auth/) and returns the page the user must open; when they have
// signed in, the server connects and its real tools replace this one. The tool itself only starts
// a listener on 127.0.0.1 and hands back a URL, so it runs without asking; signing in is the user's
// own act in their browser. Tokens never appear in its result.
import * as z from "zod";
import { buildTool } from "../../tool/build-tool.js";
import type { AnyTool } from "../../tool/types.js";
import { mcpAuthDescription, mcpAuthToolName } from "./prompt.js";

/** What the MCP layer gives the tool: how to start signing in to its server. */
export interface McpAuthTarget {
  serverName: string;
  transport: "http" | "sse";
  url: string;
  startAuthentication(): Promise<{ authorizationUrl: string; done: Promise<void> } | "already">;
}

const inputSchema = z.strictObject({});

export interface McpAuthOutput {
  status: "auth_url" | "already_signed_in" | "error";
  message: string;
  authUrl?: string;
}

export function createMcpAuthTool(target: McpAuthTarget): AnyTool {
  const description = mcpAuthDescription(target.serverName, target.transport, target.url);
  return buildTool<Record<string, never>, McpAuthOutput>({
    name: mcpAuthToolName(target.serverName),
    maxResultSizeChars: 10_000,
    shouldDefer: true,
    staticDescription: description,
    mcpInfo: { serverName: target.serverName, toolName: "authenticate" },
    inputSchema,
    description: async () => `Sign in to the ${target.serverName} MCP server`,
    prompt: async () => description,
    isReadOnly: () => false,
    isConcurrencySafe: () => false,
    interruptBehavior: () => "cancel",
    userFacingName: () => `${target.serverName} - authenticate (MCP)`,
    toAutoClassifierInput: () => `sign in to MCP server ${target.serverName}`,
    checkPermissions: async (input) => ({
      behavior: "allow",
      updatedInput: input,
      decisionReason: { type: "tool", reason: "it only shows the user a sign-in page" },
    }),
    async call(_input, context) {
      let started: Awaited<ReturnType<McpAuthTarget["startAuthentication"]>>;
      try {
        started = await target.startAuthentication();
      } catch (error) {
        return {
          data: {
            status: "error",
            message: `Could not start signing in to ${target.serverName}: ${error instanceof Error ? error.message : String(error)}`,
          },
        };
      }
      if (started === "already") {
        return {
          data: {
            status: "already_signed_in",
            message: `${target.serverName} accepted the stored credentials; its tools are available from your next turn.`,
          },
        };
      }
      return {
        data: {
          status: "auth_url",
          authUrl: started.authorizationUrl,
          message: `Ask the user to open this URL in their browser to sign in to ${target.serverName}:\n${started.authorizationUrl}\n${
            context.options.isNonInteractive
              ? `This run is non-interactive: the page works only until the run ends, which gives it up. Tell the user to sign in with \`warden mcp login ${target.serverName}\` and run again.`
              : "Once they have signed in, the server's tools become available (the sign-in waits up to 5 minutes)."
          }`,
        },
      };
    },
    mapToolResult: (output, toolUseId) => ({
      type: "tool_result",
      tool_use_id: toolUseId,
      content: output.message,
      ...(output.status === "error" ? { is_error: true } : {}),
    }),
  });
}
