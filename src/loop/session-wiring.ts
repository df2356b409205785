// The parts a SessionEngine is built from, wired from its options: the model's figures, the
// AppState store with the permission context, the tool pool, the request prefix, the reminders,
// the context manager and the transcript. Kept apart from the engine, which only runs prompts on them.

import type { MemoryFile } from "../config/memory.js";
import { planFilePathIn, sessionArtifactsDir, transcriptPath } from "../config/paths.js";
import { contextThresholds } from "../context/thresholds.js";
import { promptMemoryCompactionReport, reportInstructionsLoaded } from "../hooks/instructions-loaded.js";
import type { Message } from "../messages/types.js";
import { budgetProblem } from "../models/budget.js";
import type { UsageLedger } from "../models/cost.js";
import { applyOverride, type ModelInfo, modelInfoFor } from "../models/resolve.js";
import { TranscriptWriter } from "../session/transcript.js";
import type { AppState } from "../tool/app-state.js";
import { createAppStateStore, type SessionStore } from "../tool/context.js";
import { emptyPermissionContext, type ToolPermissionContext } from "../tool/permission-types.js";
import type { SideQuery } from "../tool/side-query.js";
import { ContextManager } from "./context-manager.js";
import { SessionAttachments } from "./reminders.js";
import { RequestPrefixCache } from "./request-prefix.js";
import type { SessionEngineOptions } from "./session-options.js";
import { sessionSystemPrompt } from "./session-prompt.js";
import { SessionToolPool } from "./session-tool-pool.js";
import { createSideQuery } from "./side-query.js";
import { todayISODate } from "./system-prompt.js";

export interface SessionParts {
  sessionId: string;
  modelLabel: string;
  modelInfo: ModelInfo;
  sideQuery: SideQuery;
  store: SessionStore;
  toolPool: SessionToolPool;
  now: () => Date;
  /** The date the system prompt states. */
  startDate: string;
  prefix: RequestPrefixCache;
  attachments: SessionAttachments;
  contextManager: ContextManager;
  transcriptPath: string;
  transcript: TranscriptWriter | undefined;
}

/**
 * Builds the parts in the order they need each other. Throws when a budget is asked for a model
 * whose price is unknown: a budget that cannot be measured would never stop anything.
 */
export function wireSession(
  options: SessionEngineOptions,
  ledger: UsageLedger,
  messages: readonly Message[],
  onStateChange: (state: AppState) => void,
): SessionParts {
  const sessionId = options.sessionId ?? crypto.randomUUID();
  const modelLabel = options.modelLabel ?? `${options.provider.name}:${options.model}`;
  // The built-in table's figures for the model, with what the options override.
  const known = modelInfoFor(options.provider.name, options.model);
  const modelInfo = options.modelInfo ? applyOverride(known, options.modelInfo) : known;
  const problem =
    options.maxBudgetUsd === undefined ? undefined : budgetProblem(options.maxBudgetUsd, modelInfo, modelLabel);
  if (problem) throw new Error(problem);
  const sideQuery = createSideQuery({
    provider: options.provider,
    model: options.model,
    modelInfo,
    ledger,
    smallFastModel: options.smallFastModel,
  });
  // The plan file sits in the session's folder; the permission context names it so the file
  // tools may write it in plan mode (also when the session starts in plan mode).
  const basePermissions = options.permissionContext ?? emptyPermissionContext(options.cwd);
  const permissionContext: ToolPermissionContext = {
    ...basePermissions,
    planFilePath: basePermissions.planFilePath ?? planFilePathIn(sessionArtifactsDir(options.cwd, sessionId)),
  };
  const store = createAppStateStore({ ...options.appState, toolPermissionContext: permissionContext }, (state) => {
    options.onAppStateChange?.(state);
    onStateChange(state);
  });
  const toolPool = new SessionToolPool(
    options.tools,
    options.mcpTools ?? [],
    () => store.getAppState().toolPermissionContext.rules,
  );
  const now = options.now ?? (() => new Date());
  const startDate = todayISODate(now());
  /** The memory files of the system prompt, for InstructionsLoaded after a compaction. */
  let promptMemory: readonly MemoryFile[] = [];
  const prefix = new RequestPrefixCache(
    sessionSystemPrompt(options, {
      cwd: options.cwd,
      startDate,
      modelLabel,
      pool: toolPool.current,
      permissionContext,
      onMemoryLoaded: (files) => {
        promptMemory = files;
        reportInstructionsLoaded(store.getAppState().hooks, files, "session_start");
      },
    }),
  );
  const attachments = new SessionAttachments({
    startDate,
    prefix,
    sources: [promptMemoryCompactionReport(() => promptMemory), ...(options.attachmentSources ?? [])],
    onError: options.onAttachmentError,
  });
  const contextManager = new ContextManager({
    provider: options.provider,
    model: options.model,
    modelInfo,
    thresholds: contextThresholds(modelInfo, options.contextManagement),
    attachments,
    ledger,
    now,
  });
  const path = transcriptPath(options.cwd, sessionId);
  const transcript =
    options.transcript === false
      ? undefined
      : new TranscriptWriter(path, { sessionId, cwd: options.cwd, model: modelLabel });
  if (options.recordInitialMessages) for (const message of messages) transcript?.recordMessage(message);
  return {
    sessionId,
    modelLabel,
    modelInfo,
    sideQuery,
    store,
    toolPool,
    now,
    startDate,
    prefix,
    attachments,
    contextManager,
    transcriptPath: path,
    transcript,
  };
}
