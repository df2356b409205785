// Files as MCP resources for `warden mcp serve`: the memory files listed by name, and any file under
// the working directories through the `file:///{+path}` template. Every read is a Read as far as
// the permission engine is concerned, so a path a Read would be refused (a deny rule, outside the
// working directories with nobody to ask) is refused here too. Subscriptions watch the file and
// tell the client when it changes.
import { type FSWatcher, watch } from "node:fs";
import { readFile, stat } from "node:fs/promises";
import { basename, extname, isAbsolute } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import type { ReadResourceResult, Resource, ResourceTemplate } from "@modelcontextprotocol/sdk/types.js";
import { loadMemoryFiles } from "../../config/memory.js";
import { findToolByName } from "../../tool/pool.js";
import type { AnyTool } from "../../tool/types.js";
import { BINARY_EXTENSIONS } from "../../tools/read/binary-extensions.js";
import type { CallContextFactory } from "./call-context.js";
import { RpcError } from "./rpc-error.js";

/** Larger files are refused: a resource is read whole, and a client should not pull a disk image through it. */
export const MAX_RESOURCE_BYTES = 10 * 1024 * 1024;

export const FILE_TEMPLATE: ResourceTemplate = {
  uriTemplate: "file:///{+path}",
  name: "file",
  title: "A file under the working directories",
  description: "Any file under the server's working directories, read under the same permission rules as Read.",
};

const TEXT_TYPES: Record<string, string> = {
  ".md": "text/markdown",
  ".json": "application/json",
  ".ts": "text/x-typescript",
  ".js": "text/javascript",
  ".mjs": "text/javascript",
  ".html": "text/html",
  ".css": "text/css",
  ".yml": "application/yaml",
  ".yaml": "application/yaml",
};
const IMAGE_TYPES: Record<string, string> = {
  ".png": "image/png",
  ".jpg": "image/jpeg",
  ".jpeg": "image/jpeg",
  ".gif": "image/gif",
  ".webp": "image/webp",
  ".pdf": "application/pdf",
};

/** A refusal the handlers turn into a JSON-RPC error with this code. */
/** A resource request refused, with its JSON-RPC code (sent as it is: see rpc-error.ts). */
export class ResourceError extends RpcError {}

// JSON-RPC codes: the MCP specification's "resource not found", and the generic invalid request.
export const RESOURCE_NOT_FOUND = -32002;
export const INVALID_REQUEST = -32600;

export function listMemoryResources(cwd: string): Resource[] {
  return loadMemoryFiles(cwd).map((file) => ({
    uri: pathToFileURL(file.path).href,
    name: basename(file.path),
    title: `${file.scope} memory file`,
    description: `Standing instructions (${file.scope}): ${file.path}`,
    mimeType: "text/markdown",
  }));
}

export function pathOfFileUri(uri: string): string {
  let path: string;
  try {
    if (!uri.startsWith("file:")) throw new Error("not a file: URI");
    path = fileURLToPath(uri);
  } catch {
    throw new ResourceError(INVALID_REQUEST, `Only file:// resources are served, not ${uri}`);
  }
  if (!isAbsolute(path)) throw new ResourceError(INVALID_REQUEST, `Not an absolute file URI: ${uri}`);
  return path;
}

/**
 * Asks the permission engine whether a Read of `path` may run, as a call from this client would;
 * refuses with the engine's reason otherwise.
 */
export async function checkReadable(path: string, tools: readonly AnyTool[], makeContext: CallContextFactory) {
  const read = findToolByName(tools, "Read");
  if (!read) throw new ResourceError(INVALID_REQUEST, "Reading files is not allowed here (the Read tool is denied).");
  const { context, canUseTool, toolUseId } = makeContext();
  const input = { file_path: path };
  const decision = await canUseTool(read, input, context, undefined, toolUseId);
  if (decision.behavior !== "allow") {
    // The engine's message names the file and why; said once.
    const reason =
      "message" in decision && decision.message ? decision.message : `Permission to read ${path} was denied.`;
    throw new ResourceError(INVALID_REQUEST, reason);
  }
}

export async function readFileResource(uri: string, path: string): Promise<ReadResourceResult> {
  let size: number;
  try {
    const info = await stat(path);
    if (!info.isFile()) throw new ResourceError(RESOURCE_NOT_FOUND, `${path} is not a file`);
    size = info.size;
  } catch (error) {
    if (error instanceof ResourceError) throw error;
    throw new ResourceError(RESOURCE_NOT_FOUND, `Resource not found: ${uri}`);
  }
  if (size > MAX_RESOURCE_BYTES) {
    throw new ResourceError(
      INVALID_REQUEST,
      `${path} is ${size} bytes, more than the ${MAX_RESOURCE_BYTES} a resource may be`,
    );
  }
  const extension = extname(path).toLowerCase();
  const bytes = await readFile(path);
  const imageType = IMAGE_TYPES[extension];
  if (imageType || BINARY_EXTENSIONS.has(extension) || bytes.includes(0)) {
    const mimeType = imageType ?? "application/octet-stream";
    return { contents: [{ uri, mimeType, blob: bytes.toString("base64") }] };
  }
  return { contents: [{ uri, mimeType: TEXT_TYPES[extension] ?? "text/plain", text: bytes.toString("utf8") }] };
}

/**
 * Watches subscribed files and sends `notifications/resources/updated` when one changes. One
 * watcher per URI; a file that cannot be watched (gone, a filesystem without events) is reported
 * as an error to the subscriber.
 */
export class ResourceSubscriptions {
  private readonly watchers = new Map<string, FSWatcher>();

  constructor(private readonly server: Server) {}

  subscribe(uri: string, path: string): void {
    if (this.watchers.has(uri)) return;
    let watcher: FSWatcher;
    try {
      watcher = watch(path, { persistent: false }, () => {
        void this.server.sendResourceUpdated({ uri }).catch(() => undefined);
      });
    } catch (error) {
      throw new ResourceError(RESOURCE_NOT_FOUND, `Cannot watch ${path}: ${(error as Error).message}`);
    }
    watcher.on("error", () => this.unsubscribe(uri));
    this.watchers.set(uri, watcher);
  }

  unsubscribe(uri: string): void {
    this.watchers.get(uri)?.close();
    this.watchers.delete(uri);
  }

  closeAll(): void {
    for (const watcher of this.watchers.values()) watcher.close();
    this.watchers.clear();
  }
}
