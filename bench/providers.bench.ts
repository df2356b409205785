// Provider figures: how soon a fresh process gets its first model request out, and at what memory
// cost, through our adapters (node:http fetch, lazy SDK) beside the same SDK on the global fetch;
// and what the adapters cost per streamed SSE event. All against the scripted server on 127.0.0.1.
import { spawn } from "node:child_process";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { createAnthropicProvider } from "../src/providers/anthropic.js";
import { createOpenAIProvider } from "../src/providers/openai.js";
import type { Provider } from "../src/providers/types.js";
import { reply, type ScriptedModelServer, startScriptedModelServer } from "../test/helpers/scripted-model-server.js";
import type { BenchRow } from "./run.js";

const root = resolve(fileURLToPath(import.meta.url), "../..");
const RUNS = 5;

// Our providers bundled the way scripts/build.mjs ships them: each SDK inside the lazy chunk of
// its adapter, other dependencies external.
const OURS = `
import { resolveProvider } from ${JSON.stringify(join(root, "src/providers/resolve.ts"))};
const { provider, model } = await resolveProvider(process.argv[2], { cwd: process.cwd(), retry: { maxRetries: 0 } });
const request = { model, system: "s", messages: [{ role: "user", content: [{ type: "text", text: "hi" }] }], tools: [], maxTokens: 64, signal: new AbortController().signal };
for await (const _event of provider.stream(request)) {}
process.stdout.write(JSON.stringify({ maxRssKB: process.resourceUsage().maxRSS }));
`;

// The same request the way the SDKs' READMEs show it: default client, global fetch.
const SDK_GLOBAL_FETCH = `
const which = process.argv[2].split(":")[0];
const messages = [{ role: "user", content: "hi" }];
if (which === "anthropic") {
  const { default: Anthropic } = await import("@anthropic-ai/sdk");
  const client = new Anthropic({ apiKey: "bench", baseURL: process.env.ANTHROPIC_BASE_URL, maxRetries: 0 });
  for await (const _e of await client.messages.create({ model: "bench-model", max_tokens: 64, messages, stream: true })) {}
} else {
  const { default: OpenAI } = await import("openai");
  const client = new OpenAI({ apiKey: "bench", baseURL: process.env.OPENAI_BASE_URL, maxRetries: 0 });
  for await (const _e of await client.chat.completions.create({ model: "bench-model", messages, stream: true })) {}
}
process.stdout.write(JSON.stringify({ maxRssKB: process.resourceUsage().maxRSS }));
`;

async function writeScript(dir: string, name: string, source: string): Promise<string> {
  const file = join(dir, `${name}.mjs`);
  await writeFile(file, source);
  return file;
}

const SDKS = new Set(["@anthropic-ai/sdk", "openai"]);

async function bundleOurs(dir: string): Promise<string> {
  const entry = await writeScript(dir, "ours-entry", OURS);
  const pkg = JSON.parse(await readFile(join(root, "package.json"), "utf8")) as {
    dependencies: Record<string, string>;
  };
  const external = Object.keys(pkg.dependencies)
    .filter((name) => !SDKS.has(name))
    .flatMap((name) => [name, `${name}/*`]);
  const outdir = join(dir, "ours");
  await build({
    entryPoints: { ours: entry },
    outdir,
    bundle: true,
    splitting: true,
    format: "esm",
    platform: "node",
    target: "node20",
    external,
    logLevel: "silent",
  });
  return join(outdir, "ours.js");
}

interface ChildRun {
  firstRequestMs: number;
  wallMs: number;
  maxRssKB: number;
}

async function runChild(server: ScriptedModelServer, script: string, spec: string): Promise<ChildRun> {
  server.enqueue(reply().text("ok"));
  const before = server.requests.length;
  const env = {
    ...process.env,
    ANTHROPIC_API_KEY: "bench",
    ANTHROPIC_BASE_URL: server.anthropicBaseURL,
    OPENAI_API_KEY: "bench",
    OPENAI_BASE_URL: server.openaiBaseURL,
  };
  const startedAt = performance.now();
  const child = spawn(process.execPath, [script, spec], { env, cwd: root, stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (d: Buffer) => (stdout += d));
  child.stderr.on("data", (d: Buffer) => (stderr += d));
  const code = await new Promise<number | null>((done) => child.on("close", done));
  const wallMs = performance.now() - startedAt;
  if (code !== 0) throw new Error(`bench child failed (${code}): ${stderr}`);
  const request = server.requests[before];
  if (!request) throw new Error("bench child sent no request");
  return {
    firstRequestMs: request.monotonicMs - startedAt,
    wallMs,
    maxRssKB: (JSON.parse(stdout) as { maxRssKB: number }).maxRssKB,
  };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

async function floorMs(): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const startedAt = performance.now();
    const child = spawn(process.execPath, ["-e", "0"], { stdio: "ignore" });
    await new Promise((done) => child.on("close", done));
    times.push(performance.now() - startedAt);
  }
  return median(times);
}

/** Streams one long reply in-process and divides the time by the number of SSE events it carried. */
async function perEventMicros(
  server: ScriptedModelServer,
  provider: Provider,
  protocol: "anthropic" | "openai",
): Promise<number> {
  const textPieces = 2000;
  const argumentPieces = 1000;
  const turn = () =>
    reply()
      .text("x".repeat(textPieces * 4), { chunks: textPieces })
      .tool("Read", { file_path: "y".repeat(argumentPieces * 4) }, { chunks: argumentPieces })
      .burst();
  const events = textPieces + argumentPieces + (protocol === "anthropic" ? 8 : 5);
  const request = {
    model: "bench-model",
    system: "s",
    messages: [],
    tools: [],
    maxTokens: 64,
    signal: new AbortController().signal,
  };
  for (let i = 0; i < 3; i++) {
    server.enqueue(turn());
    for await (const _event of provider.stream(request)) {
      // warm-up: loads the SDK, opens the connection, lets the JIT settle
    }
  }
  const samples: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    server.enqueue(turn());
    const startedAt = performance.now();
    for await (const _event of provider.stream(request)) {
      // drain
    }
    samples.push(((performance.now() - startedAt) * 1000) / events);
  }
  return median(samples);
}

export default async function providersBench(): Promise<BenchRow[]> {
  // Inside the package, so the scripts' bare imports resolve to our node_modules (ESM ignores NODE_PATH).
  const cacheDir = join(root, "node_modules", ".cache");
  await mkdir(cacheDir, { recursive: true });
  const dir = await mkdtemp(join(cacheDir, "warden-bench-providers-"));
  const server = await startScriptedModelServer();
  try {
    const ours = await bundleOurs(dir);
    const sdk = await writeScript(dir, "sdk", SDK_GLOBAL_FETCH);
    const rows: BenchRow[] = [{ name: "node -e 0 wall (floor)", value: await floorMs(), unit: "ms" }];
    for (const spec of ["anthropic:bench-model", "openai:bench-model"]) {
      const name = spec.split(":")[0]!;
      const oursRuns: ChildRun[] = [];
      const sdkRuns: ChildRun[] = [];
      for (let i = 0; i < RUNS; i++) {
        oursRuns.push(await runChild(server, ours, spec));
        sdkRuns.push(await runChild(server, sdk, spec));
      }
      rows.push(
        {
          name: `${name}: start → first request (ours, node:http fetch)`,
          value: median(oursRuns.map((r) => r.firstRequestMs)),
          unit: "ms",
        },
        {
          name: `${name}: start → first request (SDK, global fetch)`,
          value: median(sdkRuns.map((r) => r.firstRequestMs)),
          unit: "ms",
        },
      );
    }
    const anthropic = createAnthropicProvider({ apiKey: "bench", baseURL: server.anthropicBaseURL });
    const openai = createOpenAIProvider({ apiKey: "bench", baseURL: server.openaiBaseURL });
    rows.push(
      {
        name: "anthropic adapter: per streamed SSE event",
        value: await perEventMicros(server, anthropic, "anthropic"),
        unit: "µs",
        note: "3000-event turn sent in one write; SDK parsing included",
      },
      {
        name: "openai adapter: per streamed SSE event",
        value: await perEventMicros(server, openai, "openai"),
        unit: "µs",
        note: "3000-event turn sent in one write; SDK parsing included",
      },
    );
    return rows;
  } finally {
    await server.close();
    await rm(dir, { recursive: true, force: true });
  }
}
