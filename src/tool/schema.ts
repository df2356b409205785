import { z } from "zod";
import type { AnyTool, JSONSchema } from "./types.js";

const schemaCache = new WeakMap<object, JSONSchema>();

/**
 * The JSON Schema the model sees for a tool. Converted with Zod's own converter in "input" mode
 * so fields with defaults stay optional. Cached per schema object: the same bytes every request
 * keep the prompt cache warm and save the conversion cost.
 */
export function toolInputJSONSchema(tool: AnyTool): JSONSchema {
  if (tool.inputJSONSchema) return tool.inputJSONSchema;
  const cached = schemaCache.get(tool.inputSchema);
  if (cached) return cached;
  const converted = z.toJSONSchema(tool.inputSchema, { io: "input", unrepresentable: "any" }) as JSONSchema;
  delete converted.$schema;
  schemaCache.set(tool.inputSchema, converted);
  return converted;
}

/** The JSON Schema of a tool's structured result, when it declares one (Tool.outputSchema). */
export function toolOutputJSONSchema(tool: AnyTool): JSONSchema | undefined {
  if (!tool.outputSchema) return undefined;
  const cached = schemaCache.get(tool.outputSchema);
  if (cached) return cached;
  const converted = z.toJSONSchema(tool.outputSchema, { io: "output", unrepresentable: "any" }) as JSONSchema;
  delete converted.$schema;
  schemaCache.set(tool.outputSchema, converted);
  return converted;
}

/** Formats a Zod failure so the model can see which field to fix. */
export function formatZodError(toolName: string, error: z.ZodError): string {
  const lines = error.issues.map((issue) => {
    const path = issue.path.length ? issue.path.join(".") : "(input)";
    return `- ${path}: ${issue.message}`;
  });
  return `InputValidationError: ${toolName} was called with invalid input:\n${lines.join("\n")}`;
}
