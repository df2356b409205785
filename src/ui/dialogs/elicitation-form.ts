// The form an MCP server's question (elicitation) becomes: one field per property of the schema
// the server sent, in the server's order, with its defaults filled in. What the person types is
// kept as typed; turning it into the answer checks each field against its own schema (the same
// validator the MCP SDK uses, so formats such as email or date mean what the server means) and
// says, field by field, what is wrong. Nothing here sends anything: the dialog does, on Accept.

import type { ElicitRequestFormParams, PrimitiveSchemaDefinition } from "@modelcontextprotocol/sdk/types.js";
import type { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv";

export type FieldKind = "text" | "number" | "integer" | "boolean" | "choice" | "multi";

export interface FieldChoice {
  value: string;
  label: string;
}

export interface FormField {
  name: string;
  label: string;
  description?: string;
  kind: FieldKind;
  required: boolean;
  /** The choices of an enum (one of, or several of for `multi`). */
  choices: FieldChoice[];
  schema: PrimitiveSchemaDefinition;
}

/** A field as the person left it: typed text, a yes/no, the chosen value(s); undefined when unset. */
export type FieldValue = string | boolean | string[] | undefined;

export type FormValues = Record<string, FieldValue>;

export type AnswerContent = Record<string, string | number | boolean | string[]>;

export function fieldsOf(schema: ElicitRequestFormParams["requestedSchema"]): FormField[] {
  const required = new Set(schema.required ?? []);
  return Object.entries(schema.properties).map(([name, property]) => ({
    name,
    label: property.title ?? name,
    ...(property.description !== undefined && { description: property.description }),
    kind: kindOf(property),
    required: required.has(name),
    choices: choicesOf(property),
    schema: property,
  }));
}

function kindOf(property: PrimitiveSchemaDefinition): FieldKind {
  if (property.type === "boolean") return "boolean";
  if (property.type === "number") return "number";
  if (property.type === "integer") return "integer";
  if (property.type === "array") return "multi";
  return "enum" in property || "oneOf" in property ? "choice" : "text";
}

function choicesOf(property: PrimitiveSchemaDefinition): FieldChoice[] {
  if ("oneOf" in property && Array.isArray(property.oneOf)) {
    return property.oneOf.map((option) => ({ value: option.const, label: option.title }));
  }
  if ("enum" in property && Array.isArray(property.enum)) {
    const names = "enumNames" in property ? property.enumNames : undefined;
    return property.enum.map((value, i) => ({ value, label: names?.[i] ?? value }));
  }
  if (property.type === "array") {
    const items = property.items;
    if ("anyOf" in items) return items.anyOf.map((option) => ({ value: option.const, label: option.title }));
    return items.enum.map((value) => ({ value, label: value }));
  }
  return [];
}

/** The form as first shown: the server's defaults, and an unset value everywhere else. */
export function initialValues(fields: readonly FormField[]): FormValues {
  const values: FormValues = {};
  for (const field of fields) {
    const given = field.schema.default;
    if (given === undefined) {
      values[field.name] = field.kind === "multi" ? [] : undefined;
    } else if (field.kind === "number" || field.kind === "integer") {
      values[field.name] = String(given);
    } else {
      values[field.name] = given as FieldValue;
    }
  }
  return values;
}

/** The value a field's answer carries, or why the typed text is not one. */
function parsed(field: FormField, value: FieldValue): { value?: AnswerContent[string] } | { error: string } {
  if (value === undefined || value === "" || (Array.isArray(value) && value.length === 0 && !field.required)) {
    return field.required ? { error: "is required" } : {};
  }
  if (field.kind === "number" || field.kind === "integer") {
    const text = String(value).trim();
    const number = Number(text);
    if (text === "" || !Number.isFinite(number)) return { error: `must be a number (got "${text}")` };
    return { value: number };
  }
  return { value: value as AnswerContent[string] };
}

let validator: Promise<AjvJsonSchemaValidator> | undefined;

/** Loaded at the first Accept: ajv is many files, and the UI's start-up should not wait for it. */
function schemaValidator(): Promise<AjvJsonSchemaValidator> {
  validator ??= import("@modelcontextprotocol/sdk/validation/ajv").then(
    ({ AjvJsonSchemaValidator }) => new AjvJsonSchemaValidator(),
  );
  return validator;
}

/** The answer to send, or a message for each field that is not right yet. */
export async function answerOf(
  fields: readonly FormField[],
  values: FormValues,
): Promise<{ content: AnswerContent } | { errors: Record<string, string> }> {
  const checker = await schemaValidator();
  const content: AnswerContent = {};
  const errors: Record<string, string> = {};
  for (const field of fields) {
    const result = parsed(field, values[field.name]);
    if ("error" in result) {
      errors[field.name] = result.error;
      continue;
    }
    if (result.value === undefined) continue;
    const check = checker.getValidator(field.schema as Parameters<typeof checker.getValidator>[0])(result.value);
    if (!check.valid) {
      errors[field.name] = readableError(check.errorMessage);
      continue;
    }
    content[field.name] = result.value;
  }
  return Object.keys(errors).length > 0 ? { errors } : { content };
}

/** Ajv says "data must be >= 1, data must ..."; the form says it about the field. */
function readableError(message: string | undefined): string {
  if (!message) return "is not valid";
  return message
    .split(", ")
    .map((part) => part.replace(/^data\s*/, ""))
    .join("; ");
}

/** One field's value as the form shows it. */
export function shownValue(field: FormField, value: FieldValue): string {
  if (value === undefined || value === "") return "";
  if (field.kind === "boolean") return value ? "yes" : "no";
  if (field.kind === "choice") return field.choices.find((c) => c.value === value)?.label ?? String(value);
  if (Array.isArray(value)) return value.map((v) => field.choices.find((c) => c.value === v)?.label ?? v).join(", ");
  return String(value);
}
