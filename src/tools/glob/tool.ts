// Glob: file names matching a pattern, newest first. The file list comes from `rg --files`, which
// walks the tree in parallel and applies every .gitignore (nested ones too, with git's rules); the
// pattern is then matched with picomatch, so "*.ts" means top-level files and "**/*.ts" all of
// them, as in a shell. (Measured against tinyglobby + ignore in bench/files.bench.ts.)
import { stat } from "node:fs/promises";
import * as path from "node:path";
import picomatch from "picomatch";
import * as z from "zod";
import { buildTool } from "../../tool/build-tool.js";
import { prebuiltInputSchema } from "../../tool/schema.js";
import { sessionWorkingDirectory } from "../../tool/working-directory.js";
import { sortByMtimeNewestFirst } from "../file-shared/mtime-sort.js";
import { deniedByRule, filePermission } from "../file-shared/path-permission.js";
import { displayPath, resolveToolPath, withAbsolutePath } from "../file-shared/paths.js";
import { readDenyFilter } from "../file-shared/read-deny-filter.js";
import { runRipgrep, VCS_DIRECTORY_GLOB } from "../file-shared/ripgrep.js";
import { missingFileHint } from "../file-shared/similar-files.js";
import { GLOB_DESCRIPTION, GLOB_TOOL_NAME, globPrompt } from "./prompt.js";

export const GLOB_RESULT_LIMIT = 100;

const inputSchema = prebuiltInputSchema(GLOB_TOOL_NAME, () =>
  z.strictObject({
    pattern: z.string().min(1).describe("The glob pattern to match file paths against"),
    path: z
      .string()
      .optional()
      .describe(
        "Absolute folder to search in. Omit it to search the current working directory (do not pass 'undefined' or 'null')",
      ),
  }),
);

export type GlobInput = z.infer<typeof inputSchema>;

const outputSchema = z.lazy(() =>
  z.object({
    filenames: z
      .array(z.string())
      .describe("Matching files (relative to the working directory when inside it), most recently modified first"),
    numFiles: z.number().int(),
    truncated: z.boolean().describe("More files matched than were returned"),
    durationMs: z.number(),
  }),
);

export type GlobOutput = z.infer<typeof outputSchema>;

/** Where to walk and what to match: an absolute pattern or one with a fixed prefix narrows the walk. */
export function planGlob(pattern: string, searchDir: string): { root: string; pattern: string } {
  const absolute = path.isAbsolute(pattern);
  const scan = picomatch.scan(pattern);
  if (!scan.isGlob) {
    const full = absolute ? pattern : path.join(searchDir, pattern);
    return { root: path.dirname(full), pattern: path.basename(full) };
  }
  const base = scan.base;
  const root = absolute ? base || "/" : base ? path.join(searchDir, base) : searchDir;
  return { root, pattern: scan.glob };
}

/** The folder a call walks (undefined when its path is invalid). */
export function globWalkRoot(input: GlobInput, cwd: string): string | undefined {
  let searchDir = cwd;
  if (input.path) {
    const resolved = resolveToolPath(input.path, cwd, "path");
    if (!resolved.ok) return undefined;
    searchDir = resolved.path;
  }
  return path.resolve(planGlob(input.pattern, searchDir).root);
}

export async function globFiles(
  pattern: string,
  searchDir: string,
  signal: AbortSignal,
): Promise<{ files: string[]; root: string }> {
  const plan = planGlob(pattern, searchDir);
  try {
    if (!(await stat(plan.root)).isDirectory()) return { files: [], root: plan.root };
  } catch {
    return { files: [], root: plan.root };
  }
  const run = await runRipgrep(["--files", "--hidden", "--glob", VCS_DIRECTORY_GLOB, "--color", "never"], {
    cwd: plan.root,
    signal,
  });
  const isMatch = picomatch(plan.pattern, { dot: true });
  const files = run.lines.filter((line) => line !== "" && isMatch(line)).map((rel) => path.join(plan.root, rel));
  return { files, root: plan.root };
}

export const GlobTool = buildTool<GlobInput, GlobOutput>({
  outputSchema,
  name: GLOB_TOOL_NAME,
  searchHint: "find files by name pattern wildcard list",
  maxResultSizeChars: 100_000,
  inputSchema,
  description: async (input) => (input?.pattern ? `Find files matching ${input.pattern}` : GLOB_DESCRIPTION),
  prompt: async () => globPrompt(),
  isReadOnly: () => true,
  fileAccess: "read",
  autoModeSafe: true,
  isConcurrencySafe: () => true,
  interruptBehavior: () => "cancel",
  userFacingName: () => "Search",
  getPath: (input, cwd) => (input.path || path.isAbsolute(input.pattern) ? globWalkRoot(input, cwd) : undefined),
  withAbsolutePaths: (input, cwd) => withAbsolutePath(input, "path", cwd),
  toAutoClassifierInput: (input) => `${input.pattern}${input.path ? ` in ${input.path}` : ""}`,
  // The folder actually walked is what needs read permission: "../../etc/*" or "/etc/**" walk
  // outside the path given (or the cwd), and must be judged there.
  checkPermissions: async (input, context) =>
    filePermission<GlobInput>(
      "read",
      GLOB_TOOL_NAME,
      globWalkRoot(input, sessionWorkingDirectory(context)) ?? input.path ?? "",
      context,
      "path",
    ),

  async validateInput(input, context) {
    if (input.path === undefined) return { result: true };
    const resolved = resolveToolPath(input.path, sessionWorkingDirectory(context), "path");
    if (!resolved.ok) return { result: false, message: resolved.message, errorCode: 1 };
    // Denied by a rule: the permission check refuses it, before the disk is looked at.
    if (deniedByRule("read", GLOB_TOOL_NAME, resolved.path, context, "path")) return { result: true };
    try {
      if (!(await stat(resolved.path)).isDirectory()) {
        return {
          result: false,
          message: `path is not a folder: ${resolved.path}. Give the folder to search in.`,
          errorCode: 2,
        };
      }
    } catch {
      return {
        result: false,
        message: `Folder does not exist: ${resolved.path}. ${missingFileHint(resolved.path, sessionWorkingDirectory(context))}`,
        errorCode: 1,
      };
    }
    return { result: true };
  },

  async call(input, context) {
    const started = performance.now();
    // Results are shown relative to the directory relative paths resolve against (see Grep).
    const cwd = sessionWorkingDirectory(context);
    let searchDir = cwd;
    if (input.path) {
      const resolved = resolveToolPath(input.path, cwd, "path");
      if (!resolved.ok) throw new Error(resolved.message);
      searchDir = resolved.path;
    }
    const { files } = await globFiles(input.pattern, searchDir, context.abortController.signal);
    const mayShow = readDenyFilter(GLOB_TOOL_NAME, context);
    const sorted = await sortByMtimeNewestFirst(mayShow ? files.filter(mayShow) : files, cwd);
    const shown = sorted.slice(0, GLOB_RESULT_LIMIT).map((f) => displayPath(f, cwd));
    return {
      data: {
        filenames: shown,
        numFiles: sorted.length,
        truncated: sorted.length > GLOB_RESULT_LIMIT,
        durationMs: Math.round(performance.now() - started),
      },
    };
  },

  mapToolResult(output, toolUseId) {
    const content =
      output.filenames.length === 0
        ? "No files found"
        : `${output.filenames.join("\n")}${
            output.truncated
              ? `\n(Results are truncated: showing the ${output.filenames.length} newest of ${output.numFiles} files. Use a more specific path or pattern.)`
              : ""
          }`;
    return { type: "tool_result", tool_use_id: toolUseId, content };
  },
});
