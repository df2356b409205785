// A resumed session remembers the files its conversation read, wrote and edited: their contents are
// in the context the model goes on with, so an Edit after --continue is not refused as "not read
// yet". A file changed on disk after its call must still be read again. The built CLI, real files.
import { readFileSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { expect, it } from "vitest";
import { tempDir, text, toolUse, writeScript } from "../loop/helpers.js";
import { jsonLines, runCli } from "./run-cli.js";

const edit = (id: string, file: string, from: string, to: string) =>
  toolUse(id, "Edit", { file_path: `{{cwd}}/${file}`, old_string: from, new_string: to });

it("edits after --continue the files the resumed conversation read or wrote, not one changed since", async () => {
  const home = tempDir("warden-resume-read-home-");
  const cwd = tempDir("warden-resume-read-project-");
  const scripts = tempDir("warden-resume-read-scripts-");
  writeFileSync(join(cwd, "read.txt"), "read me\n");
  writeFileSync(join(cwd, "later.txt"), "as it was read\n");
  const first = writeScript(
    scripts,
    [
      { content: [toolUse("r1", "Read", { file_path: "{{cwd}}/read.txt" })] },
      { content: [toolUse("r2", "Read", { file_path: "{{cwd}}/later.txt" })] },
      { content: [toolUse("w1", "Write", { file_path: "{{cwd}}/written.txt", content: "written\n" })] },
      { content: [text("first done")] },
    ],
    "first.jsonl",
  );
  const second = writeScript(
    scripts,
    [
      { content: [edit("e1", "read.txt", "read me", "edited after resume")] },
      { content: [edit("e2", "written.txt", "written", "edited too")] },
      { content: [edit("e3", "later.txt", "as it was read", "overwritten blind")] },
      { content: [text("second done")] },
    ],
    "second.jsonl",
  );
  const run = (script: string, extra: string[]) =>
    runCli(
      [
        "-p",
        "go",
        "--model",
        `replay:${script}`,
        "--allowedTools",
        "Edit",
        "Write",
        "--output-format",
        "stream-json",
        "--cwd",
        cwd,
        ...extra,
      ],
      {
        home,
      },
    );
  expect((await run(first, [])).code).toBe(0);
  // Someone changes one of the files after the session read it.
  writeFileSync(join(cwd, "later.txt"), "changed by the person\n");
  const later = new Date(Date.now() + 10_000);
  utimesSync(join(cwd, "later.txt"), later, later);

  const resumed = await run(second, ["--continue"]);
  expect(resumed.code).toBe(0);
  const results = new Map<string, { content: string; is_error?: boolean }>();
  for (const line of jsonLines(resumed.stdout))
    if (line.type === "user")
      for (const block of (line.message as { content: Array<Record<string, unknown>> }).content)
        if (block.type === "tool_result") results.set(block.tool_use_id as string, block as never);
  expect(results.get("e1")?.is_error).toBeFalsy();
  expect(results.get("e2")?.is_error).toBeFalsy();
  expect(readFileSync(join(cwd, "read.txt"), "utf8")).toBe("edited after resume\n");
  expect(readFileSync(join(cwd, "written.txt"), "utf8")).toBe("edited too\n");
  expect(results.get("e3")).toMatchObject({ is_error: true });
  expect(readFileSync(join(cwd, "later.txt"), "utf8")).toBe("changed by the person\n");
});
