// AskUserQuestion: one to four multiple-choice questions for the user; the answers are the result.
// It always asks a person, also in bypass mode (requiresUserInteraction): through the permission
// prompt, whose answers come back in the input (`answers`), or through the session's userDialog
// callback. When nobody can be asked, the call is refused with words that tell the model to decide
// by itself and say what it assumed.
import * as z from "zod";
import { buildTool } from "../../tool/build-tool.js";
import type { UserQuestion, UserQuestionAnswers } from "../../tool/user-dialog.js";
import {
  ASK_USER_QUESTION_PROMPT,
  ASK_USER_QUESTION_TOOL_NAME,
  DECLINED_TO_ANSWER,
  NOBODY_TO_ANSWER,
} from "./prompt.js";

export const MAX_HEADER_CHARS = 12;

const optionSchema = z.lazy(() =>
  z.strictObject({
    label: z.string().trim().min(1).describe("The choice, in 1-5 words"),
    description: z.string().describe("What choosing it means"),
  }),
);

const questionSchema = z.lazy(() =>
  z
    .strictObject({
      question: z.string().trim().min(1).describe("The whole question, ending with '?'"),
      header: z.string().trim().min(1).max(MAX_HEADER_CHARS).describe("Short label, at most 12 characters"),
      options: z.array(optionSchema).min(2).max(4),
      multiSelect: z.boolean().default(false).describe("Whether several options may be chosen"),
    })
    .refine((q) => new Set(q.options.map((o) => o.label)).size === q.options.length, {
      message: "option labels must differ from each other",
      path: ["options"],
    }),
);

const inputSchema = z.lazy(() =>
  z
    .strictObject({ questions: z.array(questionSchema).min(1).max(4).describe("1-4 questions") })
    .refine((input) => new Set(input.questions.map((q) => q.question)).size === input.questions.length, {
      message: "each question must be asked once",
      path: ["questions"],
    }),
);

/** The model's input; a permission prompt that asked the user adds their `answers`. */
export type AskUserQuestionInput = z.infer<typeof inputSchema> & { answers?: UserQuestionAnswers };

export type AskUserQuestionOutput =
  | { kind: "answered"; questions: UserQuestion[]; answers: Record<string, string> }
  | { kind: "declined" };

/** Answers as text, one per question; a multi-select answer's labels joined with ", ". */
function normaliseAnswers(questions: readonly UserQuestion[], answers: UserQuestionAnswers): Record<string, string> {
  const out: Record<string, string> = {};
  for (const q of questions) {
    const answer = answers[q.question];
    if (answer === undefined) continue;
    out[q.question] = Array.isArray(answer) ? answer.join(", ") : answer;
  }
  return out;
}

export const AskUserQuestionTool = buildTool<AskUserQuestionInput, AskUserQuestionOutput>({
  name: ASK_USER_QUESTION_TOOL_NAME,
  // Talks with the user or steers the main session: never a subagent's.
  subagentAccess: "none",
  searchHint: "ask the user a multiple choice question clarify",
  shouldDefer: true,
  maxResultSizeChars: 20_000,
  inputSchema,
  prompt: async () => ASK_USER_QUESTION_PROMPT,
  description: async () => "Ask the user",
  userFacingName: () => "Question",
  isReadOnly: () => true,
  requiresUserInteraction: () => true,
  toAutoClassifierInput: (input) => input.questions.map((q) => q.question).join(" "),

  async checkPermissions(input, context) {
    if (context.options.userDialog?.askUserQuestion) {
      return {
        behavior: "allow",
        updatedInput: input,
        decisionReason: { type: "tool", reason: "the session's userDialog asks the user" },
      };
    }
    if (context.options.isNonInteractive) {
      return {
        behavior: "deny",
        message: NOBODY_TO_ANSWER,
        decisionReason: { type: "tool", reason: "nobody can answer questions in a non-interactive session" },
      };
    }
    const count = input.questions.length;
    return {
      behavior: "ask",
      message: `The model asks you ${count === 1 ? "a question" : `${count} questions`}.`,
      decisionReason: { type: "tool", reason: "AskUserQuestion needs the user to answer" },
    };
  },

  async call(input, context) {
    const questions: UserQuestion[] = input.questions.map((q) => ({ ...q, options: q.options.map((o) => ({ ...o })) }));
    let answers = input.answers;
    if (answers === undefined) {
      const ask = context.options.userDialog?.askUserQuestion;
      if (ask) answers = await ask(questions, context.abortController.signal);
    }
    if (answers === undefined) return { data: { kind: "declined" } };
    const normalised = normaliseAnswers(questions, answers);
    if (Object.keys(normalised).length === 0) return { data: { kind: "declined" } };
    return { data: { kind: "answered", questions, answers: normalised } };
  },

  mapToolResult(output, toolUseId) {
    if (output.kind === "declined") return { type: "tool_result", tool_use_id: toolUseId, content: DECLINED_TO_ANSWER };
    const lines = output.questions.map((q) => {
      const answer = output.answers[q.question];
      return `- ${JSON.stringify(q.question)} → ${answer === undefined ? "(not answered: decide it yourself)" : JSON.stringify(answer)}`;
    });
    return {
      type: "tool_result",
      tool_use_id: toolUseId,
      content: `The user answered:\n${lines.join("\n")}\nGo on with these answers in mind.`,
    };
  },
});
