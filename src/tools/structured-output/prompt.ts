// The model-facing text of StructuredOutput.
export const STRUCTURED_OUTPUT_TOOL_NAME = "StructuredOutput";

export const STRUCTURED_OUTPUT_PROMPT = `Returns your final answer as data that matches the JSON schema of this tool's input. Whoever started this session reads that data, not your prose.

- Do the work first. Then, as the very last thing you do, call this tool once with the answer.
- The input must match the schema exactly: required fields present, types and allowed values as written. If the call is refused for a mismatch, read the errors and call it again with corrected data.
- Do not end your turn without calling it.`;

/** Sent when a turn ended without a valid StructuredOutput call. */
export const STRUCTURED_OUTPUT_NUDGE = `You ended your turn without a valid ${STRUCTURED_OUTPUT_TOOL_NAME} call. This session needs its answer as data: call ${STRUCTURED_OUTPUT_TOOL_NAME} now, with input that matches its schema.`;
