// SessionSpec: what a session is to be (model, mode, rules, tools, folders, MCP servers, agents,
// budget, output, resume...), one typed object every front end builds once: the command line's
// flags (../session-config.ts), the library's query() options (../library/spec-of-options.ts),
// an ACP editor's session (../acp/open-session.ts), a process teammate (../teammates/). It is
// passed as an object wherever the session runs in process; where it crosses a process boundary
// (a process teammate's spec line) it is written as JSON and parsed back here, by this schema, so
// both sides agree on every field and a value no front end could give is refused, never guessed.
// The command line's parser checks each flag's value itself and applies the same combination
// rules (./spec-rules.ts) without this schema, which headless start-up would otherwise load and
// compile on every run; test/cli/session-spec.test.ts holds that what it builds passes here.
import { isAbsolute } from "node:path";
import * as z from "zod";
import { PERMISSION_MODES, type PermissionMode } from "../../tool/permission-types.js";
import { UsageError } from "../flags/usage-error.js";
import {
  combinationProblem,
  INPUT_FORMATS,
  isMcpPromptToolName,
  OUTPUT_FORMATS,
  SETTING_SOURCES,
} from "./spec-rules.js";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const flag = z.boolean().default(false);
const list = z.array(z.string()).default([]);
const thinkingDisplay = z.enum(["summarized", "omitted"]);

/** A JSON object's text (--agents): anything else is refused where the spec is made. */
const jsonObjectText = z.string().refine((text) => {
  try {
    const parsed: unknown = JSON.parse(text);
    return typeof parsed === "object" && parsed !== null && !Array.isArray(parsed);
  } catch {
    return false;
  }
}, "must be a JSON object of agents");

export const sessionSpecSchema = z
  .strictObject({
    /** -p / --print: run one prompt headless and exit. */
    print: flag,
    /** The prompt from the command line (stdin is read later, by the command). */
    prompt: z.string().optional(),
    outputFormat: z.enum(OUTPUT_FORMATS).default("text"),
    /** `provider:model`; undefined = pick from the environment. */
    model: z.string().optional(),
    maxTurns: z.number().int().min(1).optional(),
    /** --max-budget-usd: end the session once it has spent this much. */
    maxBudgetUsd: z.number().positive().finite().optional(),
    verbose: flag,
    appendSystemPrompt: z.string().optional(),
    resume: z.string().optional(),
    /** `-r` / `--resume` without an id: the interactive session opens its session picker first. */
    pickResume: flag,
    continueLatest: flag,
    /** The working directory, absolute. */
    cwd: z.string().refine(isAbsolute, "must be an absolute path"),
    allowedTools: list,
    disallowedTools: list,
    permissionMode: z.enum(PERMISSION_MODES as [PermissionMode, ...PermissionMode[]]).optional(),
    /** Absolute paths. */
    addDirs: list,
    dangerouslySkipPermissions: flag,
    /** bypassPermissions may be switched to later (the SDK's allowDangerouslySkipPermissions). */
    allowDangerouslySkipPermissions: flag,
    /** Files or inline JSON (`{"mcpServers": ...}`). */
    mcpConfig: list,
    /** A settings file path or inline JSON. */
    settings: z.string().optional(),
    /** --trust-project: the folder's own settings may widen permissions for this run (CI). */
    trustProject: flag,
    /**
     * --json-schema: the run must end with a StructuredOutput call matching this JSON schema, given
     * inline (text starting with `{`) or as a file (an absolute path).
     */
    jsonSchema: z.string().optional(),
    /** --brief: offer SendUserMessage (also settings `brief: true`). */
    brief: flag,
    /** --code-mode: offer REPL, tools called from a JavaScript program (also settings `codeMode.enabled`). */
    codeMode: flag,
    /** stream-json: user messages and control requests as NDJSON on stdin (the Agent SDK). */
    inputFormat: z.enum(INPUT_FORMATS).default("text"),
    /** `stream_event` lines as the model's answer streams in. */
    includePartialMessages: flag,
    /** Each user message read from stdin is written back on stdout. */
    replayUserMessages: flag,
    /**
     * "stdio": asks go to the SDK as `can_use_tool` control requests; `mcp__server__tool`: to that
     * MCP tool (src/cli/session/permission-prompt-tool.ts).
     */
    permissionPromptTool: z
      .union([z.literal("stdio"), z.string().refine(isMcpPromptToolName, "an MCP tool's name, mcp__server__tool")])
      .optional(),
    /** Replaces the built-in system prompt. */
    systemPrompt: z.string().optional(),
    /** Which settings files are read (managed policy always is). */
    settingSources: z.array(z.enum(SETTING_SOURCES)).optional(),
    /** `--plugin-dir`: plugin folders loaded for this session only (absolute paths). */
    pluginDirs: z.array(z.string()).optional(),
    /** Only the servers of mcpConfig, none from settings files. */
    strictMcpConfig: flag,
    /** Used when the main model's request fails. */
    fallbackModel: z.string().optional(),
    /** The new session's id. */
    sessionId: z.string().regex(UUID, "must be a UUID").optional(),
    /** A resumed conversation continues under a new session id. */
    forkSession: flag,
    /**
     * Setup hooks run before the session (--init, --maintenance), or instead of it (--init-only:
     * they run and the command exits).
     */
    setup: z.enum(["init", "init-only", "maintenance"]).optional(),
    /** The built-in tools offered (absent: all; empty: none). */
    tools: z.array(z.string()).optional(),
    /** Custom agents as JSON (`{"name": {"description", "prompt", "tools"?, "model"?}}`). */
    agents: jsonObjectText.optional(),
    /** How the model may think. */
    thinking: z
      .discriminatedUnion("type", [
        z.strictObject({
          type: z.literal("enabled"),
          budgetTokens: z.number().int().min(0),
          display: thinkingDisplay.optional(),
        }),
        z.strictObject({ type: z.literal("adaptive"), display: thinkingDisplay.optional() }),
        z.strictObject({ type: z.literal("disabled") }),
      ])
      .optional(),
    /** hook_started / hook_progress / hook_response lines in stream-json. */
    includeHookEvents: flag,
    /** The Agent SDK's rewind_files may undo the changes since a user message. */
    enableFileCheckpointing: flag,
    /** No transcript is written (the session cannot be resumed). */
    noSessionPersistence: flag,
    /** Teammates run in this process, each in a `warden` process of its own, or so in a tmux pane each. */
    teammateMode: z.enum(["in-process", "process", "tmux"]).optional(),
    /** Protocol and set-up details on stderr. */
    debug: flag,
    help: flag,
    version: flag,
  })
  .superRefine((spec, context) => {
    const problem = combinationProblem(spec);
    if (problem) context.addIssue({ code: "custom", message: problem });
  });

/** A session as every front end describes it (the CLI's older name for it is SessionConfig). */
export type SessionSpec = z.output<typeof sessionSpecSchema>;
/** What a front end gives: fields with a default may be left out. */
export type SessionSpecInput = z.input<typeof sessionSpecSchema>;

/** The spec `value` describes, defaults filled in; a UsageError naming the first problem otherwise. */
export function parseSessionSpec(value: unknown): SessionSpec {
  const parsed = sessionSpecSchema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const where = issue?.path.length ? `${issue.path.join(".")}: ` : "";
  throw new UsageError(`${where}${issue?.message ?? "not a session spec"}`);
}
