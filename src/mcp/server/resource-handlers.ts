// The resource and completion requests of `warden mcp serve`, wired to the SDK's server. Errors a
// client caused (a path it may not read, a file that is not there) go back as JSON-RPC errors with
// the reason; nothing here can stop the server.
import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import type * as McpTypes from "@modelcontextprotocol/sdk/types.js";
import type { AnyTool } from "../../tool/types.js";
import type { CallContextFactory } from "./call-context.js";
import { completePath } from "./completions.js";
import { listPrompts, loadPromptCatalog } from "./prompts.js";
import {
  checkReadable,
  FILE_TEMPLATE,
  listMemoryResources,
  pathOfFileUri,
  ResourceSubscriptions,
  readFileResource,
} from "./resources.js";

export interface ResourceHandlerParts {
  tools: readonly AnyTool[];
  makeCall: CallContextFactory;
  options: { cwd: string };
}

type Types = typeof McpTypes;

export function registerResourceHandlers(server: Server, types: Types, parts: ResourceHandlerParts): void {
  const { tools, makeCall, options } = parts;
  const subscriptions = new ResourceSubscriptions(server);
  const previousOnClose = server.onclose;
  server.onclose = () => {
    subscriptions.closeAll();
    previousOnClose?.();
  };
  const workingDirectories = () => {
    const { context } = makeCall();
    return context.getAppState().toolPermissionContext.workingDirectories;
  };

  server.setRequestHandler(types.ListResourcesRequestSchema, async () => ({
    resources: listMemoryResources(options.cwd),
  }));
  server.setRequestHandler(types.ListResourceTemplatesRequestSchema, async () => ({
    resourceTemplates: [FILE_TEMPLATE],
  }));
  // A ResourceError thrown here reaches the client with its code and message (see rpc-error.ts).
  server.setRequestHandler(types.ReadResourceRequestSchema, async (request) => {
    const path = pathOfFileUri(request.params.uri);
    await checkReadable(path, tools, makeCall);
    return await readFileResource(request.params.uri, path);
  });
  server.setRequestHandler(types.SubscribeRequestSchema, async (request) => {
    const path = pathOfFileUri(request.params.uri);
    await checkReadable(path, tools, makeCall);
    subscriptions.subscribe(request.params.uri, path);
    return {};
  });
  server.setRequestHandler(types.UnsubscribeRequestSchema, async (request) => {
    subscriptions.unsubscribe(request.params.uri);
    return {};
  });
  server.setRequestHandler(types.CompleteRequestSchema, async (request) => {
    const { ref, argument } = request.params;
    const isFileTemplate =
      ref.type === "ref/resource" && ref.uri === FILE_TEMPLATE.uriTemplate && argument.name === "path";
    // A prompt's arguments are completed as paths (what commands are usually given), only for
    // prompts that exist and arguments they take.
    const isPromptArgument =
      ref.type === "ref/prompt" &&
      listPrompts(await loadPromptCatalog(options.cwd)).some(
        (p) => p.name === ref.name && p.arguments.some((a) => a.name === argument.name),
      );
    if (!isFileTemplate && !isPromptArgument) return { completion: { values: [], total: 0, hasMore: false } };
    const completion = await completePath(argument.value, {
      base: options.cwd,
      workingDirectories: workingDirectories(),
      absoluteWithoutSlash: isFileTemplate,
    });
    return { completion };
  });
}
