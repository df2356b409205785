// The calls a job's session was refused (what would have asked a person is denied headless, and a
// deny rule denies): the result line lists them (`permission_denials`), the tool results say why.
// A job that completes with refused calls did not do all it was asked to, so its state and
// results say so rather than a bare "completed".

export interface RefusedCall {
  tool: string;
  /** What the call was about, in one line: its file, command, or input. */
  target: string;
  /** The refusal the model was given. */
  reason: string;
}

const CLIP = 400;

/** The headless refusal's line that says why (src/permissions/engine/ask-handlers.ts), else its first. */
function whyOf(text: string): string {
  const lines = text.split("\n");
  const why = lines.find((line) => line.startsWith("Why it needed approval: "));
  return why ? why.slice("Why it needed approval: ".length) : (lines[0] ?? "");
}

function clip(text: string): string {
  const line = text.replace(/\s+/g, " ").trim();
  return line.length > CLIP ? `${line.slice(0, CLIP - 1)}…` : line;
}

function targetOf(input: unknown): string {
  if (input === null || typeof input !== "object") return "";
  const fields = input as Record<string, unknown>;
  for (const key of ["file_path", "notebook_path", "command", "path", "url", "pattern"]) {
    if (typeof fields[key] === "string") return clip(fields[key] as string);
  }
  return clip(JSON.stringify(input));
}

function textOfContent(content: unknown): string {
  if (typeof content === "string") return content;
  if (Array.isArray(content)) {
    return content
      .map((block) => (block && typeof block === "object" && "text" in block ? String(block.text) : ""))
      .join(" ");
  }
  return "";
}

/** Watches a session's stream-json lines for refusals; asks the result line which calls they were. */
export class RefusalCollector {
  private readonly errorTexts = new Map<string, string>();

  observe(event: Record<string, unknown>): void {
    if (event.type !== "user") return;
    const message = event.message as { content?: unknown } | undefined;
    if (!Array.isArray(message?.content)) return;
    for (const block of message.content as Array<Record<string, unknown>>) {
      if (block?.type === "tool_result" && block.is_error === true && typeof block.tool_use_id === "string") {
        this.errorTexts.set(block.tool_use_id, textOfContent(block.content));
      }
    }
  }

  /**
   * The refused calls the result line lists, each with what it was refused for; paths inside the
   * workspace (`cwd`) are shown relative to it, as the submitter knows the repository.
   */
  refusalsOf(result: Record<string, unknown>, cwd: string): RefusedCall[] {
    const denials = Array.isArray(result.permission_denials) ? result.permission_denials : [];
    const local = (text: string) => text.split(`${cwd}/`).join("");
    return denials.map((denial: Record<string, unknown>) => ({
      tool: String(denial.tool_name ?? "?"),
      target: local(targetOf(denial.tool_input)),
      reason: clip(local(whyOf(this.errorTexts.get(String(denial.tool_use_id)) ?? "refused"))),
    }));
  }
}
