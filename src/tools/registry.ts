// The built-in tools, in the order they are offered to the model (the order is part of the
// request prefix: keep it stable). Each tool lives in its own folder beside this file.
import type { TaskListFamily } from "../tool/task-list.js";
import type { AnyTool } from "../tool/types.js";
import { AgentTool } from "./agent/tool.js";
import { AskUserQuestionTool } from "./ask-user-question/tool.js";
import { BashTool } from "./bash/tool.js";
import { BriefTool } from "./brief/tool.js";
import { ConfigTool } from "./config/tool.js";
import { CronCreateTool } from "./cron-create/tool.js";
import { CronDeleteTool } from "./cron-delete/tool.js";
import { CronListTool } from "./cron-list/tool.js";
import { EditTool } from "./edit/tool.js";
import { EnterPlanModeTool } from "./enter-plan-mode/tool.js";
import { EnterWorktreeTool } from "./enter-worktree/tool.js";
import { ExitPlanModeTool } from "./exit-plan-mode/tool.js";
import { ExitWorktreeTool } from "./exit-worktree/tool.js";
import { GlobTool } from "./glob/tool.js";
import { GrepTool } from "./grep/tool.js";
import { NotebookEditTool } from "./notebook-edit/tool.js";
import { PowerShellTool } from "./powershell/tool.js";
import { ReadTool } from "./read/tool.js";
import { RemoteTriggerTool } from "./remote-trigger/tool.js";
import { createReplTool, type ReplToolOptions } from "./repl/tool.js";
import { SendMessageTool } from "./send-message/tool.js";
import { SleepTool } from "./sleep/tool.js";
import { TaskCreateTool } from "./task-create/tool.js";
import { TaskGetTool } from "./task-get/tool.js";
import { TaskListTool } from "./task-list/tool.js";
import { TaskOutputTool } from "./task-output/tool.js";
import { TaskStopTool } from "./task-stop/tool.js";
import { TaskUpdateTool } from "./task-update/tool.js";
import { TeamCreateTool } from "./team-create/tool.js";
import { TeamDeleteTool } from "./team-delete/tool.js";
import { TodoWriteTool } from "./todo-write/tool.js";
import { ToolSearchTool } from "./tool-search/tool.js";
import { createWebFetchTool, WebFetchTool, type WebFetchToolOptions } from "./web-fetch/tool.js";
import type { WebSearchBackendConfig } from "./web-search/backends/index.js";
import { createWebSearchTool, WebSearchTool } from "./web-search/tool.js";
import { WriteTool } from "./write/tool.js";

export interface BuiltInToolsOptions {
  /**
   * Which family of task-list tools the session offers; a session has exactly one. Default:
   * `Tasks` (TaskCreate, TaskGet, TaskUpdate, TaskList) when a person works in the session,
   * `TodoWrite` for headless runs and libraries. Settings `taskTools` chooses explicitly.
   */
  taskTools?: TaskListFamily;
  /** A person works in this session (the interactive UI). Default false. */
  interactive?: boolean;
  /**
   * Offer teams: TeamCreate, TeamDelete, SendMessage (`WARDEN_AGENT_TEAMS=1`, settings
   * `agentTeams`). Their members share a Tasks list, so the Tasks family is the default with them.
   * Default false.
   */
  teams?: boolean;
  /** Offer SendUserMessage (`--brief`, settings `brief`). Default false. */
  brief?: boolean;
  /** WebFetch's settings (`webFetch`: the pre-approved hosts). Default: the built-in list. */
  webFetch?: WebFetchToolOptions;
  /**
   * Offer WebSearch: `serverSide` when the model's provider searches by itself (Anthropic), or a
   * search backend from settings (`webSearch`). Default: not offered (nothing could search).
   */
  webSearch?: { serverSide?: boolean; backend?: WebSearchBackendConfig };
  /** A fleet is configured (WARDEN_REDIS_URL, settings fleet.redisUrl): offer RemoteTrigger. Default false. */
  fleet?: boolean;
  /**
   * Code mode: offer REPL (`--code-mode`, settings `codeMode.enabled`), with the MCP tools that are
   * reachable only through it (settings `codeMode.mcpOnly`). Default: not offered.
   */
  codeMode?: ReplToolOptions;
  /** Offer PowerShell (settings `powerShell: true`; it runs `pwsh`). Default false. */
  powerShell?: boolean;
}

function webTools(options: BuiltInToolsOptions): AnyTool[] {
  const fetch = options.webFetch?.preapprovedHosts ? createWebFetchTool(options.webFetch) : WebFetchTool;
  const { serverSide, backend } = options.webSearch ?? {};
  if (backend) return [fetch, createWebSearchTool({ backend })];
  return serverSide ? [fetch, WebSearchTool] : [fetch];
}

/** The family a session gets: an explicit choice, else Tasks with a person and TodoWrite without. */
export function taskToolFamily(options: BuiltInToolsOptions = {}): TaskListFamily {
  return options.taskTools ?? (options.interactive || options.teams ? "Tasks" : "TodoWrite");
}

function taskListTools(family: TaskListFamily): AnyTool[] {
  return family === "Tasks" ? [TaskCreateTool, TaskGetTool, TaskUpdateTool, TaskListTool] : [TodoWriteTool];
}

/** Tools that act on the project: files and the shell. What `warden mcp serve` offers. */
export function projectTools(): AnyTool[] {
  return [ReadTool, WriteTool, EditTool, BashTool, GlobTool, GrepTool, NotebookEditTool, TaskOutputTool, TaskStopTool];
}

/**
 * A session's tools: the project tools, Agent (subagents), the session's task list, the tools that
 * talk with the user (AskUserQuestion, plan mode, SendUserMessage when asked for), settings
 * (Config), Sleep, scheduled prompts (Cron*), teams when asked for, ToolSearch for the deferred ones, worktrees, and the
 * web (WebFetch; WebSearch where something can search).
 */
export function builtInTools(options: BuiltInToolsOptions = {}): AnyTool[] {
  return [
    ...projectTools(),
    AgentTool,
    ...taskListTools(taskToolFamily(options)),
    AskUserQuestionTool,
    EnterPlanModeTool,
    ExitPlanModeTool,
    ConfigTool,
    SleepTool,
    CronCreateTool,
    CronDeleteTool,
    CronListTool,
    ...(options.teams ? [TeamCreateTool, TeamDeleteTool, SendMessageTool] : []),
    ...(options.fleet ? [RemoteTriggerTool] : []),
    ...(options.brief ? [BriefTool] : []),
    ToolSearchTool,
    EnterWorktreeTool,
    ExitWorktreeTool,
    ...webTools(options),
    ...(options.powerShell ? [PowerShellTool] : []),
    ...(options.codeMode ? [createReplTool(options.codeMode)] : []),
  ];
}
