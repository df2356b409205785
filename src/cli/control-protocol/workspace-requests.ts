// The SDK's requests about the session's files and tasks: rename_session (a title kept in the
// transcript, as Claude Code's custom-title line, so session lists show it), file_suggestions
// (project paths for an @-mention, as the terminal UI completes them), read_file (a file of the
// session, decided by the permission engine as a Read of it is), register_repo_root (a folder
// inside the session's added as a working folder), background_tasks (foreground commands moved
// to the background, as Ctrl+B does) and get_task_output (the end of a background task's output).
import { closeSync, openSync, readSync, statSync } from "node:fs";
import { isAbsolute, relative, resolve, sep } from "node:path";
import { findToolByName } from "../../tool/pool.js";
import type { AnyTool } from "../../tool/types.js";
import type { JsonObject } from "./channel.js";
import type { StreamState } from "./stream-state.js";

/** What get_task_output returns of a task's output: its end, as the terminal's /tasks shows it. */
const TASK_OUTPUT_TAIL_BYTES = 8 * 1024;
/** read_file's default limit when the host names none. */
const READ_FILE_DEFAULT_BYTES = 1024 * 1024;

function stringField(request: JsonObject, field: string): string {
  const value = request[field];
  if (typeof value !== "string" || value.trim() === "") throw new Error(`${request.subtype}: ${field} is missing`);
  return value;
}

/** Reads up to `length` bytes of `path` from `position`. */
function readBytes(path: string, position: number, length: number): Buffer {
  const fd = openSync(path, "r");
  try {
    const buffer = Buffer.alloc(length);
    const read = readSync(fd, buffer, 0, length, position);
    return buffer.subarray(0, read);
  } finally {
    closeSync(fd);
  }
}

function renameSession(request: JsonObject, state: StreamState): JsonObject {
  const { session, plan } = state.built;
  const title = stringField(request, "title").trim();
  if (typeof request.session_id === "string" && request.session_id !== session.sessionId) {
    throw new Error(`rename_session: this process runs session ${session.sessionId}, not ${request.session_id}`);
  }
  if (plan.config.noSessionPersistence) {
    throw new Error(
      "rename_session: this session keeps no transcript (--no-session-persistence), so a title has nowhere to go",
    );
  }
  // Claude Code's line: its own tools (and the Agent SDK's listSessions) read the title from it.
  session.recordEntry({ type: "custom-title", customTitle: title, sessionId: session.sessionId });
  return {};
}

async function readTool(state: StreamState): Promise<AnyTool> {
  return (
    findToolByName(state.built.session.tools, "Read") ??
    ((await import("../../tools/read/tool.js")).ReadTool as AnyTool)
  );
}

async function readFile(request: JsonObject, state: StreamState): Promise<JsonObject> {
  const { session, canUseTool } = state.built;
  const cwd = session.getAppState().worktree?.path ?? session.cwd;
  const path = resolve(cwd, stringField(request, "path"));
  const maxBytes =
    typeof request.max_bytes === "number" && request.max_bytes > 0
      ? Math.floor(request.max_bytes)
      : READ_FILE_DEFAULT_BYTES;
  // The same decision as the model's Read of this file: rules, working folders, the host's answer to an ask.
  const tool = await readTool(state);
  const abort = new AbortController();
  const decision = await canUseTool(
    tool,
    { file_path: path },
    session.toolUseContext(abort),
    undefined,
    `toolu_read_file_${crypto.randomUUID()}`,
  );
  if (decision.behavior !== "allow") {
    throw new Error(`read_file: reading ${path} is not allowed: ${decision.message ?? "refused"}`);
  }
  let stats: ReturnType<typeof statSync>;
  try {
    stats = statSync(path);
  } catch (error) {
    throw new Error(`read_file: ${path} cannot be read (${(error as NodeJS.ErrnoException).code ?? error})`);
  }
  if (!stats.isFile()) throw new Error(`read_file: ${path} is not a file`);
  const bytes = readBytes(path, 0, Math.min(maxBytes, stats.size));
  const truncated = stats.size > bytes.length;
  if (request.encoding === "base64") {
    return { contents: bytes.toString("base64"), absPath: path, encoding: "base64", ...(truncated && { truncated }) };
  }
  const contents = bytes.toString("utf8");
  // Lossy: the bytes were not all valid UTF-8 (a binary file, another encoding, a cut character).
  const lossy = !Buffer.from(contents, "utf8").equals(bytes);
  return { contents, absPath: path, lossy, ...(truncated && { truncated }) };
}

/** Paths under the project for an `@` query: completions of the path typed, then names containing it. */
async function fileSuggestions(request: JsonObject, state: StreamState): Promise<JsonObject> {
  const query = typeof request.query === "string" ? request.query.replace(/^@/, "") : "";
  const cwd = state.built.session.getAppState().worktree?.path ?? state.built.session.cwd;
  const { completeMention } = await import("../../ui/input/file-mentions.js");
  const { findProjectPaths } = await import("./project-paths.js");
  const found = new Set(completeMention(query, cwd));
  if (query !== "" && !query.includes("/")) for (const path of findProjectPaths(cwd, query, 50)) found.add(path);
  return {
    suggestions: [...found].slice(0, 50).map((path) => ({
      path,
      displayText: path,
      type: path.endsWith("/") ? "directory" : "file",
    })),
  };
}

async function registerRepoRoot(request: JsonObject, state: StreamState): Promise<JsonObject> {
  const { session, plan } = state.built;
  if (request.reload_plugins === true) {
    throw new Error(
      "register_repo_root: reload_plugins is not supported (plugins are chosen when the session starts); nothing was registered",
    );
  }
  const context = session.getAppState().toolPermissionContext;
  const directory = resolve(plan.config.cwd, stringField(request, "directory"));
  if (!statSync(directory, { throwIfNoEntry: false })?.isDirectory()) {
    throw new Error(`register_repo_root: ${directory} is not a folder`);
  }
  if (context.workingDirectories.includes(directory)) {
    throw new Error(`register_repo_root: ${directory} is already a working folder`);
  }
  const roots = [plan.config.cwd, ...plan.config.addDirs];
  const inside = roots.some((root) => {
    const rel = relative(root, directory);
    return rel !== "" && !rel.startsWith(`..${sep}`) && rel !== ".." && !isAbsolute(rel);
  });
  if (!inside) {
    throw new Error(
      `register_repo_root: ${directory} is not inside the session's folder or a folder added with --add-dir`,
    );
  }
  // The hooks' failures do not fail the request: the folder is added either way.
  await state.built.commands.addWorkingDirectory(directory, "register_repo_root");
  if (request.reload_skills === true) await (await import("./reload-requests.js")).reloadSkills(state);
  return { directory };
}

function backgroundTasks(request: JsonObject, state: StreamState): JsonObject {
  if (typeof request.tool_use_id === "string") {
    throw new Error(
      "background_tasks: Warden moves every running foreground command at once (as Ctrl+B does); send the request without tool_use_id",
    );
  }
  const moved = state.built.session.getAppState().foregroundCommands?.moveAllToBackground() ?? 0;
  return { backgrounded: moved > 0, count: moved };
}

function taskOutput(request: JsonObject, state: StreamState): JsonObject {
  const id = stringField(request, "task_id");
  const task = state.built.session.getAppState().backgroundTasks?.get(id);
  if (!task) throw new Error(`get_task_output: no background task ${JSON.stringify(id)} in this session`);
  let size = 0;
  try {
    size = statSync(task.outputPath).size;
  } catch {
    // Nothing written yet (or the file is gone): empty output.
  }
  const start = Math.max(0, size - TASK_OUTPUT_TAIL_BYTES);
  const output = size === 0 ? "" : readBytes(task.outputPath, start, size - start).toString("utf8");
  return { output, total_bytes: size, truncated: start > 0, status: task.status };
}

export async function handleWorkspaceRequest(request: JsonObject, state: StreamState): Promise<JsonObject | undefined> {
  switch (request.subtype) {
    case "rename_session":
      return renameSession(request, state);
    case "read_file":
      return readFile(request, state);
    case "file_suggestions":
      return fileSuggestions(request, state);
    case "register_repo_root":
      return registerRepoRoot(request, state);
    case "background_tasks":
      return backgroundTasks(request, state);
    case "get_task_output":
      return taskOutput(request, state);
    default:
      return undefined;
  }
}
