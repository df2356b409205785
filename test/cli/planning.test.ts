// The planning tools through the real CLI against a model server on 127.0.0.1: the task list in
// stream-json and across --resume, plan mode holding writes back until a plan is approved, and
// what a headless run answers when a tool needs a person.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { projectSlug } from "../../src/config/paths.js";
import {
  reply,
  replyFrom,
  type ScriptedModelServer,
  startScriptedModelServer,
} from "../helpers/scripted-model-server.js";
import { jsonLines } from "./run-cli.js";
import { type CliProject, cliProject, messagesOf, resultIn, runScriptedCli, type WireMessage } from "./scripted-cli.js";

let server: ScriptedModelServer;
beforeAll(async () => {
  server = await startScriptedModelServer();
});
afterAll(() => server.close());
afterEach(() => expect(server.pendingSteps()).toBe(0));

const project = () => cliProject("plan");
const warden = (p: CliProject, args: string[]) => runScriptedCli(server, p, args);

/** The messages of the request at `index` ([] when there is none). */
const messagesAt = (index: number): WireMessage[] => {
  const request = server.requests[index];
  return request ? messagesOf(request) : [];
};

/** The tools the result line lists as refused. */
function deniedTools(stdout: string): string[] {
  const result = jsonLines(stdout).find((line) => line.type === "result");
  return ((result?.permission_denials ?? []) as Array<{ tool_name: string }>).map((d) => d.tool_name);
}

/** The text of the tool_result for `id` as a later request carried it. */
function resultText(index: number, id: string): string {
  const request = server.requests[index];
  return request ? resultIn(request, id) : "";
}

/** The <system-reminder> texts a request carried after the model's last turn. */
function remindersOf(index: number): string {
  const messages = messagesAt(index);
  const lastAssistant = messages.map((m) => m.role).lastIndexOf("assistant");
  return messages
    .slice(lastAssistant + 1)
    .flatMap((m) => (typeof m.content === "string" ? [] : m.content))
    .filter((b) => b.type === "text" && b.text?.includes("<system-reminder>"))
    .map((b) => b.text)
    .join("\n");
}

const list = {
  todos: [
    { content: "Read the code", status: "completed", activeForm: "Reading the code" },
    { content: "Fix the bug", status: "in_progress", activeForm: "Fixing the bug" },
  ],
};

describe("the task list in a headless session", () => {
  it("is a todo line in stream-json and survives --resume (TodoWrite)", async () => {
    const p = project();
    server.enqueue(reply().tool("TodoWrite", list), reply().text("Working on it."));
    const first = await warden(p, ["-p", "Fix the bug"]);
    expect(first.code, first.stderr).toBe(0);
    const lines = jsonLines(first.stdout);
    const todo = lines.find((line) => line.type === "todo");
    const sessionId = lines[0]?.session_id as string;
    expect(todo).toMatchObject({
      family: "TodoWrite",
      session_id: sessionId,
      todos: [
        { content: "Read the code", status: "completed", activeForm: "Reading the code" },
        { content: "Fix the bug", status: "in_progress", activeForm: "Fixing the bug" },
      ],
    });
    // After the tool results, before the reminder and the final answer (the first user line is the
    // agent list, told before the first request).
    expect(lines.map((line) => line.type)).toEqual([
      "system",
      "user",
      "assistant",
      "user",
      "todo",
      "user",
      "assistant",
      "result",
    ]);
    const transcript = readFileSync(join(p.home, "projects", projectSlug(p.cwd), `${sessionId}.jsonl`), "utf8");
    expect(transcript).toContain('"type":"todo"');

    const resumedAt = server.requests.length;
    server.enqueue(reply().text("Still fixing."));
    const resumed = await warden(p, ["-p", "Go on", "--resume", sessionId]);
    expect(resumed.code, resumed.stderr).toBe(0);
    // The resumed session's first request shows the list as it was left.
    expect(remindersOf(resumedAt)).toContain(
      "The task list changed. It now reads:\n1. [completed] Read the code\n2. [in_progress] Fix the bug",
    );
  });

  it("survives --resume in the Tasks family too (settings taskTools)", async () => {
    const p = project();
    const settings = ["--settings", JSON.stringify({ taskTools: "Tasks" })];
    server.enqueue(reply().tool("TaskCreate", { subject: "Fix the bug", description: "Make the test pass" }));
    server.enqueue(reply().tool("TaskUpdate", { taskId: "1", status: "in_progress" }), reply().text("On it."));
    const first = await warden(p, ["-p", "Fix the bug", ...settings]);
    expect(first.code, first.stderr).toBe(0);
    const lines = jsonLines(first.stdout);
    expect(lines[0]?.tools).toEqual(expect.arrayContaining(["TaskCreate", "TaskUpdate"]));
    expect(lines[0]?.tools).not.toContain("TodoWrite");
    const todos = lines.filter((line) => line.type === "todo").map((line) => line.todos);
    expect(todos.at(-1)).toEqual([{ id: "1", content: "Fix the bug", status: "in_progress" }]);

    const resumedAt = server.requests.length;
    server.enqueue(reply().text("Still on it."));
    const resumed = await warden(p, ["-p", "Go on", "--resume", lines[0]?.session_id as string, ...settings]);
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(remindersOf(resumedAt)).toContain("It now reads:\n#1 [in_progress] Fix the bug");
  });
});

describe("plan mode in a headless session", () => {
  it("holds every write back but the plan file's until ExitPlanMode is approved, then writes", async () => {
    const p = project();
    const target = join(p.cwd, "hello.txt");
    const at = server.requests.length;
    let planFile = "";
    server.enqueue(
      reply().tool("EnterPlanMode", {}, { id: "enter" }),
      // The plan file's path is in EnterPlanMode's result: the model writes it from there.
      replyFrom((request) => {
        planFile = /Write your plan to (\S+) \(the only file/.exec(resultIn(request, "enter"))?.[1] ?? "";
        return reply()
          .tool("Write", { file_path: target, content: "too early" }, { id: "early" })
          .tool("Write", { file_path: planFile, content: "# Plan\n1. Write hello.txt\n" }, { id: "plan" });
      }),
      reply().tool("ExitPlanMode", { allowedPrompts: [{ tool: "Bash", prompt: "npm test:*" }] }, { id: "exit" }),
      reply().tool("Write", { file_path: target, content: "hello" }, { id: "late" }),
      reply().text("Done."),
    );
    const run = await warden(p, ["-p", "Add hello.txt", "--permission-mode", "bypassPermissions"]);
    expect(run.code, run.stderr).toBe(0);
    expect(planFile).toMatch(/plan\.md$/);
    expect(remindersOf(at + 1)).toContain("Plan mode is on.");
    expect(resultText(at + 2, "early")).toContain("plan mode is read-only");
    expect(resultText(at + 2, "plan")).toContain("File created successfully");
    expect(readFileSync(planFile, "utf8")).toContain("Write hello.txt");
    // Entered from bypassPermissions: the session's mode approves the plan and comes back.
    expect(resultText(at + 3, "exit")).toContain("the permission mode is now bypassPermissions");
    expect(resultText(at + 4, "late")).toContain("File created successfully");
    expect(readFileSync(target, "utf8")).toBe("hello");
    expect(deniedTools(run.stdout)).toEqual(["Write"]);
  });

  it("--permission-mode plan: the plan cannot be approved, nothing is written, the model is told to answer with it", async () => {
    const p = project();
    const target = join(p.cwd, "hello.txt");
    const at = server.requests.length;
    server.enqueue(
      reply().tool("Write", { file_path: target, content: "x" }, { id: "w" }),
      reply().tool("ExitPlanMode", {}, { id: "exit-empty" }),
      // The plan file of this session, as the plan-mode reminder of the first request names it.
      replyFrom(() => {
        const planFile = /the plan file, (\S+): write your plan/.exec(remindersOf(at))?.[1] ?? "missing";
        return reply().tool("Write", { file_path: planFile, content: "# Plan" }, { id: "plan" });
      }),
      reply().tool("ExitPlanMode", {}, { id: "exit" }),
      reply().text("Here is the plan: write hello.txt."),
    );
    const run = await warden(p, ["-p", "Plan hello.txt", "--permission-mode", "plan"]);
    expect(run.code, run.stderr).toBe(0);
    expect(resultText(at + 1, "w")).toContain("Plan mode is on: nothing may change until a plan is approved");
    expect(resultText(at + 2, "exit-empty")).toContain("is missing or empty");
    expect(resultText(at + 3, "plan")).toContain("File created successfully");
    expect(resultText(at + 4, "exit")).toContain("Permission to use ExitPlanMode was denied");
    expect(resultText(at + 4, "exit")).toContain("give the plan as your final answer");
    expect(existsSync(target)).toBe(false);
    expect(deniedTools(run.stdout)).toEqual(["Write", "ExitPlanMode"]);
  });
});

describe("AskUserQuestion in a headless session", () => {
  it("is refused with words telling the model to decide and say what it assumed", async () => {
    const p = project();
    const at = server.requests.length;
    const question = {
      question: "Which database?",
      header: "Database",
      options: [
        { label: "Postgres", description: "A server" },
        { label: "SQLite", description: "A file" },
      ],
    };
    server.enqueue(reply().tool("AskUserQuestion", { questions: [question] }, { id: "ask" }), reply().text("SQLite."));
    const run = await warden(p, ["-p", "Set up a database", "--dangerously-skip-permissions"]);
    expect(run.code, run.stderr).toBe(0);
    expect(resultText(at + 1, "ask")).toContain("Nobody can answer questions in this session");
    expect(resultText(at + 1, "ask")).toContain("which assumptions you made");
  });
});
