// Issue 34, class 9: the credential check's breadth. Stripe keys, Google API keys, JWTs and `.env`
// password lines are refused like secretlint's formats; NotebookEdit and the task list are checked
// too; and an Edit is checked on the file it leaves, so a key completed from a placeholder already
// in the file (`sk_live_` + the rest) is refused although new_string alone holds no key. Obvious
// placeholders (`changeme`, `xxx`, `${VAR}`) are still written. The credentials are fabricated in
// the real formats and assembled at run time, so this file holds no credential-shaped literal.
import { readFile, writeFile } from "node:fs/promises";
import * as path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { EditTool } from "../../src/tools/edit/tool.js";
import { NotebookEditTool } from "../../src/tools/notebook-edit/tool.js";
import { ReadTool } from "../../src/tools/read/tool.js";
import { TaskCreateTool } from "../../src/tools/task-create/tool.js";
import { TaskUpdateTool } from "../../src/tools/task-update/tool.js";
import { WriteTool } from "../../src/tools/write/tool.js";
import { callText, callTool, makeProject, type TestProject, validationCode, validationMessage } from "./helpers.js";
import { makeHarness } from "./planning/harness.js";

const ALNUM = "aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3zA5cD7eF9gH1jK3mN5pQ7rS9tV1wX3yZ5";
const chars = (length: number, source = ALNUM) => source.repeat(Math.ceil(length / source.length)).slice(0, length);
const b64url = (value: object) => Buffer.from(JSON.stringify(value)).toString("base64url");

const STRIPE_REST = chars(24);
const stripe = (kind: "sk" | "rk") => `${kind}_${"live"}_${STRIPE_REST}`;
const googleKey = `AI${"za"}Sy${chars(33)}`;
const jwt = `${b64url({ alg: "HS256", typ: "JWT" })}.${b64url({ sub: "1234567890", name: "Jo" })}.${chars(43)}`;

/** [what the refusal names, the content line]: each a spelling of a credential in a file. */
const CREDENTIALS: Array<[RegExp, string]> = [
  [/Stripe Secret Key/, `const stripe = require("stripe")("${stripe("sk")}");`],
  [/Stripe Secret Key/, `STRIPE_RESTRICTED=${stripe("rk")}`],
  [/Stripe Webhook Secret/, `webhook: whsec_${chars(32)}`],
  [/Google API Key/, `const maps = "https://maps.googleapis.com/api/js?key=${googleKey}";`],
  [/Google OAuth Client Secret/, `"client_secret": "GOCSPX-${chars(28)}"`],
  [/JSON Web Token/, `curl -H "Authorization: Bearer ${jwt}" https://api.example.com`],
  [/DB_PASSWORD value/, "DB_PASSWORD=Tr0ub4dor&3horse"],
  [/DB_PASSWORD value/, "DB_PASSWORD=supersecretvalue"],
  [/API_TOKEN value/, `export API_TOKEN="${chars(20)}"`],
  [/password value/, `  password: "c0rrect-h0rse"`],
  [/client_secret value/, `  "client_secret": "${chars(18)}",`],
  [/apiKey value/, `apiKey: '${chars(16)}'`],
  [/SECRET_KEY_BASE value/, `SECRET_KEY_BASE=${chars(64, "0123456789abcdef")}`],
];

/** Placeholders and ordinary code: never refused. */
const NOT_SECRETS = [
  "DB_PASSWORD=changeme",
  // biome-ignore lint/suspicious/noTemplateCurlyInString: the placeholder is the point
  "DB_PASSWORD=${DB_PASSWORD}",
  // biome-ignore lint/suspicious/noTemplateCurlyInString: the placeholder is the point
  'DB_PASSWORD="${DB_PASSWORD:-postgres}"',
  "API_KEY=xxxxxxxxxxxx",
  "SECRET_KEY=<your-secret-key>",
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a CI placeholder, not a template
  "password: ${{ secrets.DB_PASSWORD }}",
  "API_TOKEN={{ api_token }}",
  "const password = process.env.DB_PASSWORD;",
  "password = getPassword()",
  "passwordField: inputElement",
  "max_tokens=100000",
  "tokenizer: cl100k_base",
  "token_type: bearer",
  `STRIPE_KEY=sk_${"live"}_xxxxxxxxxxxxxxxxxxxxxxxx`,
  "DB_PASSWORD=",
];

let project: TestProject;
beforeEach(async () => {
  project = await makeProject();
});
afterEach(async () => {
  await project.cleanup();
});

async function readBefore(file: string, content: string): Promise<void> {
  await writeFile(file, content);
  await callText(ReadTool, { file_path: file }, project.context);
}

describe("formats secretlint does not know", () => {
  it.each(CREDENTIALS)("Write refuses %s, naming its line, not its value", async (kind, line) => {
    const file = path.join(project.dir, "settings.txt");
    const content = `# settings\n${line}\n`;
    expect(await validationCode(WriteTool, { file_path: file, content }, project.context)).toBe(0);
    const message = await validationMessage(WriteTool, { file_path: file, content }, project.context);
    expect(message).toMatch(kind);
    expect(message).toContain("(line 2)");
    expect(message).not.toContain(STRIPE_REST.slice(4, 16));
    expect((await callTool(WriteTool, { file_path: file, content }, project.context)).is_error).toBe(true);
    expect(await readFile(file, "utf8").catch(() => "absent")).toBe("absent");
  });

  it("writes placeholders and ordinary code", async () => {
    const file = path.join(project.dir, ".env.example");
    const content = `${NOT_SECRETS.join("\n")}\n`;
    expect(await validationMessage(WriteTool, { file_path: file, content }, project.context)).toBe("");
    expect(await callText(WriteTool, { file_path: file, content }, project.context)).toContain("File created");
  });
});

describe("Edit is checked on the file it leaves", () => {
  it("refuses completing a Stripe placeholder whose prefix is already in the file", async () => {
    const file = path.join(project.dir, "pay.ts");
    await readBefore(file, `const key = "sk_${"live"}_REPLACE_ME";\n`);
    const input = { file_path: file, old_string: 'REPLACE_ME";', new_string: `${STRIPE_REST}";` };
    expect(await validationMessage(EditTool, input, project.context)).toMatch(/Stripe Secret Key \(line 1\)/);
    expect((await callTool(EditTool, input, project.context)).is_error).toBe(true);
    expect(await readFile(file, "utf8")).toBe(`const key = "sk_${"live"}_REPLACE_ME";\n`);
  });

  it("refuses a JWT assembled from a header already there and the rest added", async () => {
    const [header, payload, signature] = jwt.split(".");
    const file = path.join(project.dir, "auth.http");
    await readBefore(file, `Authorization: Bearer ${header}.TODO\n`);
    const input = { file_path: file, old_string: ".TODO", new_string: `.${payload}.${signature}` };
    expect(await validationMessage(EditTool, input, project.context)).toMatch(/JSON Web Token/);
  });

  it("refuses a .env value filled into an empty assignment, and a replace_all completing a Google key", async () => {
    const env = path.join(project.dir, ".env");
    await readBefore(env, "DB_USER=app\nDB_PASSWORD=\n");
    const fill = { file_path: env, old_string: "DB_PASSWORD=\n", new_string: "DB_PASSWORD=Tr0ub4dor&3horse\n" };
    expect(await validationMessage(EditTool, fill, project.context)).toMatch(/DB_PASSWORD value/);

    const maps = path.join(project.dir, "maps.js");
    const prefix = `AI${"za"}Sy`;
    await readBefore(maps, `a("${prefix}KEY");\nb("${prefix}KEY");\n`);
    const all = { file_path: maps, old_string: 'KEY"', new_string: `${chars(33)}"`, replace_all: true };
    expect(await validationMessage(EditTool, all, project.context)).toMatch(/Google API Key/);
  });

  it("refuses completing a secretlint format (GitHub token) from its prefix", async () => {
    const file = path.join(project.dir, "ci.yml");
    await readBefore(file, "token: ghp_PLACEHOLDER\n");
    const input = { file_path: file, old_string: "PLACEHOLDER", new_string: chars(36) };
    expect(await validationMessage(EditTool, input, project.context)).toMatch(/GitHub Token/);
  });

  it("still lets an edit keep or move a credential the file held, and edit next to it", async () => {
    const file = path.join(project.dir, "keep.env");
    await readBefore(file, `STRIPE=${stripe("sk")}\nDEBUG=0\n`);
    const input = { file_path: file, old_string: "DEBUG=0", new_string: "DEBUG=1" };
    expect(await callText(EditTool, input, project.context)).not.toContain("Refusing");
    expect(await readFile(file, "utf8")).toBe(`STRIPE=${stripe("sk")}\nDEBUG=1\n`);
  });
});

describe("every tool that writes model text into a file", () => {
  const notebook = (source: string) =>
    `${JSON.stringify({ cells: [{ cell_type: "code", id: "c1", source, metadata: {}, outputs: [], execution_count: null }], metadata: {}, nbformat: 4, nbformat_minor: 5 }, null, 1)}\n`;

  it("NotebookEdit refuses a credential in a replaced or inserted cell, and keeps the notebook", async () => {
    const file = path.join(project.dir, "n.ipynb");
    await readBefore(file, notebook("import stripe\n"));
    const replace = { notebook_path: file, cell_id: "c1", new_source: `stripe.api_key = "${stripe("sk")}"\n` };
    expect(await validationMessage(NotebookEditTool, replace, project.context)).toMatch(/Stripe Secret Key/);
    expect((await callTool(NotebookEditTool, replace, project.context)).is_error).toBe(true);
    const insert = {
      notebook_path: file,
      cell_id: "c1",
      edit_mode: "insert",
      cell_type: "code",
      new_source: `%env DB_PASSWORD=Tr0ub4dor&3horse\nheaders = {"Authorization": "Bearer ${jwt}"}\n`,
    };
    expect(await validationMessage(NotebookEditTool, insert, project.context)).toMatch(/JSON Web Token/);
    expect(await readFile(file, "utf8")).toBe(notebook("import stripe\n"));
    const fine = { notebook_path: file, cell_id: "c1", new_source: 'import os\nkey = os.environ["STRIPE_KEY"]\n' };
    expect(await validationMessage(NotebookEditTool, fine, project.context)).toBe("");
  });

  it("TaskCreate and TaskUpdate refuse a credential in the task list file", async () => {
    const harness = makeHarness();
    try {
      const create = { subject: "Call the API", description: `Use the token ${jwt} for it` };
      expect(await validationCode(TaskCreateTool, create, harness.context)).toBe(0);
      await harness.call(TaskCreateTool, { subject: "Call the API", description: "Use the deploy token" });
      const update = { taskId: "1", description: `Set DB_PASSWORD=Tr0ub4dor&3horse first` };
      expect(await validationMessage(TaskUpdateTool, update, harness.context)).toMatch(/DB_PASSWORD value/);
      const fine = { taskId: "1", description: "Read DB_PASSWORD from the environment" };
      expect(await validationMessage(TaskUpdateTool, fine, harness.context)).toBe("");
    } finally {
      harness.cleanup();
    }
  });
});
