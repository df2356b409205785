// `diagnostics`: after Edit or Write changed a file that a running language server handles, the
// server is given the new text and the errors it then reports that were not there before come
// back to the model at the next request, so a broken type is seen at once rather than at the next
// build. Only servers already running in the session are asked (the LSP tool starts them); none is
// started here, so a session that never used the LSP tool loads no LSP code for this.
//
// Files the model has read are opened in the running server before it edits them, so their errors
// before the edit are known and only new ones are reported.
import { isAbsolute } from "node:path";
import type { Diagnostic } from "vscode-languageserver-protocol/node";
import type { LspClient } from "../../lsp/client.js";
import type { LspService } from "../../lsp/service.js";
import type { AttachmentItem, AttachmentSource, ToolUseContext } from "../../tool/types.js";
import { displayPath } from "../file-shared/paths.js";

const EDITING_TOOLS = new Set(["Edit", "Write"]);
/** How long the next request waits for the server's first diagnostics after an edit. */
const FIRST_PUBLISH_WAIT_MS = 5_000;
/**
 * Servers publish in stages (syntax, then types): the set is taken once they are quiet this long.
 * A stage that comes later still is reported at the request after (an edit is watched one more
 * time after its first report).
 */
const QUIET_MS = 400;
/** Requests after an edit's own at which later diagnostics for it are still reported. */
const LOOK_AGAIN = 2;
const MAX_PER_FILE = 20;
const ERROR = 1;

interface PendingEdit {
  client: LspClient;
  path: string;
  baseline: Diagnostic[];
  countAtChange: number;
  /** Errors already reported for this edit. */
  reported: Diagnostic[];
  /** Later requests at which this edit is still looked at. */
  lookAgain: number;
}

function key(diagnostic: Diagnostic): string {
  return `${diagnostic.code ?? ""}\u0000${diagnostic.source ?? ""}\u0000${diagnostic.message}`;
}

/** Errors in `after` that `before` did not have (compared without their position: lines move). */
export function newErrors(before: readonly Diagnostic[], after: readonly Diagnostic[]): Diagnostic[] {
  const seen = new Map<string, number>();
  for (const d of before) if (d.severity === ERROR) seen.set(key(d), (seen.get(key(d)) ?? 0) + 1);
  const fresh: Diagnostic[] = [];
  for (const d of after) {
    if (d.severity !== ERROR) continue;
    const left = seen.get(key(d)) ?? 0;
    if (left > 0) seen.set(key(d), left - 1);
    else fresh.push(d);
  }
  return fresh;
}

function editedPaths(context: ToolUseContext, handled: Set<string>): string[] {
  const paths: string[] = [];
  for (const message of context.messages) {
    if (message.role !== "assistant" || typeof message.content === "string") continue;
    for (const block of message.content) {
      if (block.type !== "tool_use" || !EDITING_TOOLS.has(block.name) || handled.has(block.id)) continue;
      handled.add(block.id);
      const path = (block.input as { file_path?: unknown }).file_path;
      if (typeof path === "string" && isAbsolute(path) && !paths.includes(path)) paths.push(path);
    }
  }
  return paths;
}

export function diagnosticsSource(service: LspService): AttachmentSource {
  const handled = new Set<string>();
  let pending: PendingEdit[] = [];
  return {
    kind: "diagnostics",
    async collect({ context }) {
      const edited = editedPaths(context, handled);
      const manager = service.loadedManager();
      if (!manager) return undefined;
      for (const path of edited) {
        const client = manager.runningClientFor(path);
        if (!client) continue;
        const baseline = client.isOpen(path) ? client.currentDiagnostics(path) : [];
        let countAtChange: number | undefined;
        try {
          countAtChange = await client.reopen(path);
        } catch {
          continue; // The file is gone or unreadable: nothing to check.
        }
        if (countAtChange === undefined) continue;
        pending = pending.filter((edit) => edit.path !== path);
        pending.push({ client, path, baseline, countAtChange, reported: [], lookAgain: LOOK_AGAIN });
      }
      const items: AttachmentItem[] = [];
      const still: PendingEdit[] = [];
      for (const edit of pending) {
        // Only an edit made since the last request is waited for; older ones are looked at as they are.
        const waitMs = edited.includes(edit.path) ? FIRST_PUBLISH_WAIT_MS : 0;
        const after = await edit.client.waitForDiagnostics(edit.path, edit.countAtChange, waitMs, QUIET_MS);
        if (after !== undefined) {
          const fresh = newErrors([...edit.baseline, ...edit.reported], after);
          if (fresh.length > 0) items.push({ text: describe(edit.path, fresh, context.options.cwd) });
          edit.reported.push(...fresh);
          edit.countAtChange = edit.client.diagnosticsCount(edit.path);
        }
        if (edit.client.alive && edit.lookAgain-- > 0) still.push(edit);
      }
      pending = still;
      // Files the model read: opened now, so their errors before an edit are known.
      for (const path of context.readFileState.keys()) {
        const client = manager.runningClientFor(path);
        if (client && !client.isOpen(path)) await client.sync(path).catch(() => undefined);
      }
      return items;
    },
  };
}

function describe(path: string, errors: Diagnostic[], cwd: string): string {
  const shown = displayPath(path, cwd);
  const lines = errors.slice(0, MAX_PER_FILE).map((d) => {
    const origin = [d.source, d.code].filter((part) => part !== undefined && part !== "").join(" ");
    return `  ${shown}:${d.range.start.line + 1}:${d.range.start.character + 1} error${origin ? ` (${origin})` : ""}: ${d.message}`;
  });
  const more = errors.length > MAX_PER_FILE ? `\n  … and ${errors.length - MAX_PER_FILE} more` : "";
  return `The language server reports new errors in ${shown} after your edit:\n${lines.join("\n")}${more}`;
}
