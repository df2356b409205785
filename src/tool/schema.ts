import { readFileSync } from "node:fs";
import * as z from "zod";
import type { AnyTool, JSONSchema } from "./types.js";

const schemaCache = new WeakMap<object, JSONSchema>();

/** The name each prebuilt input schema is known by in the build's table, and every one registered. */
const prebuiltKeys = new WeakMap<object, string>();
const prebuiltSchemas = new Map<string, z.ZodType>();

/**
 * The file the build writes beside the bundle (scripts/tool-schemas.mjs): the JSON Schema of every
 * prebuilt input schema, by key. Looked for beside the built chunks (dist/chunks/ → dist/); from
 * the sources there is none, and every schema is converted as it is first needed.
 */
export const PREBUILT_SCHEMAS_FILE = "tool-input-schemas.json";
let prebuiltTable: Record<string, JSONSchema> | null | undefined;

function prebuiltTableOf(): Record<string, JSONSchema> | null {
  if (prebuiltTable !== undefined) return prebuiltTable;
  prebuiltTable = null;
  try {
    const parsed: unknown = JSON.parse(readFileSync(new URL(`../${PREBUILT_SCHEMAS_FILE}`, import.meta.url), "utf8"));
    if (typeof parsed === "object" && parsed !== null && !Array.isArray(parsed)) {
      prebuiltTable = parsed as Record<string, JSONSchema>;
    }
  } catch {
    // No table (running from the sources, or a build without one): convert as needed.
  }
  return prebuiltTable;
}

/**
 * An input schema built only when a call is first validated, whose JSON Schema (what every request
 * sends) the build computes once and ships in a table: a session that only offers the tool never
 * builds the zod objects nor converts them, which were a large share of the CPU before the first
 * request (issue 39). `build` must depend on nothing but constants (no environment, no settings),
 * since the table is written at build time; the same conversion runs when there is no table.
 */
export function prebuiltInputSchema<T extends z.ZodType>(key: string, build: () => T): z.ZodLazy<T> {
  if (prebuiltSchemas.has(key)) throw new Error(`prebuiltInputSchema: the key ${key} is taken`);
  const schema = z.lazy(build);
  prebuiltKeys.set(schema, key);
  prebuiltSchemas.set(key, schema);
  return schema;
}

/** Every prebuilt input schema converted now, by key: what the build writes to the table. */
export function convertPrebuiltInputSchemas(): Record<string, JSONSchema> {
  const table: Record<string, JSONSchema> = {};
  for (const [key, schema] of prebuiltSchemas) table[key] = convert(schema, "input");
  return table;
}

/**
 * The JSON Schema the model sees for a tool. Converted with Zod's own converter in "input" mode
 * so fields with defaults stay optional. Cached per schema object: the same bytes every request
 * keep the prompt cache warm and save the conversion cost.
 */
export function toolInputJSONSchema(tool: AnyTool): JSONSchema {
  return tool.inputJSONSchema ?? cachedJSONSchema(tool.inputSchema, "input");
}

/** The JSON Schema of a tool's structured result, when it declares one (Tool.outputSchema). */
export function toolOutputJSONSchema(tool: AnyTool): JSONSchema | undefined {
  return tool.outputSchema ? cachedJSONSchema(tool.outputSchema, "output") : undefined;
}

function cachedJSONSchema(schema: z.ZodType, io: "input" | "output"): JSONSchema {
  const cached = schemaCache.get(schema);
  if (cached) return cached;
  const key = io === "input" ? prebuiltKeys.get(schema) : undefined;
  const converted = (key !== undefined ? prebuiltTableOf()?.[key] : undefined) ?? convert(schema, io);
  schemaCache.set(schema, converted);
  return converted;
}

function convert(schema: z.ZodType, io: "input" | "output"): JSONSchema {
  const converted = z.toJSONSchema(schema, {
    io,
    unrepresentable: "any",
    override: dropSafeIntegerBounds,
  }) as JSONSchema;
  delete converted.$schema;
  return converted;
}

/**
 * Zod writes `.int()` as bounded by the safe-integer range. Those bounds tell the model nothing
 * (no one writes a 16-digit line number) and cost ~28 bytes per integer field on every request.
 */
function dropSafeIntegerBounds(context: { jsonSchema: Record<string, unknown> }): void {
  const schema = context.jsonSchema;
  if (schema.maximum === Number.MAX_SAFE_INTEGER) delete schema.maximum;
  if (schema.minimum === Number.MIN_SAFE_INTEGER) delete schema.minimum;
}

/** Formats a Zod failure so the model can see which field to fix. */
export function formatZodError(toolName: string, error: z.ZodError): string {
  const lines = error.issues.map((issue) => {
    const path = issue.path.length ? issue.path.join(".") : "(input)";
    return `- ${path}: ${issue.message}`;
  });
  return `InputValidationError: ${toolName} was called with invalid input:\n${lines.join("\n")}`;
}
