// `warden mcp serve` beyond tools, driven by the SDK's own client over stdio: files as resources
// under the same permission rules as Read, subscriptions, path completions, log messages at the
// level the client sets, and progress for a long call.
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import {
  type LoggingMessageNotification,
  LoggingMessageNotificationSchema,
  ResourceUpdatedNotificationSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BUILT_CLI } from "./fixtures.js";

let dir: string;
let project: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "warden-mcp-resources-"));
  project = join(dir, "project");
  await mkdir(join(project, "notes"), { recursive: true });
  await writeFile(join(project, "AGENTS.md"), "# Rules\nAlways run the tests.\n");
  await writeFile(join(project, "notes", "plan.txt"), "step one\n");
  await writeFile(join(project, "notes", "pixel.png"), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 1, 2]));
  await writeFile(join(project, "secret.txt"), "hunter2\n");
  await writeFile(join(dir, "outside.txt"), "not in the project\n");
  // A project command and a user skill: served as MCP prompts.
  await mkdir(join(project, ".warden", "commands"), { recursive: true });
  await writeFile(
    join(project, ".warden", "commands", "review.md"),
    "---\ndescription: Review a file\nargument-hint: <file>\nallowed-tools: Bash\n---\nReview $1 closely. All: $ARGUMENTS\n",
  );
  await mkdir(join(dir, "home", ".warden", "skills", "explain"), { recursive: true });
  await writeFile(
    join(dir, "home", ".warden", "skills", "explain", "SKILL.md"),
    "---\nname: explain\ndescription: Explain code simply\n---\nExplain the code.\n",
  );
  // A command whose frontmatter names its arguments: each one a prompt argument.
  await writeFile(
    join(project, ".warden", "commands", "compare.md"),
    "---\ndescription: Compare two files\narguments: [left, right]\n---\nCompare $left with $right ($ARGUMENTS).\n",
  );
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function connect(...args: string[]): Promise<Client> {
  const settings = JSON.stringify({ permissions: { deny: ["Read(./secret.txt)"] } });
  const transport = new StdioClientTransport({
    command: process.execPath,
    // The deny rule comes from --settings, the way a user's own file would give it.
    args: [BUILT_CLI, "mcp", "serve", "--cwd", project, "--settings", settings, ...args],
    env: {
      ...(process.env as Record<string, string>),
      HOME: join(dir, "home"),
      WARDEN_HOME: join(dir, "home", ".warden"),
      WARDEN_MANAGED_SETTINGS: join(dir, "none.json"),
    },
    stderr: "ignore",
  });
  const client = new Client({ name: "resources-test", version: "1.0.0" });
  await client.connect(transport);
  return client;
}

const uri = (...parts: string[]) => pathToFileURL(join(project, ...parts)).href;

describe("warden mcp serve: resources", () => {
  it("declares logging, resources with subscriptions, and completions", async () => {
    const client = await connect();
    try {
      const capabilities = client.getServerCapabilities();
      expect(capabilities?.logging).toBeDefined();
      expect(capabilities?.resources?.subscribe).toBe(true);
      expect(capabilities?.completions).toBeDefined();
    } finally {
      await client.close();
    }
  }, 30_000);

  it("lists the memory files and the file template, and reads a memory file", async () => {
    const client = await connect();
    try {
      const { resources } = await client.listResources();
      expect(resources.map((r) => r.uri)).toContain(uri("AGENTS.md"));
      const { resourceTemplates } = await client.listResourceTemplates();
      expect(resourceTemplates.map((t) => t.uriTemplate)).toEqual(["file:///{+path}"]);
      const read = await client.readResource({ uri: uri("AGENTS.md") });
      expect(read.contents[0]).toMatchObject({ mimeType: "text/markdown", text: "# Rules\nAlways run the tests.\n" });
    } finally {
      await client.close();
    }
  }, 30_000);

  it("reads any file under the working directory, binary ones as base64", async () => {
    const client = await connect();
    try {
      const text = await client.readResource({ uri: uri("notes", "plan.txt") });
      expect(text.contents[0]).toMatchObject({ text: "step one\n" });
      const image = await client.readResource({ uri: uri("notes", "pixel.png") });
      const content = image.contents[0] as { blob?: string; mimeType?: string };
      expect(content.mimeType).toBe("image/png");
      expect(Buffer.from(content.blob ?? "", "base64")).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 1, 2]));
    } finally {
      await client.close();
    }
  }, 30_000);

  it("refuses what Read would refuse: a denied file, a file outside the working directories", async () => {
    const client = await connect();
    try {
      await expect(client.readResource({ uri: uri("secret.txt") })).rejects.toThrow(/denied/i);
      await expect(client.readResource({ uri: pathToFileURL(join(dir, "outside.txt")).href })).rejects.toThrow(
        /denied/i,
      );
      await expect(client.subscribeResource({ uri: uri("secret.txt") })).rejects.toThrow(/denied/i);
      await expect(client.readResource({ uri: uri("missing.txt") })).rejects.toMatchObject({ code: -32002 });
      await expect(client.readResource({ uri: "https://example.com/x" })).rejects.toThrow(/Only file:\/\//);
      // The reason once, with the client's one "MCP error CODE:" before it.
      const refused = await client.readResource({ uri: uri("secret.txt") }).catch((error: Error) => error);
      expect(refused).toBeInstanceOf(Error);
      expect((refused as Error).message).toMatch(
        /^MCP error -32600: Permission to read \S+secret\.txt has been denied/,
      );
      expect((refused as Error).message.match(/MCP error|denied/g)).toEqual(["MCP error", "denied"]);
    } finally {
      await client.close();
    }
  }, 30_000);

  it("tells a subscriber when the file changes", async () => {
    const client = await connect();
    try {
      const target = uri("notes", "plan.txt");
      const updated = new Promise<string>((resolve) => {
        client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => resolve(n.params.uri));
      });
      await client.subscribeResource({ uri: target });
      await writeFile(join(project, "notes", "plan.txt"), "step two\n");
      expect(await updated).toBe(target);
      await client.unsubscribeResource({ uri: target });
    } finally {
      await client.close();
    }
  }, 30_000);

  it("completes file paths for the template and for prompt arguments, only under the working directory", async () => {
    const client = await connect();
    try {
      const typed = `${project.slice(1)}/no`;
      const template = await client.complete({
        ref: { type: "ref/resource", uri: "file:///{+path}" },
        argument: { name: "path", value: typed },
      });
      expect(template.completion.values).toEqual([`${project.slice(1)}/notes/`]);
      const inside = await client.complete({
        ref: { type: "ref/resource", uri: "file:///{+path}" },
        argument: { name: "path", value: `${project.slice(1)}/notes/` },
      });
      expect(inside.completion.values).toEqual([
        `${project.slice(1)}/notes/pixel.png`,
        `${project.slice(1)}/notes/plan.txt`,
      ]);
      // Beside the project, only the project folder itself leads anywhere.
      const beside = await client.complete({
        ref: { type: "ref/resource", uri: "file:///{+path}" },
        argument: { name: "path", value: `${dir.slice(1)}/` },
      });
      expect(beside.completion.values).toEqual([`${project.slice(1)}/`]);
      const relative = await client.complete({
        ref: { type: "ref/prompt", name: "review" },
        argument: { name: "arguments", value: "notes/pl" },
      });
      expect(relative.completion.values).toEqual(["notes/plan.txt"]);
      // A prompt that does not exist completes nothing.
      const unknown = await client.complete({
        ref: { type: "ref/prompt", name: "anything" },
        argument: { name: "arguments", value: "notes/pl" },
      });
      expect(unknown.completion.values).toEqual([]);
    } finally {
      await client.close();
    }
  }, 30_000);
});

describe("warden mcp serve: prompts", () => {
  it("serves the slash commands and skills as prompts, with their arguments put in", async () => {
    const client = await connect();
    try {
      expect(client.getServerCapabilities()?.prompts).toBeDefined();
      const { prompts } = await client.listPrompts();
      expect(prompts.map((p) => p.name).sort()).toEqual(["compare", "explain", "review"]);
      const review = prompts.find((p) => p.name === "review");
      expect(review?.description).toBe("Review a file");
      expect(review?.arguments).toEqual([
        { name: "arguments", description: "What follows /review (<file>)", required: false },
      ]);
      const got = await client.getPrompt({ name: "review", arguments: { arguments: "src/a.ts --strict" } });
      expect(got.messages).toEqual([
        { role: "user", content: { type: "text", text: "Review src/a.ts closely. All: src/a.ts --strict" } },
      ]);
      const compare = prompts.find((p) => p.name === "compare");
      expect(compare?.arguments).toEqual([
        { name: "left", description: "Argument 1 of /compare, $left in its text", required: false },
        { name: "right", description: "Argument 2 of /compare, $right in its text", required: false },
      ]);
      // Each named argument lands where its name stands, spaces and all.
      const compared = await client.getPrompt({
        name: "compare",
        arguments: { left: "old notes.txt", right: "new.txt" },
      });
      expect(compared.messages).toEqual([
        {
          role: "user",
          content: { type: "text", text: "Compare old notes.txt with new.txt (old notes.txt new.txt)." },
        },
      ]);
      // Named arguments complete as paths too.
      const completed = await client.complete({
        ref: { type: "ref/prompt", name: "compare" },
        argument: { name: "right", value: "notes/pl" },
      });
      expect(completed.completion.values).toEqual(["notes/plan.txt"]);
      const skill = await client.getPrompt({ name: "explain" });
      const text = (skill.messages[0]?.content as { text?: string } | undefined)?.text;
      expect(text).toContain("Explain the code.");
      expect(text).toContain(join(dir, "home", ".warden", "skills", "explain"));
      // An edit is served at once; an unknown name is an error with the reason.
      await writeFile(join(project, ".warden", "commands", "review.md"), "Look at $ARGUMENTS again.\n");
      const edited = await client.getPrompt({ name: "review", arguments: { arguments: "b.ts" } });
      expect((edited.messages[0]?.content as { text?: string } | undefined)?.text).toBe("Look at b.ts again.");
      await expect(client.getPrompt({ name: "nope" })).rejects.toThrow(/^MCP error -32602: No such prompt: nope/);
    } finally {
      await client.close();
    }
  }, 30_000);
});

describe("warden mcp serve: structured results", () => {
  it("gives Glob and Grep an outputSchema and their data as structuredContent the client validates", async () => {
    const client = await connect();
    try {
      const { tools } = await client.listTools();
      const glob = tools.find((t) => t.name === "Glob");
      expect(glob?.outputSchema).toMatchObject({ type: "object", required: expect.arrayContaining(["filenames"]) });
      expect(tools.find((t) => t.name === "Grep")?.outputSchema).toBeDefined();
      expect(tools.find((t) => t.name === "Read")?.outputSchema).toBeUndefined();
      // The SDK client checks structuredContent against the listed schema and throws on a mismatch.
      const result = await client.callTool({ name: "Glob", arguments: { pattern: "notes/*.txt" } });
      expect(result.structuredContent).toMatchObject({ filenames: ["notes/plan.txt"], numFiles: 1, truncated: false });
      expect(JSON.stringify(result.content)).toContain("plan.txt");
    } finally {
      await client.close();
    }
  }, 30_000);
});

describe("warden mcp serve: logging and progress", () => {
  it("logs each call at the level the client set, and nothing below it", async () => {
    const client = await connect();
    try {
      const messages: LoggingMessageNotification["params"][] = [];
      client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => void messages.push(n.params));
      await client.setLoggingLevel("info");
      await client.callTool({ name: "Read", arguments: { file_path: join(project, "AGENTS.md") } });
      await expect.poll(() => messages.length).toBeGreaterThanOrEqual(2);
      expect(messages.map((m) => (m.data as { event: string }).event)).toEqual([
        "tool_call_started",
        "tool_call_finished",
      ]);
      expect(messages[1]).toMatchObject({ level: "info", logger: "warden", data: { tool: "Read", is_error: false } });

      messages.length = 0;
      await client.setLoggingLevel("error");
      await client.callTool({ name: "Read", arguments: { file_path: join(project, "AGENTS.md") } });
      // A ping is answered after any notification the server sent before it.
      await client.ping();
      expect(messages).toEqual([]);
    } finally {
      await client.close();
    }
  }, 30_000);

  it("sends progress while a long Bash call runs, with its latest output", async () => {
    const client = await connect("--allowedTools", "Bash");
    try {
      const progress: Array<{ progress: number; message?: string }> = [];
      const result = await client.callTool(
        { name: "Bash", arguments: { command: "for i in 1 2 3; do echo line-$i; sleep 1; done" } },
        undefined,
        { onprogress: (p) => void progress.push(p), timeout: 20_000 },
      );
      expect(JSON.stringify(result.content)).toContain("line-3");
      expect(progress.length).toBeGreaterThanOrEqual(2);
      expect(progress.map((p) => p.progress)).toEqual([...progress.keys()].map((i) => i + 1));
      expect(progress.at(-1)?.message).toMatch(/^Bash: \d+s/);
    } finally {
      await client.close();
    }
  }, 30_000);
});
