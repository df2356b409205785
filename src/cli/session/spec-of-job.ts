// A fleet job's run as a SessionSpec (./spec.ts): the session a worker starts for it, described
// once and handed to the child as that one value (./spec-wire.ts), never as flags. Headless,
// stream-json and verbose are the worker's (it reads the events); everything else the job may
// carry maps to the spec's field of the same meaning. The job is an untrusted queue entry that the
// worker has admitted (fleet/admit-job.ts); none of its fields can widen what the worker's own
// settings allow, and the fields that would (bypass, extra folders, trust, settings, MCP servers)
// are simply not in a job's schema.
import type { JobRun, SessionInvocation } from "../../fleet/child-session.js";
import { splitRuleList } from "../../permissions/rules/index.js";
import { parseSessionSpec, type SessionSpec } from "./spec.js";
import { SESSION_SPEC_FROM_STDIN, writeSessionSpec } from "./spec-wire.js";

export function specOfJob(run: JobRun): SessionSpec {
  const { job } = run;
  // A list entry may hold several rules ("Read Write"), as the flags the job once became split them.
  const rules = (list: readonly string[] | undefined) => (list ?? []).flatMap((entry) => splitRuleList(entry));
  return parseSessionSpec({
    print: true,
    outputFormat: "stream-json",
    verbose: true,
    prompt: run.prompt,
    cwd: run.cwd,
    resume: run.resume,
    model: job.model,
    permissionMode: job.permissionMode,
    allowedTools: rules(job.allowedTools),
    disallowedTools: rules(job.disallowedTools),
    tools: job.tools,
    maxTurns: job.maxTurns,
    maxBudgetUsd: job.maxBudgetUsd,
    jsonSchema: job.jsonSchema ? JSON.stringify(job.jsonSchema) : undefined,
    appendSystemPrompt: job.appendSystemPrompt,
  });
}

/** The worker's JobSessionArgs: `warden --session-spec -`, the run's spec on stdin. */
export function jobSessionArgs(run: JobRun): SessionInvocation {
  return { args: SESSION_SPEC_FROM_STDIN, input: writeSessionSpec(specOfJob(run)) };
}
