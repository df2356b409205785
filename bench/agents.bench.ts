// Issue 11's benchmark, in process, with the built-in tools:
// - spawning a subagent: from the end of the parent's response that calls Agent to the child's
//   first model request, against a fresh session's start-to-first-request (target: <= 5 ms more);
// - 8 background agents each doing 8 Reads of 32 KB files (a typical source file), total time over one such agent's time,
//   with a model that takes 100 ms per turn (target <= 1.5x on this 2-core machine);
// - the cache share of a fork: the bytes of the child's first request that repeat the parent's
//   last one up to the fork point, at a model server on 127.0.0.1 speaking Anthropic's protocol
//   (target 100%).
import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { createSession } from "../src/loop/session.js";
import type { AssistantContentBlock } from "../src/messages/types.js";
import { createAnthropicProvider } from "../src/providers/anthropic.js";
import type { ModelRequest, Provider } from "../src/providers/types.js";
import type { CanUseTool } from "../src/tool/types.js";
import { builtInTools } from "../src/tools/registry.js";
import { reply, startScriptedModelServer } from "../test/helpers/scripted-model-server.js";
import type { BenchRow } from "./run.js";

const allowAll: CanUseTool = async () => ({ behavior: "allow" });
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;
const turnOf = (request: ModelRequest) => request.messages.filter((m) => m.role === "assistant").length;
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

type Answer = (request: ModelRequest) => AssistantContentBlock[];

/** A model in process: answers from the request, records when each request arrived and each response ended. */
function model(main: Answer, child: Answer, latencyMs = 0) {
  const log = { firstRequestAt: [] as number[], childRequestAt: [] as number[], mainEndedAt: [] as number[] };
  const provider: Provider = {
    name: "bench",
    async *stream(request) {
      const now = performance.now();
      if (request.agent) log.childRequestAt.push(now);
      else log.firstRequestAt.push(now);
      if (latencyMs > 0) await sleep(latencyMs);
      const blocks = request.agent ? child(request) : main(request);
      for (const block of blocks) yield { type: "block", block };
      yield { type: "stop", stopReason: blocks.some((b) => b.type === "tool_use") ? "tool_use" : "end_turn" };
      if (!request.agent) log.mainEndedAt.push(performance.now());
    },
  };
  return { provider, log };
}

function session(cwd: string, provider: Provider) {
  return createSession({
    provider,
    model: "bench",
    tools: builtInTools(),
    canUseTool: allowAll,
    cwd,
    transcript: false,
    loadMemory: false,
  });
}

async function spawnLatency(cwd: string): Promise<{ spawn: number[]; fresh: number[]; firstSpawn: number }> {
  const spawn: number[] = [];
  const fresh: number[] = [];
  for (let i = 0; i < 40; i++) {
    const { provider, log } = model(
      (request) =>
        turnOf(request) === 0
          ? [
              {
                type: "tool_use",
                id: "m1",
                name: "Agent",
                input: { description: "d", prompt: "p", subagent_type: "Explore" },
              },
            ]
          : [{ type: "text", text: "ok" }],
      () => [{ type: "text", text: "child done" }],
    );
    const s = session(cwd, provider);
    const startedAt = performance.now();
    for await (const _ of s.submitMessage("go"));
    fresh.push((log.firstRequestAt[0] ?? Number.NaN) - startedAt);
    spawn.push((log.childRequestAt[0] ?? Number.NaN) - (log.mainEndedAt[0] ?? Number.NaN));
  }
  return { spawn: spawn.slice(5), fresh: fresh.slice(5), firstSpawn: spawn[0] ?? Number.NaN };
}

async function backgroundAgents(cwd: string, count: number): Promise<number> {
  const reads = (agent: number): AssistantContentBlock[] =>
    Array.from({ length: 8 }, (_, i) => ({
      type: "tool_use",
      id: `r${agent}_${i}`,
      name: "Read",
      input: { file_path: join(cwd, `file-${agent}-${i}.txt`) },
    }));
  const { provider } = model(
    (request) =>
      turnOf(request) === 0
        ? Array.from({ length: count }, (_, n) => ({
            type: "tool_use" as const,
            id: `m${n}`,
            name: "Agent",
            input: { description: `reader ${n}`, prompt: "read", subagent_type: "Explore", run_in_background: true },
          }))
        : [{ type: "text", text: "started" }],
    (request) => {
      const n = Number(/reader (\d+)/.exec(request.agent?.description ?? "")?.[1]);
      return turnOf(request) === 0 ? reads(n) : [{ type: "text", text: "read them" }];
    },
    100,
  );
  const s = session(cwd, provider);
  const startedAt = performance.now();
  for await (const _ of s.submitMessage("go"));
  const registry = s.getAppState().backgroundTasks;
  for (const task of registry?.list() ?? []) await registry?.waitFor(task.id, 60_000);
  const failed = (registry?.list() ?? []).filter((t) => t.status !== "completed");
  if (failed.length > 0) throw new Error(`background agents failed: ${JSON.stringify(failed)}`);
  return performance.now() - startedAt;
}

async function forkCacheShare(cwd: string): Promise<{ share: number; sharedBytes: number; parentBytes: number }> {
  const server = await startScriptedModelServer();
  try {
    process.env.WARDEN_FORK_SUBAGENT = "1";
    server.enqueue(
      reply().tool("Read", { file_path: join(cwd, "file-0-0.txt"), limit: 50 }, { id: "t1" }),
      reply().text("Forking.").tool("Agent", { description: "fork", prompt: "Summarise it." }, { id: "t2" }),
      reply().text("Scope: x\nResult: y\nKey files: none\nFiles changed: none\nIssues: none"),
      reply().text("done"),
    );
    const provider = createAnthropicProvider({ baseURL: server.anthropicBaseURL, apiKey: "bench" });
    const s = createSession({
      provider,
      model: "claude-sonnet-4-6",
      tools: builtInTools(),
      canUseTool: allowAll,
      cwd,
      transcript: false,
      loadMemory: false,
    });
    for await (const _ of s.submitMessage("read then fork"));
    const parent = server.requests[1]?.rawBody ?? "";
    const child = server.requests[2]?.rawBody ?? "";
    // Up to the parent's cache breakpoint on its newest block, then the system prompt and tools.
    const mark = ',"cache_control":{"type":"ephemeral"}';
    const forkPoint = parent.indexOf(mark);
    const tailOf = (raw: string) => raw.slice(raw.indexOf('],"stream":true'));
    let common = 0;
    while (common < forkPoint && parent.charCodeAt(common) === child.charCodeAt(common)) common++;
    const parentTail = tailOf(parent);
    const tailShared = parentTail === tailOf(child) ? parentTail.length : 0;
    const parentBytes = forkPoint + parentTail.length;
    return { share: (common + tailShared) / parentBytes, sharedBytes: common + tailShared, parentBytes };
  } finally {
    delete process.env.WARDEN_FORK_SUBAGENT;
    await server.close();
  }
}

export default async function agentsBench(): Promise<BenchRow[]> {
  const cwd = await mkdtemp(join(tmpdir(), "warden-agents-bench-"));
  const body = "x".repeat(99) + "\n";
  for (let agent = 0; agent < 8; agent++)
    for (let i = 0; i < 8; i++) await writeFile(join(cwd, `file-${agent}-${i}.txt`), body.repeat(320));

  const latency = await spawnLatency(cwd);
  const one = median([await backgroundAgents(cwd, 1), await backgroundAgents(cwd, 1), await backgroundAgents(cwd, 1)]);
  const eight = median([
    await backgroundAgents(cwd, 8),
    await backgroundAgents(cwd, 8),
    await backgroundAgents(cwd, 8),
  ]);
  const fork = await forkCacheShare(cwd);
  const spawnMs = median(latency.spawn);
  const freshMs = median(latency.fresh);
  return [
    { name: "fresh session: start -> first model request (median)", value: Number(freshMs.toFixed(2)), unit: "ms" },
    {
      name: "Agent call: parent's response end -> child's first request (median)",
      value: Number(spawnMs.toFixed(2)),
      unit: "ms",
      note: `first spawn of the process (loads the runner): ${latency.firstSpawn.toFixed(1)} ms`,
    },
    {
      name: "  spawn over a fresh session's first request",
      value: Number((spawnMs - freshMs).toFixed(2)),
      unit: "ms",
      target: "<= 5",
    },
    {
      name: "8 background agents x 8 Reads (32 KB files), 100 ms model turns: total / one agent",
      value: Number((eight / one).toFixed(2)),
      unit: "x",
      target: "<= 1.5",
      note: `${eight.toFixed(0)} ms / ${one.toFixed(0)} ms`,
    },
    {
      name: "fork: child's first request bytes equal to the parent's, up to the fork point",
      value: Number((fork.share * 100).toFixed(1)),
      unit: "%",
      target: ">= 100",
      note: `${fork.sharedBytes} of ${fork.parentBytes} bytes`,
    },
  ];
}
