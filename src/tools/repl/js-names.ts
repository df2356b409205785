// The name a program calls a tool by: its own name when that is a JavaScript identifier
// (`Read`, `mcp__github__create_issue`), else with every other character turned into `_`
// (`mcp__my-server__get.item` → `mcp__my_server__get_item`). Names that would clash with each
// other or with the program's own globals get a numbered suffix; `tools["exact name"]` always works.
import type { AnyTool } from "../../tool/types.js";

/** Globals the prelude defines or the language has: a tool never shadows them. */
const RESERVED = new Set([
  "print",
  "console",
  "tools",
  "globalThis",
  "JSON",
  "Math",
  "Object",
  "Array",
  "String",
  "Number",
  "Boolean",
  "Promise",
  "Error",
  "Date",
  "RegExp",
  "Map",
  "Set",
  "Symbol",
  "undefined",
  "NaN",
  "Infinity",
  "eval",
]);

export function jsNameOf(name: string): string {
  let safe = name.replace(/[^A-Za-z0-9_$]/g, "_");
  if (!/^[A-Za-z_$]/.test(safe)) safe = `_${safe}`;
  return safe;
}

/** One JavaScript name per tool, unique, in pool order. */
export function jsNamesFor(tools: readonly AnyTool[]): Array<{ jsName: string; name: string }> {
  const taken = new Set(RESERVED);
  return tools.map((tool) => {
    const base = jsNameOf(tool.name);
    let jsName = RESERVED.has(base) ? `${base}_tool` : base;
    for (let n = 2; taken.has(jsName); n += 1) jsName = `${base}_${n}`;
    taken.add(jsName);
    return { jsName, name: tool.name };
  });
}
