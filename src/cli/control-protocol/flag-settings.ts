// The SDK's apply_flag_settings (`applyFlagSettings()`): settings merged into the session's flag
// layer, as if given with --settings, and put in force at once. The project's rule holds here as
// everywhere: until the user trusts the folder, settings can only restrict (deny and ask rules, a
// narrower mode, bypass switched off); a request that would widen anything is refused whole, and
// names what it would have widened. A key null removes it from the layer. What can change under a
// running session: the permission settings and the model (as set_model switches it; null goes
// back to the session's own); a request with other keys is refused before anything changes.
import { resolve } from "node:path";
import { readSettingsFile, type SettingsFile } from "../../config/settings.js";
import { splitProjectSettings } from "../../config/trust/split.js";
import { findTrustEntry } from "../../config/trust/trusted-folders.js";
import type { ModelSwitched } from "../../control/session-commands.js";
import { mergeRules, rulesFromSettingsFile } from "../../permissions/rules/index.js";
import type { PermissionRule, ToolPermissionContext } from "../../tool/permission-types.js";
import type { BuiltSession } from "../session/start.js";
import type { JsonObject } from "./channel.js";

/** Keys that can change while a session runs. */
const LIVE_KEYS = new Set(["permissions", "model"]);

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** One level deep: `permissions` given twice keeps the lists the second call does not name. */
function merge(layer: Record<string, unknown>, changes: Record<string, unknown>): Record<string, unknown> {
  const next: Record<string, unknown> = { ...layer };
  for (const [key, value] of Object.entries(changes)) {
    if (value === null) delete next[key];
    else if (isRecord(value) && isRecord(next[key])) {
      const inner: Record<string, unknown> = { ...(next[key] as Record<string, unknown>) };
      for (const [innerKey, innerValue] of Object.entries(value)) {
        if (innerValue === null) delete inner[innerKey];
        else inner[innerKey] = innerValue;
      }
      next[key] = inner;
    } else next[key] = value;
  }
  return next;
}

/** The keys of a widening part, dotted (`permissions.allow`), for the refusal. */
function wideningKeys(widening: Record<string, unknown>): string[] {
  return Object.entries(widening).flatMap(([key, value]) =>
    isRecord(value) ? Object.keys(value).map((inner) => `${key}.${inner}`) : [key],
  );
}

export class FlagSettingsLayer {
  private layer: Record<string, unknown> = {};
  /** The rules this layer put in the context, taken out again when the layer changes. */
  private layerRules: PermissionRule[] = [];
  private layerDirectories: string[] = [];

  constructor(private readonly built: BuiltSession) {}

  /** The layer as applied so far (get_settings lists it as the flagSettings source). */
  get settings(): Record<string, unknown> {
    return this.layer;
  }

  /** The rules in force because of this layer. */
  get rules(): readonly PermissionRule[] {
    return this.layerRules;
  }

  /** The working folders added by this layer. */
  get directories(): readonly string[] {
    return this.layerDirectories;
  }

  /** Applies `settings` to the running session; returns the permission mode when it changed. */
  async apply(settings: unknown): Promise<string | undefined> {
    if (!isRecord(settings)) throw new Error("apply_flag_settings: settings must be an object");
    const unsupported = Object.keys(settings).filter((key) => !LIVE_KEYS.has(key));
    if (unsupported.length > 0) {
      throw new Error(
        `apply_flag_settings: Warden changes only ${[...LIVE_KEYS].join(", ")} while a session runs; nothing was applied (not supported: ${unsupported.join(", ")}). Give the others with --settings at start.`,
      );
    }
    const next = merge(this.layer, settings);
    // The model first: a name that does not resolve refuses the whole request, nothing applied.
    const model = "model" in settings ? await this.modelChange(settings.model) : undefined;
    const file = this.read(next);
    const session = this.built.session;
    const before = session.getAppState().toolPermissionContext;
    const trust = this.built.plan.permissions.settings.workspaceTrust;
    if (!folderTrusted(this.built)) {
      // Which model answers grants nothing: only the permission part is judged.
      const { model: _model, ...judged } = file.settings;
      const { widening } = splitProjectSettings(judged, before.mode);
      const refused = wideningKeys(widening);
      if (refused.length > 0) {
        throw new Error(
          `apply_flag_settings: ${trust.folder} is not trusted, so settings may only restrict; nothing was applied (would widen: ${refused.join(", ")}). Trust the folder first (\`warden trust\`, or --trust-project for one run).`,
        );
      }
    }
    const context = this.contextWith(before, file);
    this.layer = next;
    this.built.commands.updatePermissions(() => context);
    const switched = await model?.();
    for (const error of switched?.errors ?? []) process.stderr.write(`warden: ${error}\n`);
    return context.mode !== before.mode ? context.mode : undefined;
  }

  /** Resolves the model now; the returned function switches to it once everything else has passed. */
  private async modelChange(value: unknown): Promise<() => Promise<ModelSwitched>> {
    if (value !== null && (typeof value !== "string" || value.trim() === "")) {
      throw new Error("apply_flag_settings: nothing was applied: model must be a model name, or null");
    }
    try {
      return await this.built.commands.prepareModel(value ?? undefined);
    } catch (error) {
      throw new Error(`apply_flag_settings: nothing was applied: ${(error as Error).message}`);
    }
  }

  private read(layer: Record<string, unknown>): SettingsFile {
    const cwd = this.built.plan.config.cwd;
    const result = readSettingsFile(
      { source: "cliArg", path: "apply_flag_settings", root: cwd, inline: JSON.stringify(layer) },
      true,
    );
    const problems = [...result.errors, ...result.warnings];
    if (problems.length > 0 || !result.file) {
      throw new Error(
        `apply_flag_settings: nothing was applied: ${problems.map((p) => p.message).join("; ") || "the settings could not be read"}`,
      );
    }
    return result.file;
  }

  /** The live context with this layer's earlier rules and folders taken out and the new ones in. */
  private contextWith(context: ToolPermissionContext, file: SettingsFile): ToolPermissionContext {
    const parsed = rulesFromSettingsFile(file);
    if (parsed.issues.length > 0) {
      throw new Error(`apply_flag_settings: nothing was applied: ${parsed.issues.map((i) => i.message).join("; ")}`);
    }
    const earlier = new Set(this.layerRules);
    const kept = {
      allow: context.rules.allow.filter((rule) => !earlier.has(rule)),
      deny: context.rules.deny.filter((rule) => !earlier.has(rule)),
      ask: context.rules.ask.filter((rule) => !earlier.has(rule)),
    };
    // Under allowManagedPermissionRulesOnly only the policy's rules count.
    const added = context.managedRulesOnly ? { allow: [], deny: [], ask: [] } : parsed.rules;
    const permissions = file.settings.permissions ?? {};
    const oldDirectories = new Set(this.layerDirectories);
    const directories = (permissions.additionalDirectories ?? []).map((dir) => resolveDir(file.root, dir));
    const next: ToolPermissionContext = {
      ...context,
      rules: mergeRules(kept, added),
      workingDirectories: [
        ...new Set([...context.workingDirectories.filter((d) => !oldDirectories.has(d)), ...directories]),
      ],
    };
    const bypassOff = permissions.disableBypassPermissionsMode === "disable";
    if (bypassOff) {
      next.isBypassPermissionsModeAvailable = false;
      if (next.mode === "bypassPermissions") next.mode = "default";
    }
    const mode = permissions.defaultMode;
    if (mode !== undefined && mode !== next.mode) {
      if (mode === "bypassPermissions" && !next.isBypassPermissionsModeAvailable) {
        throw new Error(
          "apply_flag_settings: nothing was applied: bypassPermissions needs --dangerously-skip-permissions at start (or is disabled)",
        );
      }
      next.mode = mode;
    }
    this.layerRules = [...added.allow, ...added.deny, ...added.ask];
    this.layerDirectories = directories;
    return next;
  }
}

function resolveDir(root: string, dir: string): string {
  // Relative folders are the session's, as with --settings.
  return resolve(root, dir);
}

/**
 * Trusted by the user (a trust entry, or --trust-project), not merely a folder whose own files
 * widen nothing ("not_needed" says only the latter).
 */
export function folderTrusted(built: BuiltSession): boolean {
  const { plan } = built;
  const trust = plan.permissions.settings.workspaceTrust;
  if (trust.status === "trusted" || trust.status === "trusted_for_this_run") return true;
  if (trust.status === "untrusted") return false;
  if (plan.config.trustProject) return true;
  const entries = plan.permissions.settings.files
    .filter((file) => file.source === "userSettings")
    .flatMap((file) => file.settings.trustedFolders ?? []);
  return findTrustEntry(entries, trust.folder) !== undefined;
}

/** The layer of a stream session, made at its first apply_flag_settings. */
export function applyFlagSettings(
  request: JsonObject,
  holder: { flagSettings?: FlagSettingsLayer; built: BuiltSession },
): Promise<string | undefined> {
  holder.flagSettings ??= new FlagSettingsLayer(holder.built);
  return holder.flagSettings.apply(request.settings);
}
