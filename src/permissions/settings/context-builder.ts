// Builds the session's ToolPermissionContext from settings files, CLI flags and session rules:
// the one place where modes, working directories and rule sources are reconciled.
import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { type LoadedSettings, SettingsError, type SettingsIssue } from "../../config/settings.js";
import {
  PERMISSION_MODES,
  type PermissionBehavior,
  type PermissionMode,
  type RulesByBehavior,
  type ToolPermissionContext,
} from "../../tool/permission-types.js";
import { emptyRules, findShadowedRules, mergeRules, rulesFromSettingsFile, rulesFromStrings } from "../rules/index.js";

export interface PermissionCliOptions {
  /** `--allowedTools` values; each may hold several rules separated by commas or spaces. */
  allowedTools?: readonly string[];
  disallowedTools?: readonly string[];
  permissionMode?: string;
  addDirs?: readonly string[];
  dangerouslySkipPermissions?: boolean;
  /** bypassPermissions available to switch to later, without starting in it. */
  allowDangerouslySkipPermissions?: boolean;
}

export interface BuildPermissionContextOptions {
  cwd: string;
  /** The files in force (the loader has already cut an untrusted folder's files to what restricts). */
  settings: Pick<LoadedSettings, "files" | "warnings">;
  cli?: PermissionCliOptions;
  sessionRules?: Partial<Record<PermissionBehavior, readonly string[]>>;
}

export interface BuiltPermissionContext {
  context: ToolPermissionContext;
  warnings: SettingsIssue[];
}

/** A flag combination that cannot be honoured safely: the session must not start. */
export class PermissionConfigError extends Error {
  /** A command-line value is at fault (a usage error), not the settings files. */
  readonly badFlag: boolean;
  constructor(message: string, options: { badFlag?: boolean } = {}) {
    super(message);
    this.name = "PermissionConfigError";
    this.badFlag = options.badFlag === true;
  }
}

export function isPermissionMode(value: string): value is PermissionMode {
  return (PERMISSION_MODES as readonly string[]).includes(value);
}

export function buildPermissionContext(options: BuildPermissionContextOptions): BuiltPermissionContext {
  const cwd = resolve(options.cwd);
  const cli = options.cli ?? {};
  const warnings: SettingsIssue[] = [];
  // Highest precedence first, so that the first match names the rule that matters most.
  const files = [...options.settings.files].reverse();

  const managedOnly = files.some((f) => f.source === "policySettings" && f.settings.allowManagedPermissionRulesOnly);
  const ruleSets: RulesByBehavior[] = [];
  const unreadableRestrictions: SettingsIssue[] = [];
  for (const file of files) {
    if (managedOnly && file.source !== "policySettings") continue;
    const parsed = rulesFromSettingsFile(file);
    warnings.push(...parsed.issues.filter((issue) => !parsed.unreadableRestrictions.includes(issue)));
    unreadableRestrictions.push(...parsed.unreadableRestrictions);
    ruleSets.push(parsed.rules);
  }
  // As a settings file that cannot be read, or a deny list of the wrong type: the session would run
  // without a restriction someone wrote, so it does not start until the rule is fixed.
  if (unreadableRestrictions.length > 0) throw new SettingsError(unreadableRestrictions);
  if (!managedOnly) {
    // A deny rule the person typed and mistyped is not skipped: the session would run without the
    // restriction they asked for. An allow rule that cannot be read only grants less (a warning).
    const cliDeny = rulesFromStrings({ deny: cli.disallowedTools }, "cliArg", cwd, "--disallowedTools");
    if (cliDeny.unreadableRestrictions.length > 0) {
      const problems = cliDeny.unreadableRestrictions.map((issue) => issue.message.replace(" skipped", "")).join("; ");
      throw new PermissionConfigError(
        `--disallowedTools: ${problems}; fix the rule, the session does not start without it`,
        { badFlag: true },
      );
    }
    const fromCli = rulesFromStrings({ allow: cli.allowedTools }, "cliArg", cwd, "--allowedTools");
    fromCli.rules.deny.push(...cliDeny.rules.deny);
    const fromSession = rulesFromStrings(options.sessionRules ?? {}, "session", cwd, "session rules");
    warnings.push(...fromCli.issues, ...fromSession.issues);
    ruleSets.push(fromCli.rules, fromSession.rules);
  } else if (cli.allowedTools?.length || cli.disallowedTools?.length || options.sessionRules) {
    warnings.push({ file: "policy", message: "allowManagedPermissionRulesOnly is set: only managed rules apply" });
  }

  const bypassDisabledBy = files.find((f) => f.settings.permissions?.disableBypassPermissionsMode === "disable");
  const mode = resolveMode(cli, files, warnings);
  const bypassRequested = mode === "bypassPermissions" || cli.dangerouslySkipPermissions === true;
  if (bypassRequested && bypassDisabledBy) {
    throw new PermissionConfigError(
      `bypassPermissions mode is disabled by ${bypassDisabledBy.path} (permissions.disableBypassPermissionsMode)`,
    );
  }

  const workingDirectories = [cwd];
  for (const file of files) {
    for (const dir of file.settings.permissions?.additionalDirectories ?? []) {
      workingDirectories.push(resolve(file.root, dir));
    }
  }
  for (const dir of cli.addDirs ?? []) {
    const absolute = resolve(cwd, dir);
    if (!existsSync(absolute)) warnings.push({ file: "--add-dir", message: `${absolute} does not exist` });
    workingDirectories.push(absolute);
  }

  const rules = ruleSets.length ? mergeRules(...ruleSets) : emptyRules();
  warnings.push(...findShadowedRules(rules));
  const context: ToolPermissionContext = {
    mode,
    workingDirectories: [...new Set(workingDirectories)],
    rules,
    isBypassPermissionsModeAvailable:
      (bypassRequested || cli.allowDangerouslySkipPermissions === true) && !bypassDisabledBy,
    managedRulesOnly: managedOnly || undefined,
  };
  return { context, warnings };
}

function resolveMode(
  cli: PermissionCliOptions,
  filesHighestFirst: BuildPermissionContextOptions["settings"]["files"],
  warnings: SettingsIssue[],
): PermissionMode {
  if (cli.permissionMode !== undefined) {
    if (!isPermissionMode(cli.permissionMode)) {
      throw new PermissionConfigError(
        `unknown --permission-mode "${cli.permissionMode}" (expected one of: ${PERMISSION_MODES.join(", ")})`,
      );
    }
    return cli.permissionMode;
  }
  if (cli.dangerouslySkipPermissions) return "bypassPermissions";
  const fromFile = filesHighestFirst.find((f) => f.settings.permissions?.defaultMode !== undefined);
  const mode = fromFile?.settings.permissions?.defaultMode;
  if (mode === "bypassPermissions") {
    // Skipping every prompt must be asked for on the command line, not inherited from a file.
    warnings.push({
      file: fromFile!.path,
      message: "defaultMode bypassPermissions needs --dangerously-skip-permissions; using default",
    });
    return "default";
  }
  return mode ?? "default";
}
