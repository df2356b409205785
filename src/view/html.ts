// HTML built only through the `html` tag: every interpolated value is escaped unless it is markup
// this tag itself produced. A transcript is attacker-influenced (a fetched web page, a file in a
// cloned repository, a tool's output all land in it), so no string from it may reach the page raw.

/** Markup that is already safe: made by `html` (or `raw` on a literal of our own). */
export class SafeHtml {
  constructor(readonly text: string) {}
  toString(): string {
    return this.text;
  }
}

type Interpolated = SafeHtml | string | number | boolean | null | undefined | readonly Interpolated[];

const ENTITIES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ENTITIES[c] ?? c);
}

function render(value: Interpolated): string {
  if (value === null || value === undefined || value === false) return "";
  if (value instanceof SafeHtml) return value.text;
  if (Array.isArray(value)) return value.map(render).join("");
  return escapeHtml(String(value));
}

export function html(strings: TemplateStringsArray, ...values: Interpolated[]): SafeHtml {
  let out = strings[0] ?? "";
  values.forEach((value, i) => {
    out += render(value) + (strings[i + 1] ?? "");
  });
  return new SafeHtml(out);
}

/** Our own constant markup (a stylesheet, a script): never call it on transcript text. */
export function raw(text: string): SafeHtml {
  return new SafeHtml(text);
}
