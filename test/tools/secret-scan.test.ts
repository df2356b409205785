// Write and Edit refuse to put a credential into a file (validation error code 0), naming the kind
// of secret and its line, never the value. The credentials below are fabricated, in the real
// formats; they are assembled at run time so this file holds no credential-shaped literal.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { readFile, writeFile } from "node:fs/promises";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { MAIN_TODO_LIST } from "../../src/tool/task-list.js";
import { EditTool } from "../../src/tools/edit/tool.js";
import { findNewSecrets } from "../../src/tools/file-shared/secret-scan.js";
import { ReadTool } from "../../src/tools/read/tool.js";
import { TodoWriteTool } from "../../src/tools/todo-write/tool.js";
import { WriteTool } from "../../src/tools/write/tool.js";
import { callText, callTool, makeProject, type TestProject, validationCode, validationMessage } from "./helpers.js";
import { makeHarness } from "./planning/harness.js";

const ALNUM = "aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3zA5cD7eF9gH1jK3mN5pQ7rS9tV1wX3yZ5";
const UPPER = "QWERTYUIOPASDFGHJKLZXCVBNM234567";
const chars = (source: string, length: number) => source.repeat(Math.ceil(length / source.length)).slice(0, length);

const CREDENTIALS: Array<[kind: RegExp, value: string, context: (value: string) => string]> = [
  [/GitHub Token/, `ghp_${chars(ALNUM, 36)}`, (v) => `const token = "${v}";\n`],
  [/AWS Access Key ID/, `AKIA${chars(UPPER, 16)}`, (v) => `AWS_ACCESS_KEY_ID=${v}\n`],
  [/AWS Secret Access Key/, chars(`${ALNUM}/+`, 40), (v) => `aws_secret_access_key = ${v}\n`],
  [/slack token/, `xoxb-123456789012-1234567890123-${chars(ALNUM, 24)}`, (v) => `SLACK_TOKEN=${v}\n`],
  [/Anthropic Claude API key/, `sk-ant-api03-${chars(ALNUM, 93)}AA`, (v) => `ANTHROPIC_API_KEY=${v}\n`],
  [/OpenAI API token/, `sk-proj-${chars(ALNUM, 74)}T3BlbkFJ${chars(ALNUM, 74)}`, (v) => `key: ${v}\n`],
  [
    /private key/,
    `-----BEGIN RSA PRIVATE KEY-----\nMIIEpAIBAAKCAQEA${chars(`${ALNUM}+/`, 48)}\n${chars(ALNUM, 64)}\n-----END RSA PRIVATE KEY-----`,
    (v) => `${v}\n`,
  ],
  [
    /PostgreSQL connection string/,
    "postgres://admin:Sup3rS3cretPw@db.example.com:5432/app",
    (v) => `DATABASE_URL=${v}\n`,
  ],
];

let project: TestProject;
beforeEach(async () => {
  project = await makeProject();
});
afterEach(async () => {
  await project.cleanup();
});

describe("a credential in new content", () => {
  it.each(CREDENTIALS)("Write refuses %s (code 0) without repeating it", async (kind, value, wrap) => {
    const file = path.join(project.dir, "config.txt");
    const content = `# settings\n${wrap(value)}`;
    expect(await validationCode(WriteTool, { file_path: file, content }, project.context)).toBe(0);
    const message = await validationMessage(WriteTool, { file_path: file, content }, project.context);
    expect(message).toMatch(kind);
    expect(message).toContain("(line 2)");
    const middle = Math.floor(value.length / 2);
    expect(message).not.toContain(value.slice(middle - 8, middle + 8));
    const result = await callTool(WriteTool, { file_path: file, content }, project.context);
    expect(result.is_error).toBe(true);
    expect(await readFile(file, "utf8").catch(() => "absent")).toBe("absent");
  });

  it.each(CREDENTIALS)("Edit refuses to add %s (code 0), leaving the file as it was", async (kind, value, wrap) => {
    const file = path.join(project.dir, "app.py");
    await writeFile(file, "import os\n\nCONFIG = {}\n");
    await callText(ReadTool, { file_path: file }, project.context);
    const input = { file_path: file, old_string: "CONFIG = {}\n", new_string: `CONFIG = {}\n${wrap(value)}` };
    expect(await validationCode(EditTool, input, project.context)).toBe(0);
    expect(await validationMessage(EditTool, input, project.context)).toMatch(kind);
    expect((await callTool(EditTool, input, project.context)).is_error).toBe(true);
    expect(await readFile(file, "utf8")).toBe("import os\n\nCONFIG = {}\n");
  });

  it("Edit creating a new file with a credential is refused too", async () => {
    const file = path.join(project.dir, "new.env");
    const input = { file_path: file, old_string: "", new_string: `GITHUB_TOKEN=ghp_${chars(ALNUM, 36)}\n` };
    expect(await validationCode(EditTool, input, project.context)).toBe(0);
  });

  it("a secretlint-disable comment written with the secret does not switch the check off", async () => {
    const content = `// secretlint-disable-next-line\nconst token = "ghp_${chars(ALNUM, 36)}"; // secretlint-disable-line\n`;
    const file = path.join(project.dir, "a.ts");
    expect(await validationCode(WriteTool, { file_path: file, content }, project.context)).toBe(0);
  });
});

describe("content that is not a new credential", () => {
  it("writes ordinary code, hashes, placeholders and the documentation's example key", async () => {
    const content = [
      'const apiKey = process.env.OPENAI_API_KEY ?? "";',
      'const sha = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";',
      "GITHUB_TOKEN=<your token here>",
      "AWS_ACCESS_KEY_ID=AKIAIOSFODNN7EXAMPLE",
      "password = input('password: ')",
      "",
    ].join("\n");
    const file = path.join(project.dir, "ok.ts");
    expect(await callText(WriteTool, { file_path: file, content }, project.context)).toContain("File created");
    expect(await readFile(file, "utf8")).toBe(content);
  });

  it("lets Edit and Write keep a credential the file already held (moving it is not a leak)", async () => {
    const token = `ghp_${chars(ALNUM, 36)}`;
    const file = path.join(project.dir, ".env");
    await writeFile(file, `GITHUB_TOKEN=${token}\nDEBUG=0\n`);
    await callText(ReadTool, { file_path: file }, project.context);
    const edit = {
      file_path: file,
      old_string: `GITHUB_TOKEN=${token}\nDEBUG=0`,
      new_string: `DEBUG=1\nGITHUB_TOKEN=${token}`,
    };
    expect(await callText(EditTool, edit, project.context)).not.toContain("Refusing");
    expect(await readFile(file, "utf8")).toBe(`DEBUG=1\nGITHUB_TOKEN=${token}\n`);
    await callText(ReadTool, { file_path: file }, project.context);
    const rewritten = `# local\nGITHUB_TOKEN=${token}\nDEBUG=2\n`;
    expect(await callText(WriteTool, { file_path: file, content: rewritten }, project.context)).toContain(
      "overwritten",
    );
    // A second, different token is new: refused.
    await callText(ReadTool, { file_path: file }, project.context);
    const another = `${rewritten}OTHER=ghp_${chars(ALNUM.split("").reverse().join(""), 36)}\n`;
    expect(await validationCode(WriteTool, { file_path: file, content: another }, project.context)).toBe(0);
  });

  it("names each finding's kind and line", async () => {
    const findings = await findNewSecrets(`a\nSLACK=xoxb-123456789012-1234567890123-${chars(ALNUM, 24)}\nb\n`);
    expect(findings).toEqual([{ kind: "slack token", line: 2 }]);
  });
});

describe("the built CLI (secretlint bundled into its lazy chunk)", () => {
  const root = path.resolve(fileURLToPath(import.meta.url), "../../..");
  const built = existsSync(path.join(root, "dist", "cli.js"));

  it.runIf(process.env.CI === "true")("is built: under CI a missing dist/ fails instead of skipping", () => {
    expect(built).toBe(true);
  });

  it.runIf(built)("refuses a credential and writes ordinary text", async () => {
    const token = `ghp_${chars(ALNUM, 36)}`;
    const script = path.join(project.sessionDir, "script.jsonl");
    const write = (id: string, name: string, content: string) => ({
      content: [{ type: "tool_use", id, name: "Write", input: { file_path: `{{cwd}}/${name}`, content } }],
    });
    await writeFile(
      script,
      [
        write("t1", "leak.txt", `token=${token}\n`),
        write("t2", "fine.txt", "hello\n"),
        { content: [{ type: "text", text: "ok" }] },
      ]
        .map((t) => JSON.stringify(t))
        .join("\n"),
    );
    const run = spawnSync(
      process.execPath,
      [
        path.join(root, "bin", "warden.js"),
        "-p",
        "go",
        "--model",
        `replay:${script}`,
        "--output-format",
        "stream-json",
        "--allowedTools",
        "Write",
      ],
      {
        cwd: project.dir,
        encoding: "utf8",
        env: {
          ...process.env,
          HOME: project.sessionDir,
          WARDEN_HOME: project.sessionDir,
          WARDEN_MANAGED_SETTINGS: path.join(project.sessionDir, "none.json"),
        },
      },
    );
    expect(run.status).toBe(0);
    const results = run.stdout.split("\n").filter((l) => l.includes('"tool_result"'));
    expect(results[0]).toContain("GitHub Token (line 1)");
    expect(results[0]).not.toContain(token);
    expect(await readFile(path.join(project.dir, "leak.txt"), "utf8").catch(() => "absent")).toBe("absent");
    expect(await readFile(path.join(project.dir, "fine.txt"), "utf8")).toBe("hello\n");
  });
});

describe("TodoWrite", () => {
  const item = (content: string) => ({ content, status: "pending", activeForm: `Doing: ${content}` });

  it("refuses a credential in an item (code 0), naming its kind and item, and keeps the list", async () => {
    const harness = makeHarness();
    try {
      await harness.call(TodoWriteTool, { todos: [item("Rotate the deploy token")] });
      const token = `xoxb-123456789012-1234567890123-${chars(ALNUM, 24)}`;
      const input = { todos: [item("Rotate the deploy token"), item(`Set SLACK_TOKEN=${token} in CI`)] };
      expect(await validationCode(TodoWriteTool, input, harness.context)).toBe(0);
      const outcome = await harness.call(TodoWriteTool, input);
      expect(outcome.result.is_error).toBe(true);
      expect(outcome.text).toContain("slack token (item 2)");
      expect(outcome.text).not.toContain(token);
      expect(harness.context.getAppState().todoLists?.[MAIN_TODO_LIST]?.items.map((t) => t.content)).toEqual([
        "Rotate the deploy token",
      ]);
    } finally {
      harness.cleanup();
    }
  });
});
