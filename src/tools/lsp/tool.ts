// LSP: the nine operations of a language server (src/lsp/), for the session's project. Offered
// only when some server can be started here (settings `lspServers`, the built-in TypeScript one,
// pyright), deferred until ToolSearch loads it, read-only and safe to run beside other calls. The
// client code and the server are loaded on the first call. Brings the diagnostics reminder: new
// errors in a file Edit or Write changed (./diagnostics-source.ts).

import { stat } from "node:fs/promises";
import { extname } from "node:path";
import * as z from "zod";
import { LSP_OPERATIONS } from "../../lsp/operation-names.js";
import { serverForFile } from "../../lsp/servers.js";
import type { LspService } from "../../lsp/service.js";
import { buildTool } from "../../tool/build-tool.js";
import type { AnyTool } from "../../tool/types.js";
import { sessionWorkingDirectory } from "../../tool/working-directory.js";
import { deniedByRule, filePermission } from "../file-shared/path-permission.js";
import { isBlockedDevicePath, resolveToolPath, toolPathOrUndefined, withAbsolutePath } from "../file-shared/paths.js";
import { readDenyFilter } from "../file-shared/read-deny-filter.js";
import { diagnosticsSource } from "./diagnostics-source.js";
import { LSP_DESCRIPTION, LSP_PROMPT, LSP_TOOL_NAME } from "./prompt.js";

/** Files above this are refused: a language server would take long to parse them, for little. */
export const LSP_MAX_FILE_BYTES = 10 * 1024 * 1024;

const inputSchema = z.lazy(() =>
  z.strictObject({
    operation: z.enum(LSP_OPERATIONS).describe("The LSP operation to perform"),
    filePath: z.string().describe("The absolute path to the file"),
    line: z.number().int().positive().describe("The line number (1-based, as shown in editors)"),
    character: z.number().int().positive().describe("The character offset (1-based, as shown in editors)"),
  }),
);

export type LspInput = z.infer<typeof inputSchema>;

export interface LspOutput {
  operation: LspInput["operation"];
  filePath: string;
  result: string;
  resultCount: number;
  fileCount: number;
}

export function createLspTool(service: LspService): AnyTool {
  return buildTool<LspInput, LspOutput>({
    name: LSP_TOOL_NAME,
    searchHint: "code intelligence definition references hover symbols call hierarchy",
    maxResultSizeChars: 100_000,
    shouldDefer: true,
    inputSchema,
    attachments: [diagnosticsSource(service)],
    description: async (input) =>
      input?.operation && input.filePath ? `${input.operation} in ${input.filePath}` : LSP_DESCRIPTION,
    prompt: async () => LSP_PROMPT,
    isEnabled: () => service.hasUsableServer(),
    isReadOnly: () => true,
    isConcurrencySafe: () => true,
    fileAccess: "read",
    autoModeSafe: true,
    interruptBehavior: () => "cancel",
    userFacingName: () => "LSP",
    getPath: (input, cwd) => toolPathOrUndefined(input.filePath, cwd),
    withAbsolutePaths: (input, cwd) => withAbsolutePath(input, "filePath", cwd),
    toAutoClassifierInput: (input) => `${input.operation} ${input.filePath}:${input.line}:${input.character}`,
    checkPermissions: async (input, context) =>
      filePermission<LspInput>("read", LSP_TOOL_NAME, input.filePath, context, "filePath"),

    async validateInput(input, context) {
      const resolved = resolveToolPath(input.filePath, sessionWorkingDirectory(context), "filePath");
      if (!resolved.ok) return { result: false, message: resolved.message, errorCode: 1 };
      if (isBlockedDevicePath(resolved.path)) {
        return { result: false, message: `${resolved.path} is a device, not a source file.`, errorCode: 1 };
      }
      // Denied by a rule: the permission check refuses it before the disk is looked at, so whether
      // the file exists is not told.
      if (deniedByRule("read", LSP_TOOL_NAME, resolved.path, context, "filePath")) return { result: true };
      const stats = await stat(resolved.path).catch(() => undefined);
      if (!stats) return { result: false, message: `File does not exist: ${resolved.path}`, errorCode: 2 };
      if (!stats.isFile()) return { result: false, message: `Not a file: ${resolved.path}`, errorCode: 2 };
      if (stats.size > LSP_MAX_FILE_BYTES) {
        return {
          result: false,
          message: `${resolved.path} is ${(stats.size / 1024 / 1024).toFixed(1)} MB; the LSP tool takes files up to 10 MB.`,
          errorCode: 3,
        };
      }
      if (!serverForFile(service.servers, resolved.path)) {
        const handled = [...new Set(service.servers.flatMap((server) => server.extensions))].join(", ");
        // One was set up for this kind of file but cannot run: said, so the model tells the person
        // rather than guessing that nothing was ever configured.
        const ext = extname(resolved.path).toLowerCase();
        const setUp = service.unavailable.find((server) => server.extensions.includes(ext));
        const why = setUp
          ? `: the language server "${setUp.name}" set up for ${ext} files cannot run (${setUp.reason})`
          : "";
        return {
          result: false,
          message: `No language server here handles ${resolved.path}${why}. Files with these extensions can be asked about: ${handled}.`,
          errorCode: 4,
        };
      }
      return { result: true };
    },

    async call(input, context) {
      const cwd = sessionWorkingDirectory(context);
      const resolved = resolveToolPath(input.filePath, cwd, "filePath");
      if (!resolved.ok) throw new Error(resolved.message);
      const [manager, { answer }] = await Promise.all([service.manager(), import("../../lsp/operations.js")]);
      const mayShow = readDenyFilter(LSP_TOOL_NAME, context);
      const found = await answer(
        manager,
        { operation: input.operation, filePath: resolved.path, line: input.line, character: input.character },
        { cwd, signal: context.abortController.signal, ...(mayShow ? { mayShow } : {}) },
      );
      return {
        data: {
          operation: input.operation,
          filePath: resolved.path,
          result: found.text,
          resultCount: found.resultCount,
          fileCount: found.fileCount,
        },
      };
    },

    mapToolResult: (output, toolUseId) => ({ type: "tool_result", tool_use_id: toolUseId, content: output.result }),
  });
}
