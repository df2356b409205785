// AskUserQuestion: 1-4 questions, headers of at most 12 characters, 2-4 options; it always asks a
// person (bypass mode included) and the answers are its result; with nobody to ask, the model is
// told to decide by itself and say what it assumed.
import { afterEach, describe, expect, it } from "vitest";
import type { UserQuestion } from "../../../src/tool/user-dialog.js";
import { AskUserQuestionTool } from "../../../src/tools/ask-user-question/tool.js";
import { type Harness, makeHarness, schemaProblem } from "./harness.js";

let harness: Harness | undefined;
afterEach(() => harness?.cleanup());

const option = (label: string) => ({ label, description: `Choose ${label}` });
const question = (text: string, header = "Database", labels = ["Postgres", "SQLite"], multiSelect = false) => ({
  question: text,
  header,
  options: labels.map(option),
  multiSelect,
});

describe("AskUserQuestion's schema", () => {
  it("takes 1-4 questions with headers of at most 12 characters and 2-4 distinct options", () => {
    expect(schemaProblem(AskUserQuestionTool, { questions: [question("Which database?")] })).toBe("");
    expect(schemaProblem(AskUserQuestionTool, { questions: [] })).toContain("questions");
    const five = ["A?", "B?", "C?", "D?", "E?"].map((q) => question(q));
    expect(schemaProblem(AskUserQuestionTool, { questions: five })).toContain("questions");
    expect(schemaProblem(AskUserQuestionTool, { questions: [question("Q?", "Thirteen char")] })).toContain(
      "questions.0.header",
    );
    expect(schemaProblem(AskUserQuestionTool, { questions: [question("Q?", "Twelve chars")] })).toBe("");
    expect(schemaProblem(AskUserQuestionTool, { questions: [question("Q?", "H", ["Only"])] })).toContain(
      "questions.0.options",
    );
    expect(
      schemaProblem(AskUserQuestionTool, { questions: [question("Q?", "H", ["A", "B", "C", "D", "E"])] }),
    ).toContain("questions.0.options");
    expect(schemaProblem(AskUserQuestionTool, { questions: [question("Q?", "H", ["Same", "Same"])] })).toContain(
      "option labels must differ",
    );
    expect(schemaProblem(AskUserQuestionTool, { questions: [question("Q?"), question("Q?")] })).toContain(
      "each question must be asked once",
    );
    // multiSelect defaults to false; the model cannot send answers of its own.
    const parsed = AskUserQuestionTool.inputSchema.parse({
      questions: [{ ...question("Q?"), multiSelect: undefined }],
    });
    expect(parsed.questions[0]?.multiSelect).toBe(false);
    expect(schemaProblem(AskUserQuestionTool, { questions: [question("Q?")], answers: { "Q?": "A" } })).toContain(
      "answers",
    );
  });
});

describe("AskUserQuestion's permission and answers", () => {
  it("asks the person even in bypass mode or with an allow rule, and returns their answers", async () => {
    for (const setup of [{ mode: "bypassPermissions" as const }, { rules: { allow: ["AskUserQuestion"] } }]) {
      harness = makeHarness({
        ...setup,
        answer: (request) => ({
          behavior: "allow",
          updatedInput: { ...request.input, answers: { "Which database?": "SQLite", "Which parts?": ["API", "UI"] } },
        }),
      });
      const outcome = await harness.call(AskUserQuestionTool, {
        questions: [question("Which database?"), question("Which parts?", "Scope", ["API", "UI", "CLI"], true)],
      });
      expect(harness.asked.map((a) => a.tool.name)).toEqual(["AskUserQuestion"]);
      expect(outcome.result.is_error).toBeFalsy();
      expect(outcome.text).toBe(
        'The user answered:\n- "Which database?" → "SQLite"\n- "Which parts?" → "API, UI"\nGo on with these answers in mind.',
      );
      harness.cleanup();
    }
  });

  it("headless without a callback: refused, telling the model to decide and say what it assumed", async () => {
    harness = makeHarness({ mode: "bypassPermissions" });
    const outcome = await harness.call(AskUserQuestionTool, { questions: [question("Which database?")] });
    expect(outcome.result.is_error).toBe(true);
    expect(outcome.text).toContain("Nobody can answer questions in this session");
    expect(outcome.text).toContain("say in your final answer which assumptions you made");
    expect(outcome.denial?.tool_name).toBe("AskUserQuestion");
    expect(harness.asked).toEqual([]);
  });

  it("a library's userDialog callback answers, and a declined answer tells the model to decide", async () => {
    const seen: UserQuestion[][] = [];
    let reply: Record<string, string> | undefined = { "Which database?": "Postgres" };
    harness = makeHarness({
      userDialog: {
        askUserQuestion: async (questions) => {
          seen.push(questions);
          return reply;
        },
      },
    });
    const answered = await harness.call(AskUserQuestionTool, { questions: [question("Which database?")] });
    expect(answered.text).toContain('"Which database?" → "Postgres"');
    expect(seen[0]?.[0]).toMatchObject({ header: "Database", multiSelect: false });
    expect(seen[0]?.[0]?.options.map((o) => o.label)).toEqual(["Postgres", "SQLite"]);
    reply = undefined;
    const declined = await harness.call(AskUserQuestionTool, { questions: [question("Which database?")] });
    expect(declined.result.is_error).toBeFalsy();
    expect(declined.text).toContain("The user did not answer your questions. Decide them yourself");
  });

  it("a deny rule stops it before anyone is asked", async () => {
    harness = makeHarness({ rules: { deny: ["AskUserQuestion"] }, answer: () => ({ behavior: "allow" }) });
    const outcome = await harness.call(AskUserQuestionTool, { questions: [question("Which database?")] });
    expect(outcome.result.is_error).toBe(true);
    expect(harness.asked).toEqual([]);
  });

  it("is deferred, read-only, needs a person, and runs alone", () => {
    const input = AskUserQuestionTool.inputSchema.parse({ questions: [question("Q?")] });
    expect(AskUserQuestionTool.shouldDefer).toBe(true);
    expect(AskUserQuestionTool.isReadOnly(input)).toBe(true);
    expect(AskUserQuestionTool.requiresUserInteraction()).toBe(true);
    expect(AskUserQuestionTool.isConcurrencySafe(input)).toBe(false);
  });
});
