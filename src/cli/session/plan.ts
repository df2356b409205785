// The first half of building a session, shared by every front end (`-p`, the interactive UI, the
// Agent SDK's stream-json mode, the library, ACP): everything that can be checked without
// starting anything. A bad model, settings file, budget or JSON schema stops the session here,
// before any MCP server or hook process is started.
import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { transcriptPath } from "../../config/paths.js";
import { SettingsError, settingsValue } from "../../config/settings.js";
import { mcpConfigArgProblems } from "../../mcp/config-sources.js";
import { budgetProblem } from "../../models/budget.js";
import { applyOverride, type ModelInfo, modelInfoFor } from "../../models/resolve.js";
import { PermissionConfigError } from "../../permissions/settings/context-builder.js";
import type { SessionPermissions } from "../../permissions/settings/index.js";
import type { RetryInfo } from "../../providers/retry.js";
import type { SessionConfig } from "../flags/session-config.js";
import { type StructuredOutputSetup, setUpStructuredOutput } from "../headless/structured-output.js";
import {
  anthropicModelFromEnv,
  defaultModelSpec,
  isOpusPlan,
  type ResolvedModel,
  resolveModel,
} from "./model-choice.js";
import { modelOverrideFromSettings } from "./model-settings.js";
import { sessionPermissionsInstallingPlugins } from "./permissions.js";
import { applyApiKeyHelper, applyProviderEnv } from "./provider-env.js";
import { loadResumed, type ResumedSession, type ResumeRequest } from "./resume.js";
import { SessionSetupError } from "./setup-error.js";

export interface PlanRequest extends ResumeRequest {
  /** A model chosen by the front end (the UI's /model), ahead of --model. */
  model?: string;
  warn: (message: string) => void;
  /** Said to the person (not a warning): plugins installed at start. stderr when absent. */
  inform?: (message: string) => void;
  /** Told before each retry of a failed model request. */
  onRetry?: (info: RetryInfo) => void;
  /**
   * The process runs this session alone (the CLI's -p, UI and stream-json modes): the providers'
   * variables of settings `env` are set in it, and settings `apiKeyHelper` may set its key
   * (provider-env.ts). Not for ACP's many sessions.
   */
  ownsProcess?: boolean;
}

export interface SessionPlan {
  config: SessionConfig;
  resumed?: ResumedSession;
  resolved: ResolvedModel;
  /** The settings sources, read once: the MCP set-up, hooks and the engine all take them from here. */
  permissions: SessionPermissions;
  /** Settings `modelOverrides` for this model, when there are some. */
  modelOverride?: ReturnType<typeof modelOverrideFromSettings>;
  modelInfo: ModelInfo;
  /** --json-schema, read and compiled. */
  structured?: StructuredOutputSetup;
  /** --fallback-model, resolved. */
  fallback?: ResolvedModel;
  /** `opusplan`: the model of plan mode (Opus; `resolved` is Sonnet, the rest of the time). */
  planModel?: ResolvedModel;
}

export async function planSession(config: SessionConfig, request: PlanRequest): Promise<SessionPlan> {
  const resumed = await loadResumed(config.cwd, request, request.warn);
  // A new session under the id of one this folder has would write into its transcript a
  // conversation the model never saw as its continuation (Claude Code refuses it too).
  if (config.sessionId !== undefined && (!resumed || config.forkSession)) {
    if (existsSync(transcriptPath(config.cwd, config.sessionId))) {
      throw new SessionSetupError(
        `--session-id ${config.sessionId} is already in use by a session of ${config.cwd}: continue it with --resume ${config.sessionId}, or pass a new id`,
        1,
      );
    }
  }
  // Settings are read once, here: broken ones stop the session before any MCP server is started.
  const inform = request.inform ?? ((message: string) => void process.stderr.write(`warden: ${message}\n`));
  const permissions = await settingsOrUsageError(config, inform, request.warn);
  const mcpProblems = mcpConfigArgProblems(config.mcpConfig, config.cwd);
  if (mcpProblems.length > 0) throw new SessionSetupError(`bad --mcp-config: ${mcpProblems.join("; ")}`, 2);
  if (request.ownsProcess) applyProviderEnv(permissions.settings.files);
  const keyHelper = request.ownsProcess === true && settingsValue(permissions.settings, "apiKeyHelper") !== undefined;
  // Claude Code's order: the flag, then ANTHROPIC_MODEL, then settings `model`.
  const modelSpec =
    request.model ??
    config.model ??
    resumed?.model ??
    anthropicModelFromEnv() ??
    settingsModel(permissions) ??
    chooseDefaultModel(keyHelper);
  // An unknown provider, a missing or malformed replay script: the model named cannot be used (usage).
  const usable = (spec: string) =>
    resolveModel(spec, config.cwd, request.onRetry).catch((error: unknown) => {
      throw new SessionSetupError(error instanceof Error ? error.message : String(error), 2);
    });
  const opusplan = isOpusPlan(modelSpec);
  const resolved = await usable(opusplan ? "sonnet" : modelSpec);
  const planModel = opusplan ? await usable("opus") : undefined;
  const fallback =
    config.fallbackModel === undefined
      ? undefined
      : await resolveModel(config.fallbackModel, config.cwd, request.onRetry).catch((error: unknown) => {
          throw new SessionSetupError(`--fallback-model: ${error instanceof Error ? error.message : String(error)}`, 2);
        });
  // The key the helper prints is the Anthropic API's: asked only when a model there is used.
  if (keyHelper && [resolved, fallback, planModel].some((model) => model?.provider.name === "anthropic")) {
    applyApiKeyHelper(permissions.settings, config.cwd);
  }
  if (fallback && fallback.label === resolved.label) {
    throw new SessionSetupError("--fallback-model must differ from the main model", 2);
  }
  const modelOverride = modelOverrideFromSettings(permissions.settings, resolved.provider.name, resolved.model);
  const knownModelInfo = modelInfoFor(resolved.provider.name, resolved.model);
  const modelInfo = modelOverride ? applyOverride(knownModelInfo, modelOverride) : knownModelInfo;
  if (config.maxBudgetUsd !== undefined) {
    // A budget that cannot be kept is a usage error.
    const problem = budgetProblem(config.maxBudgetUsd, modelInfo, resolved.label);
    if (problem) throw new SessionSetupError(problem, 2);
  }
  const structured = config.jsonSchema === undefined ? undefined : await structuredOutputFor(config.jsonSchema);
  return {
    config,
    resumed,
    resolved,
    permissions,
    modelOverride,
    modelInfo,
    structured,
    fallback,
    ...(planModel && { planModel }),
  };
}

/** The settings; a --settings value that cannot be read is a usage error (exit 2), like any bad flag. */
async function settingsOrUsageError(
  config: SessionConfig,
  inform: (message: string) => void,
  warn: (message: string) => void,
): Promise<SessionPermissions> {
  try {
    return await sessionPermissionsInstallingPlugins(config, inform, warn);
  } catch (error) {
    // Rules or modes that cannot hold (a malformed --disallowedTools rule, bypass mode that the
    // settings disable): the session's set-up failure, reported as such (a JSON result when asked).
    if (error instanceof PermissionConfigError) throw new SessionSetupError(error.message, error.badFlag ? 2 : 1);
    if (!(error instanceof SettingsError) || config.settings === undefined) throw error;
    const flagFile = config.settings.trimStart().startsWith("{") ? "--settings" : resolve(config.cwd, config.settings);
    if (!error.issues.some((issue) => issue.file === flagFile)) throw error;
    throw new SessionSetupError(error.message, 2);
  }
}

async function structuredOutputFor(option: string): Promise<StructuredOutputSetup> {
  try {
    return await setUpStructuredOutput(option);
  } catch (error) {
    throw new SessionSetupError(error instanceof Error ? error.message : String(error), 2);
  }
}

/** Settings `model` (what Config sets): the model when neither --model nor a resumed session names one. */
function settingsModel(permissions: SessionPermissions): string | undefined {
  const value = settingsValue(permissions.settings, "model");
  return typeof value === "string" && value.trim() !== "" ? value.trim() : undefined;
}

/** `keyHelper`: settings name an apiKeyHelper, which stands for an Anthropic key not yet asked for. */
function chooseDefaultModel(keyHelper: boolean): string {
  const choice = defaultModelSpec(keyHelper ? { ...process.env, ANTHROPIC_API_KEY: "(apiKeyHelper)" } : process.env);
  if ("error" in choice) throw new SessionSetupError(choice.error, 2);
  return choice.spec;
}
