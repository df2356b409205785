// Where a Bash command runs with respect to the sandbox: the permission step's extra asks (a run
// outside the sandbox, a sandbox that cannot start) and, at run time, the sandbox policy or the
// note the model reads when it runs without one.
import {
  type DomainLists,
  decideHost,
  findSocat,
  loopbackNamesKeptDirect,
  type NetworkBridge,
  probeBubblewrap,
  type ResolvedSandboxSettings,
  resolveSandboxSettings,
  type SandboxPolicy,
  sandboxPolicyFor,
} from "../../shell/sandbox/index.js";
import type { CallMemo } from "../../tool/call-memo.js";
import type { PermissionResult } from "../../tool/permission-types.js";
import type { ToolUseContext } from "../../tool/types.js";
import { commandFactsOf } from "./command-facts.js";
import { sandboxNetworkFor } from "./sandbox-network.js";
import { sessionTempDir, shellSnapshot } from "./shell-session.js";

/** The Bash input fields the sandbox choice reads. */
interface SandboxInput {
  command: string;
  dangerouslyDisableSandbox?: boolean;
}

/**
 * Whether the command runs one of sandbox.excludedCommands' programs (read from its analysis; a
 * command the analysis cannot read stays in the sandbox).
 */
async function excludedFromSandbox(
  command: string,
  cwd: string,
  settings: ResolvedSandboxSettings,
  memo: CallMemo | undefined,
): Promise<boolean> {
  if (settings.excludedCommands.length === 0) return false;
  const facts = await commandFactsOf(command, cwd, memo);
  return facts?.programs.some((program) => settings.excludedCommands.includes(program)) === true;
}

export async function sandboxPermission(
  input: SandboxInput,
  context: ToolUseContext,
  result: PermissionResult,
  cwd: string,
): Promise<PermissionResult> {
  const settings = resolveSandboxSettings(context.getAppState());
  if (!settings.enabled || result.behavior === "deny") return result;
  // Placement apart from approval: an excluded command runs outside and is decided as usual.
  if (await excludedFromSandbox(input.command, cwd, settings, context.callMemo)) return result;
  if (input.dangerouslyDisableSandbox) {
    // The user turned the sandbox on; leaving it is theirs to agree to, each time. A safety check,
    // so no allow rule (not even `Bash`) and no mode settles it. validateInput has already refused
    // the call when the settings forbid unsandboxed commands.
    return {
      behavior: "ask",
      message: `This command asks to run OUTSIDE the sandbox (dangerouslyDisableSandbox): ${input.command}`,
      decisionReason: { type: "safetyCheck", reason: "the command asks to run outside the sandbox" },
    };
  }
  const availability = await probeBubblewrap();
  if (availability.available) {
    // Only the ordinary "no rule allows this" (passthrough) is settled by the sandbox; ask rules,
    // safety checks and protected paths still ask.
    if (settings.autoAllowBashIfSandboxed && result.behavior === "passthrough")
      return {
        behavior: "allow",
        decisionReason: { type: "other", reason: "runs in the sandbox (sandbox.autoAllowBashIfSandboxed)" },
      };
    return result;
  }
  // Never run unsandboxed silently: a user who turned the sandbox on must agree to each run without it.
  return {
    behavior: "ask",
    message: `The sandbox is enabled but cannot run here (${availability.reason}). Run this command WITHOUT the sandbox? ${input.command}`,
    decisionReason: { type: "safetyCheck", reason: `sandbox unavailable: ${availability.reason}` },
  };
}

export interface SandboxChoice {
  sandbox?: { bwrapPath: string; policy: SandboxPolicy };
  note?: string;
}

export async function chooseSandbox(input: SandboxInput, context: ToolUseContext, cwd: string): Promise<SandboxChoice> {
  const state = context.getAppState();
  const settings = resolveSandboxSettings(state);
  if (!settings.enabled) return {};
  if (input.dangerouslyDisableSandbox)
    return { note: "This command ran outside the sandbox (dangerouslyDisableSandbox)." };
  if (await excludedFromSandbox(input.command, cwd, settings, context.callMemo))
    return { note: "This command ran outside the sandbox (sandbox.excludedCommands)." };
  const availability = await probeBubblewrap();
  if (!availability.available) {
    if (!state.sandboxUnavailableNoticeGiven) {
      context.setAppState((s) => ({ ...s, sandboxUnavailableNoticeGiven: true }));
      return {
        note: `The sandbox is enabled but unavailable (${availability.reason}); commands run unsandboxed, each one only after the user agreed.`,
      };
    }
    return {};
  }
  const network = sandboxNetworkFor(settings, state.toolPermissionContext.rules);
  const bridge = network.kind === "filtered" ? await networkBridgeFor(network.lists) : undefined;
  const policy = sandboxPolicyFor({
    workingDirectories: state.toolPermissionContext.workingDirectories,
    cwd,
    tempDir: sessionTempDir(context),
    settings,
    denyRules: state.toolPermissionContext.rules.deny,
    allowRules: state.toolPermissionContext.rules.allow,
    env: shellSnapshot(context).env,
  });
  // Open only when nothing is to be filtered: a deny list holds even where the settings open the
  // whole network (sandbox-network.ts).
  policy.allowNetwork = network.kind === "open";
  if (bridge && "bridge" in bridge) policy.networkBridge = bridge.bridge;
  const note = bridge && "note" in bridge ? bridge.note : undefined;
  return { sandbox: { bwrapPath: availability.bwrapPath, policy }, ...(note && { note }) };
}

/**
 * The bridge to the filtering proxy when the network is limited to some domains; the proxy starts
 * here, on the first command that needs it. Without socat the network stays off (fail closed) and
 * the model is told why.
 */
async function networkBridgeFor(lists: DomainLists): Promise<{ bridge: NetworkBridge } | { note: string }> {
  const socatPath = findSocat();
  if (!socatPath)
    return {
      note: "The sandbox's network is limited to some domains (sandbox.network.allowedDomains, WebFetch(domain:...) rules), which needs socat (not installed): this command ran with no network at all.",
    };
  const { networkProxyFor } = await import("../../shell/sandbox/network-proxy.js");
  const proxy = await networkProxyFor(lists);
  const directHosts = loopbackNamesKeptDirect((host) => decideHost(host, lists).allowed);
  return { bridge: { socatPath, socketPath: proxy.socketPath, socksSocketPath: proxy.socksSocketPath, directHosts } };
}
