// What a resumed session counts as read: the files of the conversation's successful Read, Write and
// Edit calls that have not changed since each call's result was recorded. Real files in a temp folder.
import { utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { expect, it } from "vitest";
import { restoredReads } from "../../src/cli/session/restore-read-state.js";
import type { Message } from "../../src/messages/types.js";
import { tempDir } from "../loop/helpers.js";

function call(id: string, name: string, input: Record<string, unknown>, result: string, isError = false): Message[] {
  return [
    { role: "assistant", content: [{ type: "tool_use", id, name, input }] },
    {
      role: "user",
      content: [{ type: "tool_result", tool_use_id: id, content: result, ...(isError && { is_error: true }) }],
    },
  ];
}

it("restores successful reads and writes as of their result's time, never failed calls or files changed after", () => {
  const cwd = tempDir("warden-restore-reads-");
  for (const name of ["whole.txt", "part.txt", "failed.txt", "changed.txt", "other.txt"])
    writeFileSync(join(cwd, name), `${name}\n`);
  const messages = [
    ...call("a", "Read", { file_path: join(cwd, "whole.txt") }, "     1\twhole.txt"),
    ...call("b", "Read", { file_path: "part.txt", offset: 3, limit: 10 }, "..."),
    ...call("c", "Edit", { file_path: join(cwd, "failed.txt"), old_string: "x", new_string: "y" }, "not found", true),
    ...call("d", "Read", { file_path: join(cwd, "changed.txt") }, "     1\tchanged.txt"),
    ...call("e", "Grep", { pattern: "other", path: join(cwd, "other.txt") }, "other.txt"),
  ];
  const now = Date.now();
  const later = new Date(now + 60_000);
  utimesSync(join(cwd, "changed.txt"), later, later);
  const times = new Map(["a", "b", "c", "d", "e"].map((id) => [id, now + 1000]));

  const restored = restoredReads(messages, times, cwd);
  expect(restored.map((r) => r.path)).toEqual([join(cwd, "whole.txt"), join(cwd, "part.txt")]);
  expect(restored[0]?.record).toMatchObject({ content: "whole.txt\n", offset: 1 });
  expect(restored[1]?.record).toMatchObject({ offset: 3, limit: 10 });
  // A call whose result has no recorded time is left out.
  expect(restoredReads(messages, new Map(), cwd)).toEqual([]);
});
