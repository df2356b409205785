// StructuredOutput: the final answer of a non-interactive run as data matching the caller's JSON
// schema (`warden -p --json-schema`). The schema itself is what the model sees as the tool's
// input; ajv checks each call against it (./schema-check.ts), a mismatch is refused with every
// error so the model can correct it, and a valid call is kept in AppState for the result line.
// Failed attempts are counted: past MAX_STRUCTURED_OUTPUT_ATTEMPTS the model is told to stop, and
// the run ends without output rather than looping.
import * as z from "zod";
import { buildTool } from "../../tool/build-tool.js";
import type { JSONSchema, Tool } from "../../tool/types.js";
import { STRUCTURED_OUTPUT_PROMPT, STRUCTURED_OUTPUT_TOOL_NAME } from "./prompt.js";
import type { OutputCheck } from "./schema-check.js";

/** Mismatched calls allowed before the model is told to give up. */
export const MAX_STRUCTURED_OUTPUT_ATTEMPTS = 5;
const MAX_ERRORS_SHOWN = 20;

const inputSchema = z.record(z.string(), z.unknown());
export type StructuredOutputInput = z.infer<typeof inputSchema>;

export interface StructuredOutputResult {
  recorded: true;
}

/**
 * How a schema is offered: tool input is always a JSON object, so any other root (an array, a
 * string) is wrapped as `{ value: ... }` and unwrapped when recorded. Definitions stay at the root,
 * where the schema's `$ref`s point.
 */
export function modelFacingSchema(schema: JSONSchema): { schema: JSONSchema; wrapped: boolean } {
  const { $schema: _draft, $id: _id, ...rest } = schema;
  const isObject = schema.type === "object" || (schema.type === undefined && schema.properties !== undefined);
  if (isObject) return { schema: rest, wrapped: false };
  const { $defs, definitions, ...inner } = rest;
  const wrapper: JSONSchema = {
    type: "object",
    properties: { value: inner },
    required: ["value"],
    additionalProperties: false,
  };
  if ($defs !== undefined) wrapper.$defs = $defs;
  if (definitions !== undefined) wrapper.definitions = definitions;
  return { schema: wrapper, wrapped: true };
}

export function createStructuredOutputTool(
  schema: JSONSchema,
  check: OutputCheck,
): Tool<StructuredOutputInput, StructuredOutputResult> {
  const offered = modelFacingSchema(schema);
  const answerOf = (input: StructuredOutputInput): unknown => (offered.wrapped ? input.value : input);
  return buildTool<StructuredOutputInput, StructuredOutputResult>({
    name: STRUCTURED_OUTPUT_TOOL_NAME,
    searchHint: "final answer json schema structured output",
    // Needed on the first request and to the end: never deferred.
    alwaysLoad: true,
    maxResultSizeChars: 10_000,
    inputSchema,
    inputJSONSchema: offered.schema,
    prompt: async () => STRUCTURED_OUTPUT_PROMPT,
    description: async () => "Return the structured output",
    userFacingName: () => "Structured output",
    isReadOnly: () => true,
    autoModeSafe: true,
    checkPermissions: async () => ({
      behavior: "allow",
      decisionReason: { type: "tool", reason: "it only records the session's answer" },
    }),
    toAutoClassifierInput: () => "",

    async validateInput(input, context) {
      const outcome = check(answerOf(input));
      if (outcome.ok) return { result: true };
      let failures = 0;
      context.setAppState((prev) => {
        failures = (prev.structuredOutput?.failedAttempts ?? 0) + 1;
        return { ...prev, structuredOutput: { ...prev.structuredOutput, failedAttempts: failures } };
      });
      const errors = outcome.errors.slice(0, MAX_ERRORS_SHOWN).map((e) => `- ${e}`);
      if (outcome.errors.length > MAX_ERRORS_SHOWN)
        errors.push(`- ... and ${outcome.errors.length - MAX_ERRORS_SHOWN} more`);
      const next =
        failures >= MAX_STRUCTURED_OUTPUT_ATTEMPTS
          ? `That was attempt ${failures} of ${MAX_STRUCTURED_OUTPUT_ATTEMPTS}: stop now and end your turn; the run ends without structured output.`
          : `Call ${STRUCTURED_OUTPUT_TOOL_NAME} again with corrected data (attempt ${failures} of ${MAX_STRUCTURED_OUTPUT_ATTEMPTS}).`;
      return {
        result: false,
        message: `The output does not match the required JSON schema:\n${errors.join("\n")}\n${next}`,
        errorCode: 1,
      };
    },

    async call(input, context) {
      const value = answerOf(input);
      context.setAppState((prev) => ({
        ...prev,
        structuredOutput: { ...prev.structuredOutput, value: { data: value } },
      }));
      return { data: { recorded: true } };
    },

    mapToolResult: (_output, toolUseId) => ({
      type: "tool_result",
      tool_use_id: toolUseId,
      content: "The structured output is recorded. You are done: end your turn without further tool calls.",
    }),
  });
}

/** The recorded output, when a valid call was made (`{ data }`, so that `null` is an answer too). */
export function recordedStructuredOutput(state: {
  structuredOutput?: { value?: { data: unknown } };
}): { data: unknown } | undefined {
  return state.structuredOutput?.value;
}
