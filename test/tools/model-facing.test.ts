// What the model sees, as golden snapshots: every tool the CLI can offer (name, prompt, input
// schema, deferral) and the whole first request of a headless session as a model server receives
// it. Any change to what the model reads (a prompt's wording, a schema field, the tool order, the
// system prompt, the request envelope) fails here until the snapshot is updated
// (`npx vitest run test/tools/model-facing.test.ts -u`) and the diff is reviewed like code.
//
// No tool can slip past: the tools come from the pool the real CLI builds (read from its
// stream-json init line, with an MCP server that offers resources so the resource tools join),
// and every tool exported from src/tools/*/tool.ts must be among them.
import { mkdirSync, mkdtempSync, readdirSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { LspService } from "../../src/lsp/service.js";
import { isDeferredTool } from "../../src/tool/deferred.js";
import type { McpResourceSource } from "../../src/tool/mcp-resource-source.js";
import { emptyPermissionContext } from "../../src/tool/permission-types.js";
import { toolInputJSONSchema } from "../../src/tool/schema.js";
import type { AnyTool } from "../../src/tool/types.js";
import { createListMcpResourcesTool } from "../../src/tools/list-mcp-resources/tool.js";
import { createLspTool } from "../../src/tools/lsp/tool.js";
import { createMcpAuthTool } from "../../src/tools/mcp-auth/tool.js";
import { createReadMcpResourceTool } from "../../src/tools/read-mcp-resource/tool.js";
import { builtInTools } from "../../src/tools/registry.js";
import { createReplTool } from "../../src/tools/repl/tool.js";
import { createSkillTool } from "../../src/tools/skill/tool.js";
import { createStructuredOutputTool } from "../../src/tools/structured-output/tool.js";
import { createWebFetchTool } from "../../src/tools/web-fetch/tool.js";
import { createWebSearchTool } from "../../src/tools/web-search/tool.js";
import { type CliRun, jsonLines, runCli } from "../cli/run-cli.js";
import { reply, type ScriptedModelServer, startScriptedModelServer } from "../helpers/scripted-model-server.js";
import { stdioServerConfig } from "../mcp/fixtures.js";

const root = fileURLToPath(new URL("../..", import.meta.url));

/** The --json-schema of the pool run that offers StructuredOutput. */
const ANSWER_SCHEMA = { type: "object", properties: { answer: { type: "string" } }, required: ["answer"] };

const noResources: McpResourceSource = {
  resourceServers: () => [],
  listResources: async () => [],
  readResource: async () => [],
};

/**
 * How to build the tools that src/tools/ exports as factories (they need a session's collaborator).
 * A new factory must be added here, or the scan below fails: that is how it gets a snapshot.
 */
const TOOL_FACTORIES: Record<string, () => AnyTool> = {
  createListMcpResourcesTool: () => createListMcpResourcesTool(noResources),
  createReadMcpResourceTool: () => createReadMcpResourceTool(noResources),
  // The catalog shapes only the listing reminder, not the tool's prompt or schema.
  createSkillTool: () => createSkillTool({ skills: [], commands: [], projectTrusted: false, warnings: [] }),
  // The schema is the caller's (--json-schema): this one is what the schema-run pool below passes.
  createStructuredOutputTool: () => createStructuredOutputTool(ANSWER_SCHEMA, () => ({ ok: true })),
  // One per MCP server that needs a login (offered in place of its tools).
  createMcpAuthTool: () =>
    createMcpAuthTool({
      serverName: "secure",
      transport: "http",
      url: "https://mcp.example.com/mcp",
      startAuthentication: async () => "already",
    }),
  // Settings change only who is pre-approved (WebFetch) and which service searches (WebSearch).
  createWebFetchTool: () => createWebFetchTool(),
  createWebSearchTool: () => createWebSearchTool(),
  // The servers shape neither the prompt nor the schema; the tool is enabled when there is one.
  // Code mode's tool; the code-only MCP tools it may be given change only its listing.
  createReplTool: () => createReplTool(),
  createLspTool: () =>
    createLspTool(
      new LspService(
        [
          {
            name: "demo",
            command: "demo-ls",
            args: [],
            extensions: [".ts"],
            languageIds: {},
            env: {},
          },
        ],
        "/project",
      ),
    ),
};

/**
 * Every tool this test knows how to build: the registry's (both task-list families: a session
 * offers one, chosen by settings `taskTools`; SendUserMessage, offered with --brief; the team tools,
 * offered with settings `agentTeams`; WebSearch,
 * offered where something can search), then the factories' (those the registry does not already
 * offer under the same name).
 */
function knownTools(): AnyTool[] {
  const headless = builtInTools();
  const tasks = builtInTools({ taskTools: "Tasks" }).filter((tool) => !headless.includes(tool));
  const brief = builtInTools({ brief: true }).filter((tool) => !headless.includes(tool));
  const teams = builtInTools({ teams: true }).filter((tool) => !headless.includes(tool) && !tasks.includes(tool));
  const search = builtInTools({ webSearch: { serverSide: true } }).filter((tool) => !headless.includes(tool));
  const fleet = builtInTools({ fleet: true }).filter((tool) => !headless.includes(tool));
  // PowerShell (settings `powerShell`) and REPL (code mode, `--code-mode` or settings `codeMode`).
  const optIn = builtInTools({ powerShell: true, codeMode: {} }).filter(
    (tool) => !headless.some((known) => known.name === tool.name),
  );
  const registry = [...headless, ...tasks, ...brief, ...teams, ...search, ...fleet, ...optIn];
  const factories = Object.values(TOOL_FACTORIES)
    .map((build) => build())
    .filter((tool) => !registry.some((known) => known.name === tool.name));
  return [...registry, ...factories];
}

/**
 * Environment knobs that change what the model is told (Bash timeouts, the sandbox paragraph,
 * tool deferral): blanked so a developer's shell cannot move the snapshot.
 */
const NEUTRAL_ENV = {
  BASH_DEFAULT_TIMEOUT_MS: "",
  BASH_MAX_TIMEOUT_MS: "",
  WARDEN_SANDBOX: "",
  WARDEN_TOOL_SEARCH: "",
  WARDEN_AGENT_TEAMS: "",
  WARDEN_EXTRA_TOOLS: "",
  // A configured fleet offers RemoteTrigger.
  WARDEN_REDIS_URL: "",
};

function looksLikeTool(value: unknown): value is AnyTool {
  if (typeof value !== "object" || value === null) return false;
  const tool = value as Partial<AnyTool>;
  return typeof tool.name === "string" && typeof tool.call === "function" && typeof tool.prompt === "function";
}

let dir: string;
let server: ScriptedModelServer;
/**
 * The CLI's pools with an MCP server connected (its own mcp__ tools left out): the default one
 * and, with settings `taskTools: "Tasks"`, the one with the other task-list family.
 */
let cliPoolNames: string[];
let cliTasksPoolNames: string[];
/** With --json-schema, --brief and a language server (StructuredOutput, SendUserMessage and LSP join). */
let cliSchemaPoolNames: string[];
/** The first request body of a headless session, per wire protocol. */
let anthropicBody: Record<string, unknown>;
let openaiBody: Record<string, unknown>;
/** The session's working directory, which the system prompt names. */
let sessionCwd: string;

function expectSuccess(run: CliRun): void {
  expect(run.code, `exit ${run.code}\n${run.stderr}`).toBe(0);
}

beforeAll(async () => {
  dir = realpathSync(mkdtempSync(join(tmpdir(), "warden-model-facing-")));
  sessionCwd = join(dir, "project");
  mkdirSync(sessionCwd);
  server = await startScriptedModelServer();
  const env = {
    ...NEUTRAL_ENV,
    WARDEN_MANAGED_SETTINGS: join(dir, "no-managed-settings.json"),
    // The pools must include the demo server's tools: on a loaded machine its start (a tsx-run
    // fixture) can take longer than the default wait.
    WARDEN_MCP_STARTUP_WAIT_MS: "60000",
  };

  // The pool, with an MCP server that offers resources (so ListMcpResources / ReadMcpResource join).
  const script = join(dir, "answer.jsonl");
  writeFileSync(script, `${JSON.stringify({ content: [{ type: "text", text: "done" }] })}\n`);
  // A --json-schema run must end with a StructuredOutput call.
  const schemaScript = join(dir, "structured.jsonl");
  writeFileSync(
    schemaScript,
    `${[
      { content: [{ type: "tool_use", id: "so", name: "StructuredOutput", input: { answer: "done" } }] },
      { content: [{ type: "text", text: "done" }] },
    ]
      .map((turn) => JSON.stringify(turn))
      .join("\n")}\n`,
  );
  const poolRun = (home: string, extra: string[], replayScript = script) =>
    runCli(
      [
        "-p",
        "hi",
        "--model",
        `replay:${replayScript}`,
        "--output-format",
        "stream-json",
        "--cwd",
        sessionCwd,
        "--mcp-config",
        JSON.stringify({ mcpServers: { demo: stdioServerConfig("demo-server.ts") } }),
        ...extra,
      ],
      { home: join(dir, home), env },
    );
  // A user skill, so that the Skill tool joins this pool.
  mkdirSync(join(dir, "home-mcp", "skills", "demo"), { recursive: true });
  writeFileSync(join(dir, "home-mcp", "skills", "demo", "SKILL.md"), "---\ndescription: A demo skill\n---\nDemo.\n");
  const withMcp = poolRun("home-mcp", []);
  // With a search backend in settings, so that WebSearch joins a pool of the replay provider, and
  // teams (TeamCreate, TeamDelete, SendMessage), and a fleet (never connected: nothing calls it),
  // so that RemoteTrigger does.
  const withTasks = poolRun("home-tasks", [
    "--settings",
    JSON.stringify({
      taskTools: "Tasks",
      agentTeams: true,
      webSearch: { provider: "searxng", url: "http://127.0.0.1:9" },
      fleet: { redisUrl: "redis://127.0.0.1:9" },
      powerShell: true,
      codeMode: { enabled: true },
    }),
  ]);
  // Settings naming the built-in TypeScript server offer LSP even in this folder without TypeScript.
  const withSchema = poolRun(
    "home-schema",
    [
      "--json-schema",
      JSON.stringify(ANSWER_SCHEMA),
      "--brief",
      "--settings",
      JSON.stringify({ lspServers: { typescript: {} } }),
    ],
    schemaScript,
  );

  // The first request as each wire protocol carries it: no MCP, no memory files, a folder outside git.
  server.enqueue(reply().text("done"));
  const anthropic = await runCli(["-p", "Summarise the project", "--model", "anthropic:claude-test"], {
    home: join(dir, "home-anthropic"),
    processCwd: sessionCwd,
    env: { ...env, ANTHROPIC_API_KEY: "test", ANTHROPIC_BASE_URL: server.anthropicBaseURL },
  });
  expectSuccess(anthropic);
  server.enqueue(reply().text("done"));
  const openai = await runCli(["-p", "Summarise the project", "--model", "openai:gpt-test"], {
    home: join(dir, "home-openai"),
    processCwd: sessionCwd,
    env: { ...env, OPENAI_API_KEY: "test", OPENAI_BASE_URL: server.openaiBaseURL },
  });
  expectSuccess(openai);
  expect(server.requests).toHaveLength(2);
  anthropicBody = server.requests[0]?.body as Record<string, unknown>;
  openaiBody = server.requests[1]?.body as Record<string, unknown>;

  const poolOf = async (run: Promise<CliRun>): Promise<string[]> => {
    const finished = await run;
    expectSuccess(finished);
    const init = jsonLines(finished.stdout).find((line) => line.type === "system" && line.subtype === "init");
    const tools = (init?.tools ?? []) as string[];
    expect(
      tools.some((name) => name.startsWith("mcp__demo__")),
      `the demo MCP server joined the pool\n${finished.stderr}`,
    ).toBe(true);
    return tools.filter((name) => !name.startsWith("mcp__"));
  };
  cliPoolNames = await poolOf(withMcp);
  cliTasksPoolNames = await poolOf(withTasks);
  cliSchemaPoolNames = await poolOf(withSchema);
}, 60_000);

afterAll(async () => {
  await server?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** What the model is told about one tool, with the environment knobs that move it blanked. */
async function toolAsTheModelSeesIt(tool: AnyTool, pool: readonly AnyTool[]) {
  vi.stubEnv("BASH_DEFAULT_TIMEOUT_MS", "");
  vi.stubEnv("BASH_MAX_TIMEOUT_MS", "");
  vi.stubEnv("WARDEN_SANDBOX", "");
  try {
    return {
      name: tool.name,
      aliases: tool.aliases,
      searchHint: tool.searchHint,
      deferred: isDeferredTool(tool),
      strict: tool.strict === true,
      input_schema: toolInputJSONSchema(tool),
      prompt: await tool.prompt({
        tools: pool,
        permissionContext: emptyPermissionContext("/project"),
        cwd: "/project",
      }),
    };
  } finally {
    vi.unstubAllEnvs();
  }
}

describe("every tool the CLI offers", () => {
  it("is one this test knows, and every tool in src/tools/ is in one of the CLI's pools", async () => {
    const known = knownTools().map((tool) => tool.name);
    const offered = [...new Set([...cliPoolNames, ...cliTasksPoolNames, ...cliSchemaPoolNames])];
    // StructuredOutput only where a run asked for data.
    expect(cliPoolNames).not.toContain("StructuredOutput");
    expect(cliSchemaPoolNames).toContain("StructuredOutput");
    // LSP only where a language server can be started.
    expect(cliPoolNames).not.toContain("LSP");
    expect(cliSchemaPoolNames).toContain("LSP");
    // McpAuth is named after its server (mcp__NAME__authenticate), so it is left out like MCP tools.
    expect(offered.sort()).toEqual(known.filter((name) => !name.startsWith("mcp__")).sort());
    // Exactly one task-list family per session: TodoWrite by default (headless), Tasks by setting.
    expect(cliPoolNames).toContain("TodoWrite");
    expect(cliPoolNames.filter((name) => /^Task(Create|Get|Update|List)$/.test(name))).toEqual([]);
    expect(cliTasksPoolNames).not.toContain("TodoWrite");
    expect(cliTasksPoolNames).toEqual(expect.arrayContaining(["TaskCreate", "TaskGet", "TaskUpdate", "TaskList"]));

    // A tool folder whose tool the CLI never offers, or a new factory, fails here.
    const missing: string[] = [];
    for (const folder of readdirSync(join(root, "src/tools"), { withFileTypes: true })) {
      if (!folder.isDirectory()) continue;
      const file = join(root, "src/tools", folder.name, "tool.ts");
      const exports = await import(pathToFileURL(file).href).catch(() => undefined);
      if (!exports) continue;
      for (const [exportName, value] of Object.entries(exports as Record<string, unknown>)) {
        if (looksLikeTool(value) && !known.includes(value.name)) missing.push(`${exportName} (${value.name})`);
        if (typeof value === "function" && /^create\w*Tool$/.test(exportName) && !(exportName in TOOL_FACTORIES))
          missing.push(`${exportName} in src/tools/${folder.name}/tool.ts: add it to TOOL_FACTORIES`);
      }
    }
    expect(missing, "tools in src/tools/ that no snapshot covers").toEqual([]);
  });

  it("keeps its name, deferral, input schema and prompt (one snapshot per tool)", async () => {
    const tools = knownTools();
    expect(tools.map((tool) => tool.name)).toMatchSnapshot("pool order");
    for (const tool of tools) expect(await toolAsTheModelSeesIt(tool, tools)).toMatchSnapshot(tool.name);
  });
});

/** Replaces what moves from run to run and machine to machine in the system prompt. */
function normalizeSystemPrompt(text: string): string {
  return text
    .replaceAll(sessionCwd, "<cwd>")
    .replace(/^Today's date: \d{4}-\d{2}-\d{2}$/m, "Today's date: <date>")
    .replace(new RegExp(`^Platform: ${process.platform}$`, "m"), "Platform: <platform>");
}

describe("the first request of a headless session", () => {
  it("sends the system prompt, the tools and the envelope in the snapshot (Anthropic Messages)", async () => {
    const body = structuredClone(anthropicBody) as {
      system: Array<{ text: string }>;
      tools: Array<{ name: string; description: unknown; input_schema: unknown }>;
    };
    for (const block of body.system) block.text = normalizeSystemPrompt(block.text);
    // Each tool's words are in its own snapshot above: the request must carry exactly those, and
    // this snapshot keeps what only the request shows (which tools, in which order, and the rest).
    const pool = knownTools();
    for (const sent of body.tools) {
      const tool = pool.find((candidate) => candidate.name === sent.name);
      expect(tool, `${sent.name} is sent but is no known tool`).toBeDefined();
      if (!tool) continue;
      const seen = await toolAsTheModelSeesIt(tool, pool);
      expect({ description: sent.description, input_schema: sent.input_schema }).toEqual({
        description: seen.prompt,
        input_schema: seen.input_schema,
      });
      sent.description = `<${tool.name}'s prompt, as in its tool snapshot>`;
      sent.input_schema = `<${tool.name}'s input_schema, as in its tool snapshot>`;
    }
    expect(body).toMatchSnapshot();
  });

  it("sends the same system prompt and tools over OpenAI Chat Completions", async () => {
    const anthropic = anthropicBody as {
      system: Array<{ text: string }>;
      tools: Array<{ name: string; description: string; input_schema: unknown }>;
    };
    const body = structuredClone(openaiBody) as {
      messages: Array<{ role: string; content: unknown }>;
      tools: Array<{ type: string; function: { name: string; description: string; parameters: unknown } }>;
    };
    const system = body.messages[0];
    expect(system?.role).toBe("system");
    // The same words: only the model's label differs between the two sessions, and WebSearch is
    // named among the deferred tools only where the provider searches by itself (Anthropic).
    expect(system?.content).toBe(
      anthropic.system
        .map((block) => block.text)
        .join("\n\n")
        .replace("anthropic:claude-test", "openai:gpt-test")
        .replace(", WebSearch", ""),
    );
    expect(anthropic.system.map((block) => block.text).join("")).toContain(", WebSearch");
    expect(body.tools.map((tool) => tool.function)).toEqual(
      anthropic.tools.map((tool) => ({
        name: tool.name,
        description: tool.description,
        parameters: tool.input_schema,
      })),
    );
    // What is left is OpenAI's own envelope: snapshot that, not the words twice.
    if (system) system.content = "<the system prompt of the Anthropic request>";
    for (const tool of body.tools) {
      tool.function.description = `<${tool.function.name}'s description, as in the Anthropic request>`;
      tool.function.parameters = `<${tool.function.name}'s input_schema, as in the Anthropic request>`;
    }
    expect(body).toMatchSnapshot();
  });
});
