// A server's question for the user (elicitation). The answer comes from the session's
// Elicitation hooks when one answers, otherwise only from the session's callback, which stands
// for a person; with neither, the question is declined and the session says which server asked
// what. ElicitationResult hooks see the answer and may replace it. An accepted form is checked against the schema the server sent before
// it goes back: a server must never receive content it did not ask for.
import type { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv";
import type { ElicitationRequest, ElicitResult, HookElicitAnswer, McpClientFeatures } from "./types.js";

let validator: Promise<AjvJsonSchemaValidator> | undefined;

/**
 * The schema checker, loaded at the first answer to check: ajv is ~70 files of CommonJS, and this
 * module is on the path every session with an MCP server takes before its first request.
 */
function schemaValidator(): Promise<AjvJsonSchemaValidator> {
  validator ??= import("@modelcontextprotocol/sdk/validation/ajv").then(
    ({ AjvJsonSchemaValidator }) => new AjvJsonSchemaValidator(),
  );
  return validator;
}

export function describeElicitation(request: ElicitationRequest): string {
  const { params } = request;
  const where = params.mode === "url" ? ` (open ${params.url})` : "";
  return `MCP server "${request.server}" asked: ${params.message}${where}`;
}

export async function answerElicitation(
  request: ElicitationRequest,
  features: McpClientFeatures,
  signal: AbortSignal,
): Promise<ElicitResult> {
  const hooks = features.hooks?.();
  const report = (errors: readonly string[]) => {
    for (const error of errors) features.warn?.(`${describeElicitation(request)}: ${error}`);
  };
  let answer: ElicitResult | undefined;
  if (hooks?.has("Elicitation")) {
    const fromHooks = await hooks.elicitation(request, signal);
    report(fromHooks.errors);
    answer = fromHooks.answer && fromHook(fromHooks.answer);
  }
  if (!answer) answer = await askPerson(request, features, signal);
  if (hooks?.has("ElicitationResult")) {
    const fromHooks = await hooks.elicitationResult(request, answer, signal);
    report(fromHooks.errors);
    answer = fromHooks.answer ? fromHook(fromHooks.answer) : answer;
  }
  return checked(request, answer, features);
}

/** A hook's answer as a result; an accepted form's content is checked against the schema next. */
function fromHook(answer: HookElicitAnswer): ElicitResult {
  if (answer.action !== "accept") return { action: answer.action };
  return { action: "accept", content: (answer.content ?? {}) as NonNullable<ElicitResult["content"]> };
}

async function askPerson(request: ElicitationRequest, features: McpClientFeatures, signal: AbortSignal) {
  if (features.onElicitation) return features.onElicitation(request, signal);
  features.warn?.(`${describeElicitation(request)}; declined: nobody can answer in this session`);
  return { action: "decline" } as const;
}

/** An accepted form must match the server's schema, whoever filled it (a person or a hook). */
async function checked(
  request: ElicitationRequest,
  answer: ElicitResult,
  features: McpClientFeatures,
): Promise<ElicitResult> {
  // A link question asks for no content: none goes back, whoever answered.
  if (request.params.mode === "url") return { action: answer.action };
  if (answer.action !== "accept") return answer;
  const schema = request.params.requestedSchema;
  const content = withDefaults(schema.properties, answer.content ?? {});
  const checker = await schemaValidator();
  const check = checker.getValidator(schema as Parameters<typeof checker.getValidator>[0])(content);
  if (!check.valid) {
    features.warn?.(
      `${describeElicitation(request)}; the answer did not match the form (${check.errorMessage}) and was not sent`,
    );
    return { action: "decline" };
  }
  // Valid against the server's own schema, so every value has a type the result allows.
  return { action: "accept", content: content as NonNullable<ElicitResult["content"]> };
}

/** The form's defaults for the fields the user left out, as a form shows them pre-filled. */
function withDefaults(
  properties: Record<string, { default?: unknown }>,
  content: Record<string, unknown>,
): Record<string, unknown> {
  const filled: Record<string, unknown> = { ...content };
  for (const [name, property] of Object.entries(properties)) {
    if (filled[name] === undefined && property.default !== undefined) filled[name] = property.default;
  }
  return filled;
}
