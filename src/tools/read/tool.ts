// Read: files as the model sees them. Text as numbered lines (bounded by line, size and token
// limits), images as image blocks, PDFs as page text, notebooks as cells with outputs. Every read
// is recorded in readFileState, which is what lets Edit/Write trust the model knows a file. When an
// editor driving the session over ACP lends its file system, text comes from the editor (an open
// buffer's unsaved text), its version recorded as a hash (file-shared/editor-view.ts).
import { readFileSync, type Stats, statSync } from "node:fs";
import { open, stat } from "node:fs/promises";
import * as path from "node:path";
import * as z from "zod";
import type { ToolResultBlock } from "../../messages/types.js";
import { buildTool } from "../../tool/build-tool.js";
import { prebuiltInputSchema } from "../../tool/schema.js";
import type { ToolUseContext } from "../../tool/types.js";
import { sessionWorkingDirectory } from "../../tool/working-directory.js";
import { editorReader, readThroughEditor, textHash } from "../file-shared/editor-view.js";
import { detectEncoding, looksBinary, normalizeLineEndings } from "../file-shared/encoding.js";
import { addLineNumbers } from "../file-shared/line-numbers.js";
import { deniedByRule, filePermission } from "../file-shared/path-permission.js";
import { isBlockedDevicePath, resolveToolPath, toolPathOrUndefined, withAbsolutePath } from "../file-shared/paths.js";
import { missingFileHint } from "../file-shared/similar-files.js";
import { formatBytes } from "../file-shared/text-file.js";
import { BINARY_EXTENSIONS } from "./binary-extensions.js";
import { IMAGE_MEDIA_TYPES, readImageForModel } from "./image.js";
import {
  DEFAULT_LINE_LIMIT,
  estimateTokens,
  MAX_LINE_CHARS,
  MAX_OUTPUT_TOKENS,
  MAX_WHOLE_READ_BYTES,
} from "./limits.js";
import { renderNotebook } from "./notebook.js";
import { parsePageRange, readPdfText } from "./pdf.js";
import { READ_DESCRIPTION, READ_TOOL_NAME, readPrompt } from "./prompt.js";
import { type LineWindow, lineWindowOfBytes, readLineWindow, windowOfText } from "./text-window.js";

const inputSchema = prebuiltInputSchema(READ_TOOL_NAME, () =>
  z.strictObject({
    file_path: z.string().describe("The absolute path of the file to read"),
    // 0 is accepted as "from the start": models often count from 0, and refusing helps nobody.
    offset: z
      .number()
      .int()
      .min(0)
      .optional()
      .describe("The 1-based line number to start reading from. Only give it for files too large to read at once"),
    limit: z
      .number()
      .int()
      .min(1)
      .optional()
      .describe("The number of lines to read. Only give it for files too large to read at once"),
    pages: z.string().optional().describe('PDF page range, e.g. "1-5" or "3". Only for PDF files'),
  }),
);

export type ReadInput = z.infer<typeof inputSchema>;

export type ReadOutput =
  | {
      type: "text";
      filePath: string;
      numbered: string;
      startLine: number;
      numLines: number;
      totalLines?: number;
      hasMore: boolean;
      truncatedLines: number;
    }
  | { type: "empty"; filePath: string; totalLines: number; offset: number }
  | { type: "image"; filePath: string; base64: string; mediaType: string; note: string }
  | { type: "pdf"; filePath: string; text: string; totalPages: number; first: number; last: number }
  | { type: "notebook"; filePath: string; rendered: string; cellCount: number }
  | { type: "unchanged"; filePath: string };

export const ReadTool = buildTool<ReadInput, ReadOutput>({
  name: READ_TOOL_NAME,
  searchHint: "read view open file contents lines image pdf notebook",
  // Read bounds itself; persisting its result would only lead to reading the persisted copy.
  maxResultSizeChars: Number.POSITIVE_INFINITY,
  inputSchema,
  description: async (input) => (input?.file_path ? `Read ${input.file_path}` : READ_DESCRIPTION),
  prompt: async () => readPrompt(),
  isReadOnly: () => true,
  fileAccess: "read",
  autoModeSafe: true,
  isConcurrencySafe: () => true,
  interruptBehavior: () => "cancel",
  userFacingName: () => "Read",
  getPath: (input, cwd) => toolPathOrUndefined(input.file_path, cwd),
  withAbsolutePaths: (input, cwd) => withAbsolutePath(input, "file_path", cwd),
  toAutoClassifierInput: (input) => input.file_path,

  async validateInput(input, context) {
    const resolved = resolveToolPath(input.file_path, sessionWorkingDirectory(context));
    if (!resolved.ok) return { result: false, message: resolved.message, errorCode: 1 };
    const filePath = resolved.path;
    // Denied by a rule: the permission check refuses it, before the disk is looked at.
    if (deniedByRule("read", READ_TOOL_NAME, filePath, context)) return { result: true };
    if (isBlockedDevicePath(filePath)) {
      return {
        result: false,
        message: `Cannot read ${filePath}: it is a device that would block or never end. Read a regular file instead.`,
        errorCode: 9,
      };
    }
    const ext = path.extname(filePath).toLowerCase();
    if (input.pages !== undefined) {
      if (ext !== ".pdf")
        return {
          result: false,
          message: "pages applies only to PDF files; use offset and limit for text.",
          errorCode: 7,
        };
      const range = parsePageRange(input.pages);
      if ("error" in range) return { result: false, message: range.error, errorCode: 8 };
    }
    let stats: Stats;
    try {
      // Synchronous, like the read of a small file below: one stat costs far less than a round
      // trip through Node's thread pool, of which a response with several reads paid two per call.
      stats = statSync(filePath);
    } catch {
      return {
        result: false,
        message: `File does not exist: ${filePath}. ${missingFileHint(filePath, sessionWorkingDirectory(context))}`,
        errorCode: 2,
      };
    }
    if (stats.isDirectory()) {
      return {
        result: false,
        message: `${filePath} is a directory, not a file. Use Glob to list its files.`,
        errorCode: 3,
      };
    }
    if (!stats.isFile()) {
      return {
        result: false,
        message: `${filePath} is not a regular file (a device, socket or pipe) and cannot be read.`,
        errorCode: 9,
      };
    }
    if (BINARY_EXTENSIONS.has(ext)) {
      return {
        result: false,
        message: `${filePath} is a binary ${ext} file, which Read cannot show. Read supports text, images (png, jpg, gif, webp), PDFs and notebooks.`,
        errorCode: 4,
      };
    }
    return { result: true };
  },

  checkPermissions: async (input, context) =>
    filePermission<ReadInput>("read", READ_TOOL_NAME, input.file_path, context),

  async call(input, context) {
    const resolved = resolveToolPath(input.file_path, sessionWorkingDirectory(context));
    if (!resolved.ok) throw new Error(resolved.message);
    const filePath = resolved.path;
    const ext = path.extname(filePath).toLowerCase();
    const signal = context.abortController.signal;

    const mediaType = IMAGE_MEDIA_TYPES[ext];
    if (mediaType) {
      const image = await readImageForModel(filePath, mediaType);
      const resizedNote =
        image.width !== image.originalWidth || image.height !== image.originalHeight
          ? ` (scaled from ${image.originalWidth}x${image.originalHeight} to ${image.width}x${image.height})`
          : ` (${image.width}x${image.height})`;
      return {
        data: {
          type: "image",
          filePath,
          base64: image.base64,
          mediaType: image.mediaType,
          note: `Image ${filePath}, ${formatBytes(image.originalBytes)}${resizedNote}.`,
        },
      };
    }
    if (ext === ".pdf") {
      const range = input.pages === undefined ? undefined : parsePageRange(input.pages);
      const pdf = await readPdfText(filePath, range && !("error" in range) ? range : undefined);
      return { data: { type: "pdf", filePath, ...pdf } };
    }
    if (ext === ".ipynb") return { data: await readNotebook(filePath, context) };
    return { data: await readText(filePath, input, context, signal) };
  },

  mapToolResult(output, toolUseId): ToolResultBlock {
    return { type: "tool_result", tool_use_id: toolUseId, content: renderReadOutput(output) };
  },
});

async function readNotebook(filePath: string, context: ToolUseContext): Promise<ReadOutput> {
  const stats = await stat(filePath);
  const handle = await open(filePath, "r");
  let text: string;
  try {
    text = await handle.readFile("utf8");
  } finally {
    await handle.close();
  }
  const { rendered, cellCount } = renderNotebook(text, filePath);
  if (estimateTokens(rendered) > MAX_OUTPUT_TOKENS) {
    throw new Error(
      `${filePath} is too large to show at once (about ${estimateTokens(rendered)} tokens, limit ${MAX_OUTPUT_TOKENS}). Use Bash with jq to read parts of it, e.g. jq '.cells[:20]'.`,
    );
  }
  context.readFileState.set(filePath, { content: normalizeLineEndings(text), timestamp: stats.mtimeMs, offset: 1 });
  return { type: "notebook", filePath, rendered, cellCount };
}

async function readText(
  filePath: string,
  input: ReadInput,
  context: ToolUseContext,
  signal: AbortSignal,
): Promise<ReadOutput> {
  // Synchronous: see validateInput.
  const stats = statSync(filePath);
  const offset = Math.max(1, input.offset ?? 1);
  const limit = input.limit;

  // Same window of an unchanged file: the model already has it. Only records made by Read carry
  // an offset; after Edit/Write the model must see the new content, so those records never match.
  // The editor's text, when the editor driving the session reads files (its unsaved buffer is
  // what the person sees); its version is a hash, a buffer having no mtime.
  const fromEditor = editorReader(context);
  const previous = context.readFileState.get(filePath);
  // (Not when that earlier result has left the conversation: the note would point at nothing.)
  const sameWindow =
    previous !== undefined && !previous.outOfView && previous.offset === offset && previous.limit === limit;
  if (!fromEditor && sameWindow && previous.timestamp === stats.mtimeMs) {
    return { type: "unchanged", filePath };
  }

  const wholeReadTooLarge = (bytes: number) => {
    if (input.offset !== undefined || input.limit !== undefined || bytes <= MAX_WHOLE_READ_BYTES) return;
    throw new Error(
      `${filePath} is ${formatBytes(bytes)}, over the ${formatBytes(MAX_WHOLE_READ_BYTES)} limit for reading a whole file. Read it in parts with offset and limit (e.g. offset: 1, limit: 500), or use Grep to find the part you need.`,
    );
  };
  wholeReadTooLarge(stats.size);

  // A small regular file is read whole in one synchronous call: that costs less than a single
  // round trip through Node's thread pool, and reading it in steps took seven of them (open, read,
  // close for the head; open, reads, close for the window), which added up when a response asks
  // for several files at once. A larger file (or a FIFO, which could block) is read in steps.
  const whole = !fromEditor && stats.isFile() && stats.size <= SMALL_FILE_BYTES ? readFileSync(filePath) : undefined;
  const head = whole ? whole.subarray(0, HEAD_BYTES) : await readHead(filePath);
  const encoding = detectEncoding(head);
  if (encoding !== "utf16le" && looksBinary(head)) {
    throw new Error(`${filePath} appears to be a binary file, which Read cannot show as text.`);
  }

  const windowOptions = { offset, limit: limit ?? DEFAULT_LINE_LIMIT, maxLineChars: MAX_LINE_CHARS };
  let sourceHash: string | undefined;
  let window: LineWindow;
  if (fromEditor) {
    const text = await readThroughEditor(fromEditor, filePath);
    wholeReadTooLarge(Buffer.byteLength(text));
    sourceHash = textHash(text);
    if (sameWindow && previous.sourceHash === sourceHash) return { type: "unchanged", filePath };
    window = windowOfText(text, windowOptions);
  } else if (whole) {
    window = lineWindowOfBytes(whole, { ...windowOptions, encoding });
  } else {
    window = await readLineWindow(filePath, { ...windowOptions, encoding, signal });
  }

  if (window.lines.length === 0) {
    // An empty file has been read in full: record it so that it can be filled with Edit or Write.
    if (window.totalLines === 0)
      context.readFileState.set(filePath, { content: "", timestamp: stats.mtimeMs, offset, limit, sourceHash });
    return { type: "empty", filePath, totalLines: window.totalLines ?? 0, offset };
  }
  const numbered = addLineNumbers(window.lines, offset);
  if (estimateTokens(numbered) > MAX_OUTPUT_TOKENS) {
    throw new Error(
      `The requested part of ${filePath} is about ${estimateTokens(numbered)} tokens, over the ${MAX_OUTPUT_TOKENS}-token limit for one read. Read fewer lines at a time with offset and limit.`,
    );
  }
  // A complete, uncut read is recorded exactly (final newline included) so that a later content
  // comparison can tell "mtime moved, content the same" from a real change.
  const complete = window.totalLines !== undefined && window.truncatedLines === 0;
  context.readFileState.set(filePath, {
    content: window.lines.join("\n") + (complete && window.endsWithNewline ? "\n" : ""),
    timestamp: stats.mtimeMs,
    offset,
    limit,
    sourceHash,
  });
  return {
    type: "text",
    filePath,
    numbered,
    startLine: offset,
    numLines: window.lines.length,
    totalLines: window.totalLines,
    hasMore: window.hasMore,
    truncatedLines: window.truncatedLines,
  };
}

/** What the encoding and binary checks look at. */
const HEAD_BYTES = 8192;
/** Files up to this size are read whole at once (see readText). */
const SMALL_FILE_BYTES = 64 * 1024;

async function readHead(filePath: string): Promise<Buffer> {
  const handle = await open(filePath, "r");
  try {
    const buffer = Buffer.alloc(HEAD_BYTES);
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

export function renderReadOutput(output: ReadOutput): ToolResultBlock["content"] {
  switch (output.type) {
    case "unchanged":
      return `File unchanged since last read: ${output.filePath} has not changed and this is the same part you read before. Refer to that earlier result instead of reading it again.`;
    case "empty":
      return output.totalLines === 0
        ? `<system-reminder>Warning: ${output.filePath} exists but is empty.</system-reminder>`
        : `<system-reminder>Warning: ${output.filePath} has only ${output.totalLines} line(s), fewer than the offset ${output.offset}.</system-reminder>`;
    case "text": {
      const notes: string[] = [];
      const last = output.startLine + output.numLines - 1;
      if (output.hasMore) {
        notes.push(
          `(Showing lines ${output.startLine}-${last}; the file continues. Use offset: ${last + 1} to read on.)`,
        );
      }
      if (output.truncatedLines > 0) notes.push(`(${output.truncatedLines} long line(s) were cut.)`);
      return notes.length ? `${output.numbered}\n\n${notes.join("\n")}` : output.numbered;
    }
    case "image":
      return [
        { type: "text", text: output.note },
        { type: "image", source: { type: "base64", media_type: output.mediaType, data: output.base64 } },
      ];
    case "pdf":
      return `PDF ${output.filePath}: pages ${output.first}-${output.last} of ${output.totalPages}\n${output.text}`;
    case "notebook":
      return `Notebook ${output.filePath} (${output.cellCount} cells):\n${output.rendered}`;
  }
}
