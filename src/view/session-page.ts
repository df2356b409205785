// A session as a page: the conversation in order; each tool call folded open with its input, the
// permission decisions and hooks that let it run (or stopped it), its result, an edit's diff, and
// links to the subagents it started; token counts and cost per model turn; compaction boundaries.
import type { Usage } from "../messages/types.js";
import type { SidechainRecord } from "../session/sidechains.js";
import { editDiffOf } from "./edit-diff.js";
import { html, type SafeHtml } from "./html.js";
import type { DecisionView, HookView, SessionView, ToolCallView, TurnCost, ViewItem } from "./session-model.js";

/** Where the page's links go: built by the server, which knows the session and the token. */
export interface SessionLinks {
  agent(agentId: string): string;
}

/** A tool's result or input beyond this is cut on the page (the transcript keeps it whole). */
const SHOWN_CHARS = 20_000;

function clip(text: string): string {
  return text.length <= SHOWN_CHARS
    ? text
    : `${text.slice(0, SHOWN_CHARS)}\n… (${text.length - SHOWN_CHARS} more characters)`;
}

function time(at: string | undefined): SafeHtml {
  return html`${at ? html`<span class="muted" title="${at}">${at.slice(11, 19)}</span>` : ""}`;
}

function usd(value: number | null): string {
  return value === null ? "cost unknown" : `$${value < 0.01 && value > 0 ? value.toFixed(4) : value.toFixed(2)}`;
}

function tokens(usage: Usage): string {
  const cached = (usage.cache_read_input_tokens ?? 0) + (usage.cache_creation_input_tokens ?? 0);
  return `${usage.input_tokens} in · ${usage.output_tokens} out${cached ? ` · ${usage.cache_read_input_tokens ?? 0} cache read · ${usage.cache_creation_input_tokens ?? 0} cache write` : ""}`;
}

function costLine(cost: TurnCost | undefined): SafeHtml {
  return html`${cost ? html`<span class="turn-cost">${tokens(cost.usage)} · ${usd(cost.costUsd)}</span>` : ""}`;
}

/** Who settled a call, in words: the one asked may be a person, an SDK's callback or a headless refusal. */
const DECIDED_BY: Record<string, string> = {
  engine: "by the engine",
  askHandler: "when asked",
  autoMode: "by the auto-mode classifier",
  hook: "by a hook",
};

function decision(d: DecisionView): SafeHtml {
  const by = DECIDED_BY[d.decidedBy] ?? `by ${d.decidedBy}`;
  return html`<div class="decision">
<span class="badge ${d.behavior === "allow" ? "allow" : "deny"}">${d.behavior}</span>
<span>${by}: ${d.reason}</span>${d.ruleSource && !d.reason.includes(d.ruleSource) ? html` <span class="muted">(${d.ruleSource})</span>` : ""}
${d.asked ? html`<div class="muted">asked because ${d.asked.reason}: ${d.asked.message}</div>` : ""}
${d.message && d.behavior !== "allow" ? html`<div class="err">${d.message}</div>` : ""}
</div>`;
}

function hook(h: HookView): SafeHtml {
  return html`<div class="hook"><span class="section-title">hook ${h.event}</span>
${h.outcomes.map(
  (o) =>
    html`<div><span class="badge ${o.kind === "success" ? "allow" : "deny"}">${o.kind}</span> <code>${o.hook}</code>${
      o.said ? html`<pre>${clip(o.said)}</pre>` : ""
    }</div>`,
)}</div>`;
}

function agentLink(agent: SidechainRecord, links: SessionLinks): SafeHtml {
  const who = agent.name ? `${agent.name} (${agent.agentType})` : agent.agentType;
  const state = agent.result ? agent.result.reason : "running or stopped";
  return html`<div class="agent">↳ <a href="${links.agent(agent.agentId)}">${who}: ${agent.description}</a>
<span class="muted">${agent.teamName ? `team ${agent.teamName} · ` : ""}${state}</span></div>`;
}

function toolCall(call: ToolCallView, links: SessionLinks): SafeHtml {
  const diff = editDiffOf(call.name, call.input);
  const denied = call.decisions.some((d) => d.behavior === "deny");
  const status = call.result ? (call.result.isError ? "error" : "done") : denied ? "denied" : "no result yet";
  const summaryTarget =
    typeof call.input.command === "string"
      ? call.input.command
      : typeof call.input.file_path === "string"
        ? call.input.file_path
        : typeof call.input.pattern === "string"
          ? call.input.pattern
          : typeof call.input.description === "string"
            ? call.input.description
            : "";
  return html`<details class="tool" id="call-${call.id}"${denied || call.result?.isError ? html` open` : ""}>
<summary><b>${call.name}</b> ${summaryTarget.slice(0, 120)} <span class="${status === "done" ? "muted" : "err"}">· ${status}</span></summary>
${call.decisions.map(decision)}
${call.hooks.map(hook)}
${
  diff
    ? html`<div class="section-title">diff ${diff.filePath}</div><div class="diff">${diff.lines.map(
        (l) => html`<div class="${l.sign === "+" ? "add" : l.sign === "-" ? "del" : ""}">${l.sign} ${l.text}</div>`,
      )}</div>`
    : ""
}
<div class="section-title">input</div><pre>${clip(JSON.stringify(call.input, null, 2))}</pre>
${call.result ? html`<div class="section-title">result</div><pre class="${call.result.isError ? "err" : ""}">${clip(call.result.text)}</pre>` : ""}
${call.agents.map((a) => agentLink(a, links))}
</details>`;
}

function item(entry: ViewItem, links: SessionLinks): SafeHtml {
  switch (entry.kind) {
    case "user":
      return html`<div class="card user${entry.meta ? " meta" : ""}"><div class="role"><b>${entry.meta ? "reminder" : "user"}</b> ${time(entry.at)}</div><div class="text">${clip(entry.text)}</div></div>`;
    case "assistant":
      return html`<div class="card assistant"><div class="role"><b>assistant</b> ${entry.model ? html`<span>${entry.model}</span>` : ""} ${time(entry.at)} ${costLine(entry.cost)}</div>
${entry.thinking.map((t) => html`<details><summary class="muted">thinking</summary><div class="text muted">${clip(t)}</div></details>`)}
${entry.texts.map((t) => html`<div class="text">${clip(t)}</div>`)}
${entry.calls.map((c) => toolCall(c, links))}</div>`;
    case "compact":
      return html`<div class="marker compact">conversation compacted (${entry.trigger}): ${entry.preTokens} → ${entry.postTokens} tokens ${time(entry.at)}</div>`;
    case "result":
      return html`<div class="marker result">prompt ended: ${entry.reason} after ${entry.turnCount} turn(s)${entry.usage ? ` · ${tokens(entry.usage)}` : ""}${entry.error ? html` · <span class="err">${entry.error}</span>` : ""} ${time(entry.at)}</div>`;
    case "resume":
      return html`<div class="marker">resumed ${time(entry.at)}</div>`;
    case "hook":
      return html`<div class="card">${hook(entry.hook)} ${time(entry.at)}</div>`;
    case "decision":
      return html`<div class="card"><b>${entry.toolName}</b> ${decision(entry.decision)}</div>`;
    case "entry":
      return html`<div class="muted entry">${entry.type} ${time(entry.at)}</div>`;
  }
}

export function sessionBody(view: SessionView, links: SessionLinks): SafeHtml {
  const t = view.totals;
  return html`<div class="muted summary">${view.cwd ?? ""} · ${view.model ?? ""} · ${t.input} in · ${t.output} out · ${t.cacheRead} cache read · ${t.cacheWrite} cache write · ${usd(t.costUsd)}</div>
${view.warnings.map((w) => html`<div class="err">${w}</div>`)}
${view.items.map((i) => item(i, links))}
${view.otherAgents.length ? html`<h3>Other subagents and teammates</h3>${view.otherAgents.map((a) => agentLink(a, links))}` : ""}`;
}
