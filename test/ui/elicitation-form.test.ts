// The elicitation form's fields and checks, from schemas as MCP servers send them.
import { describe, expect, it } from "vitest";
import { answerOf, fieldsOf, initialValues } from "../../src/ui/dialogs/elicitation-form.js";

describe("the elicitation form", () => {
  const schema = {
    type: "object" as const,
    properties: {
      when: { type: "string" as const, format: "date" as const },
      count: { type: "integer" as const, minimum: 1, maximum: 5, default: 2 },
      colour: { type: "string" as const, enum: ["r", "g"], enumNames: ["Red", "Green"] },
      note: { type: "string" as const, maxLength: 5 },
    },
    required: ["when"],
  };

  it("makes one field per property, in order, with labels, choices and defaults", () => {
    const fields = fieldsOf(schema);
    expect(fields.map((f) => [f.name, f.kind, f.required])).toEqual([
      ["when", "text", true],
      ["count", "integer", false],
      ["colour", "choice", false],
      ["note", "text", false],
    ]);
    expect(fields[2]?.choices).toEqual([
      { value: "r", label: "Red" },
      { value: "g", label: "Green" },
    ]);
    expect(initialValues(fields)).toEqual({ when: undefined, count: "2", colour: undefined, note: undefined });
  });

  it("turns typed numbers into numbers and leaves unset optional fields out", async () => {
    const fields = fieldsOf(schema);
    expect(await answerOf(fields, { when: "2026-12-01", count: "3", colour: undefined, note: "" })).toEqual({
      content: { when: "2026-12-01", count: 3 },
    });
  });

  it("names every field that does not fit its schema", async () => {
    const fields = fieldsOf(schema);
    const answer = await answerOf(fields, { when: "tomorrow", count: "2.5", note: "too long" });
    expect(answer).toEqual({
      errors: {
        when: 'must match format "date"',
        count: "must be integer",
        note: "must NOT have more than 5 characters",
      },
    });
    expect(await answerOf(fields, { count: "x" })).toEqual({
      errors: { when: "is required", count: 'must be a number (got "x")' },
    });
  });
});
