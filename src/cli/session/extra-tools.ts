// WARDEN_EXTRA_TOOLS: a comma-separated list of ES module paths whose `tools` export (or default
// export) is an array of tools to add to the session's pool after the built-in ones. It lets tests,
// benchmarks and local experiments run the real CLI with a tool of their own; the tools still go
// through the session's permission authority like any other.
import { isAbsolute, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import type { AnyTool } from "../../tool/types.js";

function looksLikeTool(value: unknown): value is AnyTool {
  if (typeof value !== "object" || value === null) return false;
  const t = value as Partial<AnyTool>;
  return typeof t.name === "string" && typeof t.call === "function" && typeof t.inputSchema === "object";
}

export async function loadExtraTools(spec = process.env.WARDEN_EXTRA_TOOLS): Promise<AnyTool[]> {
  if (!spec?.trim()) return [];
  const tools: AnyTool[] = [];
  for (const entry of spec
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean)) {
    const path = isAbsolute(entry) ? entry : resolve(process.cwd(), entry);
    const mod = (await import(pathToFileURL(path).href)) as { tools?: unknown; default?: unknown };
    const list = mod.tools ?? mod.default;
    if (!Array.isArray(list) || !list.every(looksLikeTool)) {
      throw new Error(`WARDEN_EXTRA_TOOLS: ${path} must export \`tools\` (or a default export) as an array of tools`);
    }
    tools.push(...list);
  }
  return tools;
}
