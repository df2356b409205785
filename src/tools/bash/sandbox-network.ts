// What network a sandboxed command gets, from the sandbox settings and the WebFetch domain rules
// together, as Claude Code does: the hosts the filtering proxy lets through are
// sandbox.network.allowedDomains plus every `WebFetch(domain:X)` allow rule, and it refuses
// sandbox.network.deniedDomains plus every `WebFetch(domain:X)` deny rule, deny winning. The
// patterns mean the same in both places (an exact name, or `*.example.com` for the names under it).
// A deny list also applies when the settings open the whole network: the command then goes through
// the proxy too, so the refused hosts stay refused.
import type { DomainLists, ResolvedSandboxSettings } from "../../shell/sandbox/index.js";
import type { PermissionRule, RulesByBehavior } from "../../tool/permission-types.js";
import { ruleHostPattern } from "../web-fetch/permission.js";
import { WEB_FETCH_TOOL_NAME } from "../web-fetch/prompt.js";

export type SandboxNetwork =
  /** The whole network, no proxy. */
  | { kind: "open" }
  /** No network at all. */
  | { kind: "none" }
  /** Through the filtering proxy, these lists deciding. */
  | { kind: "filtered"; lists: DomainLists };

/** The host patterns of the WebFetch rules that name a domain (`WebFetch(domain:example.com)`). */
function webFetchDomains(rules: readonly PermissionRule[]): string[] {
  return rules.flatMap((rule) =>
    rule.value.toolName === WEB_FETCH_TOOL_NAME && rule.value.ruleContent?.trim()
      ? [ruleHostPattern(rule.value.ruleContent)]
      : [],
  );
}

export function sandboxNetworkFor(
  settings: Pick<ResolvedSandboxSettings, "allowNetwork" | "allowedDomains" | "deniedDomains">,
  rules: Pick<RulesByBehavior, "allow" | "deny">,
): SandboxNetwork {
  // A deny rule that reads as "*" refuses every host (tighter is the safe reading); an allow rule
  // must name hosts: for WebFetch `domain:*` matches none, so it opens nothing here either.
  const denied = unique([...settings.deniedDomains, ...webFetchDomains(rules.deny)].filter(Boolean));
  if (settings.allowNetwork)
    return denied.length ? { kind: "filtered", lists: { allowed: ["*"], denied } } : { kind: "open" };
  const allowed = unique(
    [...settings.allowedDomains, ...webFetchDomains(rules.allow).filter((pattern) => pattern !== "*")].filter(Boolean),
  );
  if (allowed.length === 0) return { kind: "none" };
  return { kind: "filtered", lists: { allowed, denied } };
}

function unique(items: string[]): string[] {
  return [...new Set(items)];
}
