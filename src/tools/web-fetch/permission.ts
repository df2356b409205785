// Whether WebFetch may read a URL, in this order:
//   1. a deny rule naming the host (`WebFetch(domain:example.com)`, `WebFetch(domain:*.example.com)`) → deny
//   2. an ask rule naming it                                              → ask (even in bypass mode)
//   3. the host is the local network (loopback, a private range, or a name resolving to one):
//      allowed only by an allow rule that names this very host (no wildcard); otherwise ask, as a
//      safety check no mode or whole-tool rule overrides: a page must not make Warden read the
//      local network, and a wildcard written for public hosts must not reach it either
//   4. an allow rule naming it                                            → allow
//   5. a pre-approved documentation host (./preapproved-hosts.ts)        → allow
//   6. otherwise no opinion: the engine asks, suggesting a rule for the host
// Rules naming the whole tool (`WebFetch`) are the engine's, before (deny, ask) and after (allow)
// this check.
import { describeRule } from "../../permissions/rules/index.js";
import type { PermissionResult, PermissionRule, RulesByBehavior } from "../../tool/permission-types.js";
import { bareHost } from "../web-shared/addresses.js";
import { type HostJudgements, type HostResolution, recordJudgement, resolveHost } from "./host-resolution.js";
import { WEB_FETCH_TOOL_NAME } from "./prompt.js";
import { fetchTarget } from "./url.js";

/**
 * The host pattern of a rule's content: `domain:example.com` (the documented form), and, so that a
 * deny rule written another way still holds, a bare host or a URL.
 */
export function ruleHostPattern(content: string): string {
  const text = content.trim();
  const body = text.toLowerCase().startsWith("domain:") ? text.slice("domain:".length).trim() : text;
  if (/^https?:\/\//i.test(body)) {
    try {
      return bareHost(new URL(body).hostname);
    } catch {
      return body.toLowerCase();
    }
  }
  return bareHost(body);
}

/** `example.com` names that host only; `*.example.com` every host under it (not example.com itself). */
export function hostMatchesPattern(host: string, pattern: string): boolean {
  if (pattern.startsWith("*.")) return host.endsWith(pattern.slice(1)) && host.length > pattern.length - 1;
  return host === pattern;
}

function rulesFor(rules: readonly PermissionRule[], host: string): PermissionRule | undefined {
  return rules.find(
    (rule) =>
      rule.value.toolName === WEB_FETCH_TOOL_NAME &&
      rule.value.ruleContent !== undefined &&
      hostMatchesPattern(host, ruleHostPattern(rule.value.ruleContent)),
  );
}

/** An allow rule naming exactly this host (what lets a private address through unasked). */
function explicitAllow(rules: readonly PermissionRule[], host: string): PermissionRule | undefined {
  return rules.find(
    (rule) =>
      rule.value.toolName === WEB_FETCH_TOOL_NAME &&
      rule.value.ruleContent !== undefined &&
      ruleHostPattern(rule.value.ruleContent) === host,
  );
}

export interface WebFetchPermissionInput {
  url: string;
  rules: RulesByBehavior;
  preapprovedHosts: readonly string[];
  /** The session's judgements of hosts, which this check adds to (host-resolution.ts). */
  judgements: HostJudgements;
  /** Resolves a host name (tests of the rules alone pass one that does not touch DNS). */
  resolve?: (host: string) => Promise<HostResolution>;
}

export async function webFetchPermission<Input>(args: WebFetchPermissionInput): Promise<PermissionResult<Input>> {
  const target = fetchTarget(args.url);
  if ("error" in target) {
    return { behavior: "deny", message: target.error, decisionReason: { type: "tool", reason: target.error } };
  }
  const host = bareHost(target.url.hostname);
  const deny = rulesFor(args.rules.deny, host);
  if (deny) {
    return {
      behavior: "deny",
      message: `Fetching from ${host} has been denied by ${describeRule(deny)}.`,
      decisionReason: { type: "rule", rule: deny },
    };
  }
  // Resolved before the ask rule, so that a fetch approved there is judged (and held to) like any other.
  const resolution = await (args.resolve ?? resolveHost)(host);
  recordJudgement(args.judgements, resolution);
  const ask = rulesFor(args.rules.ask, host);
  if (ask) {
    return {
      behavior: "ask",
      message: `Fetching from ${host} needs approval: ${describeRule(ask)}.`,
      decisionReason: { type: "rule", rule: ask },
    };
  }
  const suggestion = {
    type: "addRules" as const,
    behavior: "allow" as const,
    rules: [{ toolName: WEB_FETCH_TOOL_NAME, ruleContent: `domain:${host}` }],
    destination: "localSettings" as const,
  };
  if (resolution.isPrivate) {
    const named = explicitAllow(args.rules.allow, host);
    if (named) return { behavior: "allow", decisionReason: { type: "rule", rule: named } };
    const where = resolution.privateAddress === host ? host : `${host} (${resolution.privateAddress})`;
    const reason = `${where} is on the local network or this machine`;
    return {
      behavior: "ask",
      message: `Fetch ${target.url.href}? ${reason}; only a rule naming ${host} itself allows that unasked.`,
      decisionReason: { type: "safetyCheck", reason },
      suggestions: [suggestion],
    };
  }
  const allow = rulesFor(args.rules.allow, host);
  if (allow) return { behavior: "allow", decisionReason: { type: "rule", rule: allow } };
  if (args.preapprovedHosts.includes(host)) {
    return {
      behavior: "allow",
      decisionReason: { type: "tool", reason: `${host} is a pre-approved documentation host` },
    };
  }
  return {
    behavior: "passthrough",
    message: `Fetch ${target.url.href}? No rule allows ${host} yet.`,
    suggestions: [suggestion],
  };
}
