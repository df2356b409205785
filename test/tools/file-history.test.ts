import { execFile } from "node:child_process";
import { appendFile, mkdir, readFile, writeFile } from "node:fs/promises";
import * as path from "node:path";
import { promisify } from "node:util";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { fileHistoryDir, listFileChanges, undoLastChanges } from "../../src/session/file-history.js";
import { EditTool } from "../../src/tools/edit/tool.js";
import { ReadTool } from "../../src/tools/read/tool.js";
import { WriteTool } from "../../src/tools/write/tool.js";
import { BUILT_CLI } from "../helpers/built.js";
import { callText, makeProject, type TestProject } from "./helpers.js";

const run = promisify(execFile);
let project: TestProject;

beforeEach(async () => {
  project = await makeProject();
});
afterEach(async () => {
  await project.cleanup();
});

async function exists(file: string): Promise<boolean> {
  return readFile(file).then(
    () => true,
    () => false,
  );
}

describe("file history and undo", () => {
  it("undoes the last N changes newest first; a created file is deleted", async () => {
    const existing = path.join(project.dir, "a.txt");
    const created = path.join(project.dir, "b.txt");
    await writeFile(existing, "v1\n");
    await callText(ReadTool, { file_path: existing }, project.context);
    await callText(EditTool, { file_path: existing, old_string: "v1", new_string: "v2" }, project.context);
    await callText(EditTool, { file_path: existing, old_string: "v2", new_string: "v3" }, project.context);
    await callText(WriteTool, { file_path: created, content: "new\n" }, project.context);
    expect(listFileChanges(project.sessionDir)).toHaveLength(3);

    const first = undoLastChanges(project.sessionDir, 2);
    expect(first.actions.map((a) => [a.action, a.path])).toEqual([
      ["deleted", created],
      ["restored", existing],
    ]);
    expect(await exists(created)).toBe(false);
    expect(await readFile(existing, "utf8")).toBe("v2\n");

    const second = undoLastChanges(project.sessionDir, 5);
    expect(second.actions).toHaveLength(1);
    expect(second.missing).toBe(4);
    expect(await readFile(existing, "utf8")).toBe("v1\n");
    expect(listFileChanges(project.sessionDir)).toHaveLength(0);
  });

  it("keeps the change made after a process was killed while writing the log, and can undo it", async () => {
    const file = path.join(project.dir, "a.txt");
    await writeFile(file, "v1\n");
    await callText(ReadTool, { file_path: file }, project.context);
    await callText(EditTool, { file_path: file, old_string: "v1", new_string: "v2" }, project.context);
    // The killed process's last line, cut before its end.
    await appendFile(path.join(fileHistoryDir(project.sessionDir), "log.jsonl"), '{"type":"change","id":"x","ti');
    await callText(EditTool, { file_path: file, old_string: "v2", new_string: "v3" }, project.context);
    expect(listFileChanges(project.sessionDir)).toHaveLength(2);
    undoLastChanges(project.sessionDir, 1);
    expect(await readFile(file, "utf8")).toBe("v2\n");
  });

  it("refuses, changing nothing, when a file changed since the tool wrote it", async () => {
    const a = path.join(project.dir, "a.txt");
    const b = path.join(project.dir, "b.txt");
    await callText(WriteTool, { file_path: a, content: "tool wrote a\n" }, project.context);
    await callText(WriteTool, { file_path: b, content: "tool wrote b\n" }, project.context);
    await writeFile(a, "the user changed a\n");
    expect(() => undoLastChanges(project.sessionDir, 2)).toThrow(
      /a\.txt has changed since Write wrote it.*Nothing was undone/,
    );
    expect(await readFile(a, "utf8")).toBe("the user changed a\n");
    expect(await readFile(b, "utf8")).toBe("tool wrote b\n");
    expect(listFileChanges(project.sessionDir)).toHaveLength(2);
  });

  it("backs up identical content once (tracking is idempotent)", async () => {
    const a = path.join(project.dir, "a.txt");
    await callText(WriteTool, { file_path: a, content: "same\n" }, project.context);
    await callText(WriteTool, { file_path: a, content: "other\n" }, project.context);
    await callText(WriteTool, { file_path: a, content: "same\n" }, project.context);
    await callText(WriteTool, { file_path: a, content: "other\n" }, project.context);
    const { readdir } = await import("node:fs/promises");
    expect(await readdir(path.join(project.sessionDir, "file-history", "backups"))).toHaveLength(2);
  });
});

describe("warden undo", () => {
  it("restores files of the latest session of the current directory and prints what it did", async () => {
    const home = path.join(path.dirname(project.dir), "warden-home");
    const { projectDataDir } = await import("../../src/config/paths.js");
    const saved = process.env.WARDEN_HOME;
    process.env.WARDEN_HOME = home;
    const sessionDir = path.join(projectDataDir(project.dir), "session-1");
    process.env.WARDEN_HOME = saved;
    if (saved === undefined) delete process.env.WARDEN_HOME;
    await mkdir(sessionDir, { recursive: true });
    const context = { ...project.context, options: { ...project.context.options, sessionDir } };

    const file = path.join(project.dir, "main.py");
    await writeFile(file, "print('old')\n");
    await callText(ReadTool, { file_path: file }, context);
    await callText(EditTool, { file_path: file, old_string: "old", new_string: "new" }, context);
    await callText(WriteTool, { file_path: path.join(project.dir, "extra.py"), content: "x = 1\n" }, context);

    const main = BUILT_CLI;
    const env = { ...process.env, WARDEN_HOME: home };
    const { stdout } = await run(process.execPath, [main, "undo", "2"], { cwd: project.dir, env });
    expect(stdout).toContain(`deleted (it did not exist before): ${path.join(project.dir, "extra.py")}`);
    expect(stdout).toContain(`restored: ${file}`);
    expect(stdout).toContain("Undid 2 changes in session session-1.");
    expect(await readFile(file, "utf8")).toBe("print('old')\n");

    const again = await run(process.execPath, [main, "undo", "--session", "session-1"], {
      cwd: project.dir,
      env,
    }).catch((error: { code: number; stderr: string }) => error);
    expect("code" in again && again.code).toBe(1);
    expect("stderr" in again && again.stderr).toMatch(/no file changes left to undo/);
  });
});

describe("end to end: a headless session edits, warden undo restores", () => {
  it("undoes the Edit a replayed model made through the real CLI", async () => {
    const home = path.join(path.dirname(project.dir), "warden-home-e2e");
    const file = path.join(project.dir, "app.py");
    await writeFile(file, "print('before')\n");
    const script = path.join(path.dirname(project.dir), "edit.jsonl");
    const turns = [
      { content: [{ type: "tool_use", id: "t1", name: "Read", input: { file_path: "{{cwd}}/app.py" } }] },
      {
        content: [
          {
            type: "tool_use",
            id: "t2",
            name: "Edit",
            input: { file_path: "{{cwd}}/app.py", old_string: "before", new_string: "after" },
          },
        ],
      },
      { content: [{ type: "text", text: "Done." }] },
    ];
    await writeFile(script, turns.map((t) => JSON.stringify(t)).join("\n"));
    const main = BUILT_CLI;
    const env = { ...process.env, WARDEN_HOME: home };
    await run(
      process.execPath,
      [main, "-p", "change it", "--model", `replay:${script}`, "--permission-mode", "acceptEdits"],
      {
        cwd: project.dir,
        env,
      },
    );
    expect(await readFile(file, "utf8")).toBe("print('after')\n");
    const listed = await run(process.execPath, [main, "undo", "--list"], { cwd: project.dir, env });
    expect(listed.stdout).toMatch(/1\. .* Edit .*app\.py/);
    const undone = await run(process.execPath, [main, "undo"], { cwd: project.dir, env });
    expect(undone.stdout).toContain(`restored: ${file}`);
    expect(await readFile(file, "utf8")).toBe("print('before')\n");
  });
});

describe("file history failures", () => {
  it("does not touch a file whose previous content cannot be backed up", async () => {
    const blocker = path.join(path.dirname(project.dir), "not-a-folder");
    await writeFile(blocker, "a file where the session folder should be\n");
    const context = { ...project.context, options: { ...project.context.options, sessionDir: blocker } };
    const file = path.join(project.dir, "a.txt");
    await writeFile(file, "keep me\n");
    await callText(ReadTool, { file_path: file }, context);
    const text = await callText(EditTool, { file_path: file, old_string: "keep", new_string: "lose" }, context);
    expect(text).toMatch(/^Error:/);
    expect(await readFile(file, "utf8")).toBe("keep me\n");
  });

  it("reports success with a warning when a new file was written but the log could not be kept", async () => {
    const blocker = path.join(path.dirname(project.dir), "not-a-folder");
    await writeFile(blocker, "");
    const context = { ...project.context, options: { ...project.context.options, sessionDir: blocker } };
    const file = path.join(project.dir, "new.txt");
    const text = await callText(WriteTool, { file_path: file, content: "hello\n" }, context);
    expect(text).toMatch(/^File created successfully/);
    expect(text).toMatch(/could not be recorded for undo/);
    expect(await readFile(file, "utf8")).toBe("hello\n");
  });
});
