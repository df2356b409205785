import { z } from "zod";
import type { AnyTool, JSONSchema } from "./types.js";

const schemaCache = new WeakMap<object, JSONSchema>();

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
  const converted = z.toJSONSchema(schema, {
    io,
    unrepresentable: "any",
    override: dropSafeIntegerBounds,
  }) as JSONSchema;
  delete converted.$schema;
  schemaCache.set(schema, converted);
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
