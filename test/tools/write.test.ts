import { spawn } from "node:child_process";
import { readdir, readFile, stat, utimes, writeFile } from "node:fs/promises";
import * as path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { listFileChanges } from "../../src/session/file-history.js";
import { EditTool } from "../../src/tools/edit/tool.js";
import { ReadTool } from "../../src/tools/read/tool.js";
import { WriteTool } from "../../src/tools/write/tool.js";
import { builtFixture } from "../helpers/built.js";
import { callText, callTool, makeProject, type TestProject, validationCode } from "./helpers.js";

let project: TestProject;
beforeEach(async () => {
  project = await makeProject();
});
afterEach(async () => {
  await project.cleanup();
});

describe("Write", () => {
  it("creates a new file and its missing parent folders without a prior read", async () => {
    const file = path.join(project.dir, "a", "b", "new.txt");
    const text = await callText(WriteTool, { file_path: file, content: "hello\nworld\n" }, project.context);
    expect(text).toContain("File created successfully");
    expect(await readFile(file, "utf8")).toBe("hello\nworld\n");
    expect(listFileChanges(project.sessionDir)).toMatchObject([{ tool: "Write", path: file, before: null }]);
  });

  it("counts the lines it wrote: a final newline ends the last line, it does not start another", async () => {
    const counted = async (name: string, content: string) =>
      callText(WriteTool, { file_path: path.join(project.dir, name), content }, project.context);
    expect(await counted("two.txt", "hello\nworld\n")).toContain("(2 lines)");
    expect(await counted("open.txt", "hello\nworld")).toContain("(2 lines)");
    expect(await counted("one.txt", "one\n")).toContain("(1 line)");
    expect(await counted("blank.txt", "\n")).toContain("(1 line)");
    expect(await counted("empty.txt", "")).toContain("(0 lines)");
    const two = path.join(project.dir, "two-then-three.txt");
    await callText(WriteTool, { file_path: two, content: "a\nb" }, project.context);
    await callText(ReadTool, { file_path: two }, project.context);
    const overwritten = await callText(WriteTool, { file_path: two, content: "a\nb\nc\n" }, project.context);
    expect(overwritten).toContain("has been overwritten (3 lines)");
  });

  it("names the file that stands where a folder of the new path must be (code 1), as Edit's create does", async () => {
    await writeFile(path.join(project.dir, "notes.txt"), "x\n");
    for (const file of [
      path.join(project.dir, "notes.txt", "new.md"),
      path.join(project.dir, "notes.txt", "a", "b.md"),
    ]) {
      expect(await validationCode(WriteTool, { file_path: file, content: "x" }, project.context)).toBe(1);
      const result = await callTool(WriteTool, { file_path: file, content: "x" }, project.context);
      expect(result.is_error).toBe(true);
      expect(JSON.stringify(result.content)).toContain(
        `${path.join(project.dir, "notes.txt")} is a file, not a folder`,
      );
      const viaEdit = await callTool(EditTool, { file_path: file, old_string: "", new_string: "x" }, project.context);
      expect(JSON.stringify(viaEdit.content)).toContain(
        `${path.join(project.dir, "notes.txt")} is a file, not a folder`,
      );
    }
    expect(await readFile(path.join(project.dir, "notes.txt"), "utf8")).toBe("x\n");
  });

  it("refuses a path the permission rules deny (code 1)", async () => {
    const file = path.join(project.dir, "locked", "out.txt");
    project.context.getAppState().toolPermissionContext.rules.deny.push({
      source: "session",
      behavior: "deny",
      value: { toolName: "Edit", ruleContent: "./locked/**" },
    });
    expect(await validationCode(WriteTool, { file_path: file, content: "x" }, project.context)).toBe(1);
    const result = await callTool(WriteTool, { file_path: file, content: "x" }, project.context);
    expect(result.is_error).toBe(true);
    expect(await readFile(file, "utf8").catch(() => "absent")).toBe("absent");
  });

  it("refuses an existing file that was not read (code 2), leaving it untouched", async () => {
    const file = path.join(project.dir, "a.txt");
    await writeFile(file, "precious\n");
    expect(await validationCode(WriteTool, { file_path: file, content: "x" }, project.context)).toBe(2);
    const result = await callTool(WriteTool, { file_path: file, content: "x" }, project.context);
    expect(result.is_error).toBe(true);
    expect(await readFile(file, "utf8")).toBe("precious\n");
  });

  it("refuses a file modified since it was read (code 3), leaving it untouched", async () => {
    const file = path.join(project.dir, "a.txt");
    await writeFile(file, "v1\n");
    await callText(ReadTool, { file_path: file }, project.context);
    await writeFile(file, "v2 by someone else\n");
    const later = new Date(Date.now() + 10_000);
    await utimes(file, later, later);
    expect(await validationCode(WriteTool, { file_path: file, content: "mine" }, project.context)).toBe(3);
    await callTool(WriteTool, { file_path: file, content: "mine" }, project.context);
    expect(await readFile(file, "utf8")).toBe("v2 by someone else\n");
  });

  it("overwrites a read file, shows a diff and keeps the file's UTF-16 encoding", async () => {
    const file = path.join(project.dir, "wide.txt");
    await writeFile(file, Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from("one\ntwo\n", "utf16le")]));
    await callText(ReadTool, { file_path: file }, project.context);
    const text = await callText(WriteTool, { file_path: file, content: "one\nthree\n" }, project.context);
    expect(text).toContain("-two");
    expect(text).toContain("+three");
    const bytes = await readFile(file);
    expect([...bytes.subarray(0, 2)]).toEqual([0xff, 0xfe]);
    expect(bytes.subarray(2).toString("utf16le")).toBe("one\nthree\n");
  });

  it("writes line endings as LF and leaves no temp file", async () => {
    const file = path.join(project.dir, "a.txt");
    await callText(WriteTool, { file_path: file, content: "x\r\ny\n" }, project.context);
    expect(await readFile(file, "utf8")).toBe("x\ny\n");
    expect((await readdir(project.dir)).filter((f) => f.includes(".tmp"))).toEqual([]);
  });

  it("keeps the permissions of the file it replaces", async () => {
    const file = path.join(project.dir, "tool.sh");
    await writeFile(file, "#!/bin/sh\n", { mode: 0o750 });
    await callText(ReadTool, { file_path: file }, project.context);
    await callText(WriteTool, { file_path: file, content: "#!/bin/sh\necho hi\n" }, project.context);
    expect((await stat(file)).mode & 0o777).toBe(0o750);
  });

  it("writes through a symlink to its target, keeping the link", async () => {
    const { lstat, readlink, symlink } = await import("node:fs/promises");
    const target = path.join(project.dir, "real.txt");
    const link = path.join(project.dir, "link.txt");
    await writeFile(target, "old\n");
    await symlink(target, link);
    await callText(ReadTool, { file_path: link }, project.context);
    await callText(WriteTool, { file_path: link, content: "new\n" }, project.context);
    expect((await lstat(link)).isSymbolicLink()).toBe(true);
    expect(await readlink(link)).toBe(target);
    expect(await readFile(target, "utf8")).toBe("new\n");
  });

  it("is a writing, serial tool", () => {
    expect(WriteTool.isReadOnly({ file_path: "/a", content: "" })).toBe(false);
    expect(WriteTool.isConcurrencySafe({ file_path: "/a", content: "" })).toBe(false);
  });
});

describe("atomic write under kill -9", () => {
  it("leaves either the old or the new content, never a mix, across many kills", async () => {
    const size = 8 * 1024 * 1024;
    const file = path.join(project.dir, "big.bin");
    await writeFile(file, Buffer.alloc(size, "a"));
    const writer = builtFixture("tools/fixtures/atomic-writer.ts");
    const runs = 25;
    let killedMidLoop = 0;
    for (let run = 0; run < runs; run++) {
      const child = spawn(process.execPath, [writer, file, String(size)], {
        stdio: ["ignore", "pipe", "inherit"],
      });
      // Let 0, 1 or 2 writes finish first, so that the kills fall both before and after whole
      // writes however slow the machine is, then kill at a random moment within the next ones.
      const writesFirst = run % 3;
      let wrote = 0;
      await new Promise<void>((resolve, reject) => {
        child.stdout.on("data", (chunk: Buffer) => {
          wrote += chunk.toString().split("wrote").length - 1;
          if (chunk.includes("ready") && writesFirst === 0) resolve();
          if (wrote >= writesFirst && writesFirst > 0) resolve();
        });
        child.once("error", reject);
      });
      await new Promise((r) => setTimeout(r, Math.floor(Math.random() * 60)));
      child.kill("SIGKILL");
      await new Promise((r) => child.once("exit", r));
      if (wrote > 0 && child.signalCode === "SIGKILL") killedMidLoop++;
      const bytes = await readFile(file);
      expect(bytes.length).toBe(size);
      const first = bytes[0]!;
      expect(first === 0x61 || first === 0x62).toBe(true);
      // Every byte is the same letter: the whole old or the whole new content.
      expect(bytes.indexOf(first === 0x61 ? 0x62 : 0x61)).toBe(-1);
    }
    // The writer was killed inside its loop of whole writes, not before it began or after it died.
    expect(killedMidLoop).toBeGreaterThan(0);
  }, 120_000);
});
