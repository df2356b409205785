// A running call's elapsed time on screen says how long the tool has run: not while its permission
// question waits for the person (it showed "(21s)" beside an open dialog), and from the answer on.
import { createElement } from "react";
import { beforeAll, expect, it } from "vitest";
import type { ToolUseBlock } from "../../src/messages/types.js";
import type { AskRequest } from "../../src/permissions/engine/index.js";
import { PermissionQueue } from "../../src/ui/dialogs/permission-queue.js";
import { TranscriptModel } from "../../src/ui/transcript/transcript-model.js";

let render: typeof import("ink-testing-library").render;
let LivePart: typeof import("../../src/ui/app/LivePart.js").LivePart;
beforeAll(async () => {
  ({ render } = await import("ink-testing-library"));
  ({ LivePart } = await import("../../src/ui/app/LivePart.js"));
});

const plain = (frame: string) => frame.replace(/\x1b\[[0-9;]*m/g, "");

function screen(model: TranscriptModel, asking: ReadonlySet<string>): string {
  const { lastFrame, unmount } = render(
    createElement(LivePart, { transcript: model, now: Date.now(), backgroundTasks: [], working: false, asking }),
  );
  const frame = plain(lastFrame() ?? "");
  unmount();
  return frame;
}

it("shows no elapsed time while the call's question is open, and counts from the answer", () => {
  const model = new TranscriptModel(() => [], "/tmp");
  const call: ToolUseBlock = { type: "tool_use", id: "b1", name: "Bash", input: { command: "rm -rf build" } };
  model.apply({ type: "assistant", message: { role: "assistant", content: [call] } });
  const running = model.running.get("b1");
  if (!running) throw new Error("the call is not running");
  // Thirty seconds ago, as when the person took that long to answer.
  running.startedAt = Date.now() - 30_000;
  expect(screen(model, new Set())).toContain("Bash(rm -rf build) (30s)");
  expect(screen(model, new Set(["b1"]))).not.toMatch(/\(\d+s/);

  model.restartClock("b1");
  expect(screen(model, new Set())).toContain("Bash(rm -rf build)");
  expect(screen(model, new Set())).not.toMatch(/\(\d+s/);
});

it("the permission queue names the calls whose question is open or waits", async () => {
  const queue = new PermissionQueue();
  const request = (toolUseId: string) =>
    ({ toolUseId, context: { abortController: new AbortController() } }) as unknown as AskRequest;
  const first = queue.ask(request("a"));
  void queue.ask(request("b"));
  expect(queue.toolUseIds).toEqual(["a", "b"]);
  queue.current?.answer({ behavior: "deny" });
  await first;
  expect(queue.toolUseIds).toEqual(["b"]);
});
