// Grep: content search on ripgrep, with the reference's three output modes and pagination.
import { stat } from "node:fs/promises";
import * as path from "node:path";
import * as z from "zod";
import { buildTool } from "../../tool/build-tool.js";
import { prebuiltInputSchema } from "../../tool/schema.js";
import { sessionWorkingDirectory } from "../../tool/working-directory.js";
import { sortByMtimeNewestFirst } from "../file-shared/mtime-sort.js";
import { deniedByRule, filePermission } from "../file-shared/path-permission.js";
import { displayPath, resolveToolPath, toolPathOrUndefined, withAbsolutePath } from "../file-shared/paths.js";
import { readDenyFilter } from "../file-shared/read-deny-filter.js";
import { runRipgrep } from "../file-shared/ripgrep.js";
import { missingFileHint } from "../file-shared/similar-files.js";
import { buildRipgrepArgs, type GrepOutputMode } from "./args.js";
import { type GrepRecord, parseContent, parseCounts, parseFileList } from "./parse-output.js";
import { GREP_DESCRIPTION, GREP_TOOL_NAME, grepPrompt } from "./prompt.js";

export const DEFAULT_HEAD_LIMIT = 250;

const inputSchema = prebuiltInputSchema(GREP_TOOL_NAME, () =>
  z.strictObject({
    pattern: z.string().min(1).describe("The regular expression to search for in file contents"),
    path: z
      .string()
      .optional()
      .describe("Absolute file or folder to search in. Defaults to the current working directory"),
    glob: z.string().optional().describe('Glob to filter files (e.g. "*.js", "*.{ts,tsx}")'),
    output_mode: z
      .enum(["content", "files_with_matches", "count"])
      .optional()
      .describe('"content" shows matching lines, "files_with_matches" (default) file paths, "count" match counts'),
    "-B": z.number().int().min(0).optional().describe("Lines to show before each match (content mode)"),
    "-A": z.number().int().min(0).optional().describe("Lines to show after each match (content mode)"),
    "-C": z.number().int().min(0).optional().describe("Lines to show before and after each match (content mode)"),
    "-n": z.boolean().optional().describe("Show line numbers (content mode, default true)"),
    "-i": z.boolean().optional().describe("Case-insensitive search"),
    type: z.string().optional().describe('ripgrep file type to search (e.g. "js", "py", "rust", "go")'),
    head_limit: z
      .number()
      .int()
      .min(0)
      .optional()
      .describe("Return only the first N results (default 250; 0 = no limit)"),
    offset: z
      .number()
      .int()
      .min(0)
      .optional()
      .describe("Skip the first N results before applying head_limit (default 0)"),
    multiline: z.boolean().optional().describe("Let . match newlines and patterns span lines (default false)"),
  }),
);

export type GrepInput = z.infer<typeof inputSchema>;

const outputSchema = z.lazy(() =>
  z.object({
    mode: z.enum(["content", "files_with_matches", "count"] satisfies GrepOutputMode[]),
    lines: z.array(z.string()).describe("Result lines after pagination (paths relative to cwd when inside it)"),
    total: z.number().int().optional().describe("Results before pagination, when known (content mode may stop early)"),
    offset: z.number().int(),
    truncated: z.boolean().describe("More results exist beyond this page"),
    appliedLimit: z.number().int().optional(),
  }),
);

export type GrepOutput = z.infer<typeof outputSchema>;

function searchRoot(input: GrepInput, cwd: string): string {
  if (!input.path) return cwd;
  const resolved = resolveToolPath(input.path, cwd, "path");
  if (!resolved.ok) throw new Error(resolved.message);
  return resolved.path;
}

export const GrepTool = buildTool<GrepInput, GrepOutput>({
  outputSchema,
  name: GREP_TOOL_NAME,
  searchHint: "search file contents regex ripgrep find text",
  maxResultSizeChars: 20_000,
  inputSchema,
  description: async (input) =>
    input?.pattern ? `Search for ${input.pattern}${input.path ? ` in ${input.path}` : ""}` : GREP_DESCRIPTION,
  prompt: async () => grepPrompt(),
  isReadOnly: () => true,
  fileAccess: "read",
  autoModeSafe: true,
  isConcurrencySafe: () => true,
  interruptBehavior: () => "cancel",
  userFacingName: () => "Search",
  getPath: (input, cwd) => (input.path ? toolPathOrUndefined(input.path, cwd) : undefined),
  withAbsolutePaths: (input, cwd) => withAbsolutePath(input, "path", cwd),
  toAutoClassifierInput: (input) => `${input.pattern}${input.path ? ` in ${input.path}` : ""}`,
  checkPermissions: async (input, context) =>
    filePermission<GrepInput>("read", GREP_TOOL_NAME, input.path ?? sessionWorkingDirectory(context), context, "path"),

  async validateInput(input, context) {
    if (input.path === undefined) return { result: true };
    const resolved = resolveToolPath(input.path, sessionWorkingDirectory(context), "path");
    if (!resolved.ok) return { result: false, message: resolved.message, errorCode: 1 };
    // Denied by a rule: the permission check refuses it, before the disk is looked at.
    if (deniedByRule("read", GREP_TOOL_NAME, resolved.path, context, "path")) return { result: true };
    try {
      await stat(resolved.path);
    } catch {
      return {
        result: false,
        message: `Path does not exist: ${resolved.path}. ${missingFileHint(resolved.path, sessionWorkingDirectory(context))}`,
        errorCode: 1,
      };
    }
    return { result: true };
  },

  async call(input, context) {
    // Results are shown relative to the directory relative paths resolve against, so a path the
    // model copies from them into Read names the same file.
    const cwd = sessionWorkingDirectory(context);
    const root = searchRoot(input, cwd);
    const mode = input.output_mode ?? "files_with_matches";
    const offset = input.offset ?? 0;
    const limit = input.head_limit ?? DEFAULT_HEAD_LIMIT;
    // rg prints paths as it was given them: relative under cwd keeps results short. The search of
    // cwd itself is given as "." (without a path rg may read stdin instead) and "./" is stripped.
    const rgPath = root === cwd ? "." : displayPath(root, cwd);
    const args = buildRipgrepArgs({
      pattern: input.pattern,
      searchPath: rgPath,
      outputMode: mode,
      glob: input.glob,
      type: input.type,
      caseInsensitive: input["-i"],
      lineNumbers: input["-n"],
      before: input["-B"],
      after: input["-A"],
      context: input["-C"],
      multiline: input.multiline,
    });
    // Content lines are not sorted, so rg can stop once the page (and one line to tell whether
    // there is more) has arrived: a broad pattern over a big tree stays cheap.
    const maxLines = mode === "content" && limit > 0 ? offset + limit + 1 : undefined;
    const run = await runRipgrep(args, { cwd, signal: context.abortController.signal, maxLines });
    const stripDotSlash = rgPath === ".";
    let records =
      mode === "files_with_matches"
        ? parseFileList(run.lines, stripDotSlash)
        : mode === "count"
          ? parseCounts(run.lines, stripDotSlash)
          : parseContent(run.lines, stripDotSlash, input["-n"] !== false);
    const mayShow = readDenyFilter(GREP_TOOL_NAME, context);
    if (mayShow) records = dropDenied(records, (p) => mayShow(path.resolve(cwd, p)));
    let results = records.map((r) => r.display);
    if (mode === "files_with_matches") {
      results = await sortByMtimeNewestFirst(results, cwd);
    }
    const page = limit > 0 ? results.slice(offset, offset + limit) : results.slice(offset);
    const truncated = run.stoppedEarly || (limit > 0 && results.length > offset + limit);
    return {
      data: {
        mode,
        lines: page,
        total: run.stoppedEarly ? undefined : results.length,
        offset,
        truncated,
        appliedLimit: truncated ? limit : undefined,
      },
    };
  },

  mapToolResult(output, toolUseId) {
    return { type: "tool_result", tool_use_id: toolUseId, content: renderGrepOutput(output) };
  },
});

/** Drops records of denied files, and the group separators their removal leaves dangling. */
function dropDenied(records: GrepRecord[], mayShow: (path: string) => boolean): GrepRecord[] {
  const verdicts = new Map<string, boolean>();
  const kept: GrepRecord[] = [];
  for (const record of records) {
    if (record.path === undefined) {
      if (kept.length > 0 && kept[kept.length - 1]!.path !== undefined) kept.push(record);
      continue;
    }
    let allowed = verdicts.get(record.path);
    if (allowed === undefined) {
      allowed = mayShow(record.path);
      verdicts.set(record.path, allowed);
    }
    if (allowed) kept.push(record);
  }
  if (kept.length > 0 && kept[kept.length - 1]!.path === undefined) kept.pop();
  return kept;
}

function paginationNote(output: GrepOutput): string {
  if (!output.truncated && output.offset === 0) return "";
  const parts: string[] = [];
  if (output.appliedLimit !== undefined) parts.push(`limit: ${output.appliedLimit}`);
  if (output.offset > 0) parts.push(`offset: ${output.offset}`);
  const more = output.truncated
    ? ` More results exist: use offset: ${output.offset + output.lines.length} to see the next page.`
    : "";
  return `\n\n[Showing results with pagination = ${parts.join(", ")}.${more}]`;
}

export function renderGrepOutput(output: GrepOutput): string {
  const note = paginationNote(output);
  if (output.mode === "files_with_matches") {
    if (output.lines.length === 0)
      return output.offset > 0 ? `No files found at offset ${output.offset}.` : "No files found";
    const count = output.total ?? output.lines.length;
    return `Found ${count} file${count === 1 ? "" : "s"}\n${output.lines.join("\n")}${note}`;
  }
  if (output.mode === "count") {
    if (output.lines.length === 0)
      return output.offset > 0 ? `No matches at offset ${output.offset}.` : "No matches found";
    // rg -c counts matching lines per file (a line with two matches counts once).
    let matchingLines = 0;
    for (const line of output.lines) matchingLines += Number(line.slice(line.lastIndexOf(":") + 1)) || 0;
    const files = output.lines.length;
    return `${output.lines.join("\n")}\n\nFound ${matchingLines} matching line${matchingLines === 1 ? "" : "s"} across ${files} file${files === 1 ? "" : "s"}.${note}`;
  }
  if (output.lines.length === 0)
    return output.offset > 0 ? `No matches at offset ${output.offset}.` : "No matches found";
  return `${output.lines.join("\n")}${note}`;
}
