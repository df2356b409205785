// The user's JSON schema, compiled once with ajv (loaded on first use: only `--json-schema` runs
// need it). The draft follows the schema's own `$schema` (2020-12, 2019-09, else draft-07), and
// formats (`email`, `date-time`...) are checked with ajv-formats. Unknown keywords are tolerated:
// a schema written for another validator should still check what it can.
import type { JSONSchema } from "../../tool/types.js";

/** Says whether a value matches, and if not, every mismatch in words the model can fix. */
export type OutputCheck = (value: unknown) => { ok: true } | { ok: false; errors: string[] };

export class JsonSchemaError extends Error {}

interface AjvInstance {
  compile(schema: object): { (data: unknown): boolean; errors?: AjvError[] | null };
}
interface AjvError {
  instancePath: string;
  message?: string;
  params?: Record<string, unknown>;
}
type AjvClass = new (options: object) => AjvInstance;

async function ajvClassFor(schema: JSONSchema): Promise<AjvClass> {
  const draft = typeof schema.$schema === "string" ? schema.$schema : "";
  if (draft.includes("2020-12")) return (await import("ajv/dist/2020.js")).default as unknown as AjvClass;
  if (draft.includes("2019-09")) return (await import("ajv/dist/2019.js")).default as unknown as AjvClass;
  return (await import("ajv")).default as unknown as AjvClass;
}

function describe(error: AjvError): string {
  const where = error.instancePath === "" ? "(the whole output)" : error.instancePath;
  const extra = error.params?.additionalProperty ?? error.params?.allowedValues;
  return `${where}: ${error.message ?? "does not match"}${extra !== undefined ? ` (${JSON.stringify(extra)})` : ""}`;
}

/** Compiles the schema; a schema ajv cannot compile is a JsonSchemaError saying why. */
export async function compileOutputCheck(schema: JSONSchema): Promise<OutputCheck> {
  const Ajv = await ajvClassFor(schema);
  const addFormats = (await import("ajv-formats")).default as unknown as (ajv: AjvInstance) => void;
  const ajv = new Ajv({ allErrors: true, strict: false });
  addFormats(ajv);
  let validate: ReturnType<AjvInstance["compile"]>;
  try {
    validate = ajv.compile(schema);
  } catch (error) {
    throw new JsonSchemaError(
      `the JSON schema is not valid: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  return (value) => (validate(value) ? { ok: true } : { ok: false, errors: (validate.errors ?? []).map(describe) });
}
