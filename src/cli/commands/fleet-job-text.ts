// How `warden fleet status` and `results` print a job for the operator's terminal: one line a job,
// or its result block. What a queue entry holds was written by whoever wrote it into Redis, so its
// text is shown escaped, never sent to the terminal as it is.
import type { JobResult, JobStatus } from "../../fleet/client.js";
import { shownJobId } from "../../fleet/job-id.js";

export function statusLine(job: JobStatus): string {
  const where = job.worker ? `  ${job.worker}` : "";
  const refused = job.refusedCalls ? ` (${refusedText(job.refusedCalls)})` : "";
  const why = job.state === "failed" && job.error ? `  ${oneLine(job.error, 200)}` : "";
  return `${shownJobId(job.id)}  ${job.state.padEnd(9)}${refused}${where}  ${oneLine(job.prompt, 60)}${why}\n`;
}

/** A queue's text on one line of the operator's terminal: whoever wrote the job into Redis chose it,
 * so its control characters (escape sequences that retitle, recolour or rewrite the screen) are shown, not sent. */
function oneLine(text: string, max: number): string {
  return text
    .replace(/\s+/g, " ")
    .slice(0, max)
    .replace(/[\u0000-\u001f\u007f-\u009f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

function refusedText(count: number): string {
  return `${count} call${count === 1 ? "" : "s"} refused`;
}

export function resultText(job: JobResult): string {
  const refused = job.refusals?.length ? `, ${refusedText(job.refusals.length)}` : "";
  const lines = [`== ${shownJobId(job.id)} ${job.state}${refused}${job.worker ? ` (${job.worker})` : ""}`];
  // A session that failed before answering has an empty result text: its error says why.
  const text = job.result ? String(job.result.result ?? "") : "";
  if (text) lines.push(text);
  else if (job.error) lines.push(`error: ${job.error}`);
  for (const call of job.refusals ?? []) lines.push(`refused: ${call.tool} ${call.target}: ${call.reason}`);
  if (job.structuredOutput !== undefined) lines.push(`structured output: ${JSON.stringify(job.structuredOutput)}`);
  if (job.diffstat?.trim()) lines.push(job.diffstat.trimEnd());
  else if (job.state === "completed") lines.push("(no changes to the repository)");
  return `${lines.join("\n")}\n\n`;
}
