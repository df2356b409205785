// A notebook as the model reads it: each cell with its id, type and source, then its outputs as
// text (images in outputs are named, not inlined, to keep the result small).
import { cellLabel, type NotebookOutput, parseNotebook, sourceText } from "../file-shared/notebook.js";

const MAX_OUTPUT_CHARS_PER_CELL = 10_000;

export function renderNotebook(text: string, filePath: string): { rendered: string; cellCount: number } {
  const notebook = parseNotebook(text, filePath);
  const language = (notebook.metadata?.language_info as { name?: string } | undefined)?.name ?? "python";
  const parts = notebook.cells.map((cell, index) => {
    const header = `<cell id="${cellLabel(cell, index)}" type="${cell.cell_type}"${cell.cell_type === "code" ? ` language="${language}"` : ""}>`;
    const body = sourceText(cell.source);
    const outputs = (cell.outputs ?? []).map(renderOutput).filter((o) => o !== "");
    let outputText = outputs.join("\n");
    if (outputText.length > MAX_OUTPUT_CHARS_PER_CELL) {
      outputText = `${outputText.slice(0, MAX_OUTPUT_CHARS_PER_CELL)}\n… [outputs cut at ${MAX_OUTPUT_CHARS_PER_CELL} characters]`;
    }
    const outputBlock = outputText ? `\n<outputs>\n${outputText}\n</outputs>` : "";
    return `${header}\n${body}${outputBlock}\n</cell>`;
  });
  return { rendered: parts.join("\n\n"), cellCount: notebook.cells.length };
}

function renderOutput(output: NotebookOutput): string {
  if (output.output_type === "stream") return sourceText(output.text);
  if (output.output_type === "error") {
    const traceback = (output.traceback ?? []).join("\n").replace(/\u001b\[[0-9;]*m/g, "");
    return `${output.ename ?? "Error"}: ${output.evalue ?? ""}${traceback ? `\n${traceback}` : ""}`;
  }
  const data = output.data ?? {};
  const plain = data["text/plain"] as string | string[] | undefined;
  const images = Object.keys(data).filter((k) => k.startsWith("image/"));
  const lines: string[] = [];
  if (plain !== undefined) lines.push(sourceText(plain));
  for (const mime of images) lines.push(`[${mime} output]`);
  return lines.join("\n");
}
