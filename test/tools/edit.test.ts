import { readFile, stat, truncate, utimes, writeFile } from "node:fs/promises";
import * as path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { listFileChanges } from "../../src/session/file-history.js";
import { EditErrorCode, EditTool } from "../../src/tools/edit/tool.js";
import { ReadTool } from "../../src/tools/read/tool.js";
import { callText, callTool, makeProject, type TestProject, validationCode, validationMessage } from "./helpers.js";

let project: TestProject;
beforeEach(async () => {
  project = await makeProject();
});
afterEach(async () => {
  await project.cleanup();
});

async function readAndGet(file: string, content: string | Buffer): Promise<void> {
  await writeFile(file, content);
  await callText(ReadTool, { file_path: file }, project.context);
}

/** Moves a file's mtime forward, as any later write would. */
async function bumpMtime(file: string): Promise<void> {
  const later = new Date(Date.now() + 10_000);
  await utimes(file, later, later);
}

describe("Edit: error codes", () => {
  it("1: old_string equal to new_string is a no-op", async () => {
    const file = path.join(project.dir, "a.txt");
    await readAndGet(file, "x\n");
    expect(await validationCode(EditTool, { file_path: file, old_string: "x", new_string: "x" }, project.context)).toBe(
      EditErrorCode.noOp,
    );
  });

  it("2: a path the permission rules deny", async () => {
    const denied = await makeProject([]);
    try {
      const file = path.join(denied.dir, "secret.txt");
      denied.context.getAppState().toolPermissionContext.rules.deny.push({
        source: "session",
        behavior: "deny",
        value: { toolName: "Edit", ruleContent: `/${file}` },
      });
      await writeFile(file, "key=1\n");
      await callText(ReadTool, { file_path: file }, denied.context);
      const input = { file_path: file, old_string: "key=1", new_string: "key=2" };
      expect(await validationCode(EditTool, input, denied.context)).toBe(EditErrorCode.pathDenied);
      const result = await callTool(EditTool, input, denied.context);
      expect(result.is_error).toBe(true);
      expect(await readFile(file, "utf8")).toBe("key=1\n");
    } finally {
      await denied.cleanup();
    }
  });

  it("3: empty old_string on a file that has content", async () => {
    const file = path.join(project.dir, "a.txt");
    await readAndGet(file, "content\n");
    expect(
      await validationCode(EditTool, { file_path: file, old_string: "", new_string: "new" }, project.context),
    ).toBe(EditErrorCode.fileExists);
  });

  it("4: missing file, with suggestions", async () => {
    await writeFile(path.join(project.dir, "handler.ts"), "");
    const input = { file_path: path.join(project.dir, "handler.js"), old_string: "a", new_string: "b" };
    expect(await validationCode(EditTool, input, project.context)).toBe(EditErrorCode.fileMissing);
    expect(await validationMessage(EditTool, input, project.context)).toContain(path.join(project.dir, "handler.ts"));
  });

  it("5: a notebook must go through NotebookEdit", async () => {
    const file = path.join(project.dir, "nb.ipynb");
    await writeFile(file, JSON.stringify({ cells: [], metadata: {}, nbformat: 4, nbformat_minor: 5 }));
    const message = await validationMessage(
      EditTool,
      { file_path: file, old_string: "cells", new_string: "x" },
      project.context,
    );
    expect(
      await validationCode(EditTool, { file_path: file, old_string: "cells", new_string: "x" }, project.context),
    ).toBe(EditErrorCode.notebook);
    expect(message).toMatch(/NotebookEdit/);
  });

  it("6: a file that was not read", async () => {
    const file = path.join(project.dir, "a.txt");
    await writeFile(file, "x\n");
    const input = { file_path: file, old_string: "x", new_string: "y" };
    expect(await validationCode(EditTool, input, project.context)).toBe(EditErrorCode.notRead);
    expect(await validationMessage(EditTool, input, project.context)).toMatch(/Read .* first/);
  });

  it("7: a file modified since it was read is refused and left untouched", async () => {
    const file = path.join(project.dir, "a.txt");
    await readAndGet(file, "original\n");
    await writeFile(file, "changed by the user\n");
    await bumpMtime(file);
    const input = { file_path: file, old_string: "changed", new_string: "edited" };
    expect(await validationCode(EditTool, input, project.context)).toBe(EditErrorCode.modifiedSinceRead);
    const result = await callTool(EditTool, input, project.context);
    expect(result.is_error).toBe(true);
    expect(String(result.content)).toMatch(/modified since it was last read/);
    expect(await readFile(file, "utf8")).toBe("changed by the user\n");
    expect(listFileChanges(project.sessionDir)).toHaveLength(0);
  });

  it("7: a file put back with an older mtime still counts as modified", async () => {
    const file = path.join(project.dir, "a.txt");
    await readAndGet(file, "what the model read\n");
    await writeFile(file, "restored from an old backup\n");
    const past = new Date(Date.UTC(2001, 0, 1));
    await utimes(file, past, past);
    expect(
      await validationCode(EditTool, { file_path: file, old_string: "restored", new_string: "x" }, project.context),
    ).toBe(EditErrorCode.modifiedSinceRead);
  });

  it("7: a change landing after validation is caught inside the critical section", async () => {
    const file = path.join(project.dir, "a.txt");
    await readAndGet(file, "original\n");
    const input = EditTool.inputSchema.parse({ file_path: file, old_string: "original", new_string: "edited" });
    expect((await EditTool.validateInput!(input, project.context)).result).toBe(true);
    await writeFile(file, "original, plus the user's change\n");
    await bumpMtime(file);
    await expect(EditTool.call(input, project.context, async () => ({ behavior: "allow" }), undefined)).rejects.toThrow(
      /modified since it was last read/,
    );
    expect(await readFile(file, "utf8")).toBe("original, plus the user's change\n");
  });

  it("8: old_string not found", async () => {
    const file = path.join(project.dir, "a.txt");
    await readAndGet(file, "hello\n");
    expect(
      await validationCode(EditTool, { file_path: file, old_string: "bye", new_string: "x" }, project.context),
    ).toBe(EditErrorCode.notFound);
  });

  it("9: several matches without replace_all says how many", async () => {
    const file = path.join(project.dir, "a.txt");
    await readAndGet(file, "foo\nfoo\nfoo\n");
    const input = { file_path: file, old_string: "foo", new_string: "bar" };
    expect(await validationCode(EditTool, input, project.context)).toBe(EditErrorCode.multipleMatches);
    expect(await validationMessage(EditTool, input, project.context)).toMatch(/Found 3 matches.*replace_all/s);
  });

  it("10: files over 1 GiB are refused", async () => {
    const file = path.join(project.dir, "huge.txt");
    await writeFile(file, "x\n");
    await truncate(file, 1024 * 1024 * 1024 + 1);
    expect(await validationCode(EditTool, { file_path: file, old_string: "x", new_string: "y" }, project.context)).toBe(
      EditErrorCode.tooLarge,
    );
  });

  it("resolves a relative path against the working directory", async () => {
    expect(
      await validationMessage(EditTool, { file_path: "a.txt", old_string: "a", new_string: "b" }, project.context),
    ).toContain(`File does not exist: ${path.join(project.dir, "a.txt")}`);
  });
});

describe("Edit: changes", () => {
  it("replaces one occurrence, shows a diff snippet, records history and updates readFileState", async () => {
    const file = path.join(project.dir, "a.ts");
    const body = Array.from({ length: 50 }, (_, i) => `const v${i} = ${i};`).join("\n");
    await readAndGet(file, `${body}\n`);
    const text = await callText(
      EditTool,
      { file_path: file, old_string: "const v25 = 25;", new_string: "const v25 = 2500;" },
      project.context,
    );
    expect(text).toContain("has been updated");
    expect(text).toContain("-const v25 = 25;");
    expect(text).toContain("+const v25 = 2500;");
    expect(text).toContain("@@ -23,7 +23,7 @@");
    expect(text).not.toContain("const v1 = 1;");
    expect(await readFile(file, "utf8")).toContain("const v25 = 2500;\nconst v26 = 26;");
    expect(listFileChanges(project.sessionDir).map((c) => [c.tool, c.path])).toEqual([["Edit", file]]);
    expect(project.context.readFileState.get(file)?.content).toContain("const v25 = 2500;");
    // A second edit needs no new Read: the tool knows what it wrote.
    const second = await callTool(
      EditTool,
      { file_path: file, old_string: "const v0 = 0;", new_string: "const v0 = -1;" },
      project.context,
    );
    expect(second.is_error).toBeFalsy();
  });

  it("a Read after an Edit shows the new content, not the unchanged stub", async () => {
    const file = path.join(project.dir, "a.txt");
    await readAndGet(file, "one\n");
    await callText(EditTool, { file_path: file, old_string: "one", new_string: "two" }, project.context);
    expect(await callText(ReadTool, { file_path: file }, project.context)).toBe("     1\ttwo");
  });

  it("replace_all changes every occurrence", async () => {
    const file = path.join(project.dir, "a.txt");
    await readAndGet(file, "foo bar foo\nbaz foo\n");
    const text = await callText(
      EditTool,
      { file_path: file, old_string: "foo", new_string: "qux", replace_all: true },
      project.context,
    );
    expect(text).toContain("3 replacements");
    expect(await readFile(file, "utf8")).toBe("qux bar qux\nbaz qux\n");
  });

  it("deleting a whole line removes its newline too", async () => {
    const file = path.join(project.dir, "a.txt");
    await readAndGet(file, "keep\ndrop me\nkeep too\n");
    await callText(EditTool, { file_path: file, old_string: "drop me", new_string: "" }, project.context);
    expect(await readFile(file, "utf8")).toBe("keep\nkeep too\n");
  });

  it("matches straight quotes against curly ones and keeps the file's curly style", async () => {
    const file = path.join(project.dir, "prose.md");
    await readAndGet(file, "She said \u201chello\u201d and didn\u2019t stay.\n");
    const text = await callText(
      EditTool,
      {
        file_path: file,
        old_string: `She said "hello" and didn't stay.`,
        new_string: `She said "goodbye" and didn't wait.`,
      },
      project.context,
    );
    expect(text).toContain("has been updated");
    expect(await readFile(file, "utf8")).toBe("She said \u201cgoodbye\u201d and didn\u2019t wait.\n");
  });

  it("an empty old_string on a missing file creates it (and its folders)", async () => {
    const file = path.join(project.dir, "new", "deep", "file.txt");
    const text = await callText(EditTool, { file_path: file, old_string: "", new_string: "fresh\n" }, project.context);
    expect(text).toContain("File created successfully");
    expect(await readFile(file, "utf8")).toBe("fresh\n");
    expect(listFileChanges(project.sessionDir)[0]?.before).toBeNull();
  });

  it("an empty old_string fills an existing empty file once it has been read", async () => {
    const file = path.join(project.dir, "empty.txt");
    await readAndGet(file, "");
    const result = await callTool(
      EditTool,
      { file_path: file, old_string: "", new_string: "filled\n" },
      project.context,
    );
    expect(result.is_error).toBeFalsy();
    expect(await readFile(file, "utf8")).toBe("filled\n");
  });

  it("a moved mtime with identical content is not a modification", async () => {
    const file = path.join(project.dir, "a.txt");
    await readAndGet(file, "same\n");
    await bumpMtime(file);
    const result = await callTool(
      EditTool,
      { file_path: file, old_string: "same", new_string: "new" },
      project.context,
    );
    expect(result.is_error).toBeFalsy();
    expect(await readFile(file, "utf8")).toBe("new\n");
  });

  it("round-trips a CRLF file: matches across CRLF lines and writes LF", async () => {
    const file = path.join(project.dir, "dos.txt");
    await readAndGet(file, "first\r\nsecond\r\nthird\r\n");
    await callText(
      EditTool,
      { file_path: file, old_string: "first\nsecond", new_string: "first\n2nd" },
      project.context,
    );
    expect(await readFile(file, "utf8")).toBe("first\n2nd\nthird\n");
    const again = await callText(ReadTool, { file_path: file }, project.context);
    expect(again).toBe("     1\tfirst\n     2\t2nd\n     3\tthird");
  });

  it("round-trips a UTF-16LE file, keeping its encoding and BOM", async () => {
    const file = path.join(project.dir, "wide.txt");
    await readAndGet(file, Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from("grüße\nwelt\n", "utf16le")]));
    await callText(EditTool, { file_path: file, old_string: "welt", new_string: "wörld" }, project.context);
    const bytes = await readFile(file);
    expect([...bytes.subarray(0, 2)]).toEqual([0xff, 0xfe]);
    expect(bytes.subarray(2).toString("utf16le")).toBe("grüße\nwörld\n");
  });

  it("keeps a UTF-8 BOM and the file's permissions", async () => {
    const file = path.join(project.dir, "run.sh");
    await readAndGet(file, Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from("echo hi\n")]));
    const { chmod } = await import("node:fs/promises");
    await chmod(file, 0o754);
    await callText(ReadTool, { file_path: file, offset: 1, limit: 10 }, project.context);
    await callText(EditTool, { file_path: file, old_string: "hi", new_string: "there" }, project.context);
    const bytes = await readFile(file);
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(bytes.subarray(3).toString()).toBe("echo there\n");
    expect((await stat(file)).mode & 0o777).toBe(0o754);
  });
});

describe("Edit: declared traits", () => {
  it("writes, is not concurrency-safe, and names its path", () => {
    const input = { file_path: "/p/a.txt", old_string: "a", new_string: "b", replace_all: false };
    expect(EditTool.isReadOnly(input)).toBe(false);
    expect(EditTool.isConcurrencySafe(input)).toBe(false);
    expect(EditTool.getPath!(input, "/elsewhere")).toBe("/p/a.txt");
    expect(EditTool.getPath!({ ...input, file_path: "a.txt" }, "/p")).toBe("/p/a.txt");
  });
});

describe("Edit: byte-exact splicing", () => {
  it("changes only the replaced bytes of a UTF-8 file, multi-byte text before and after included", async () => {
    const file = path.join(project.dir, "utf8.txt");
    const before = "añb €uro 😀 emoji\nmiddle TARGET here\nafter ü ß 日本\n";
    await readAndGet(file, before);
    await callText(EditTool, { file_path: file, old_string: "TARGET", new_string: "zielß" }, project.context);
    expect(await readFile(file, "utf8")).toBe(before.replace("TARGET", "zielß"));
  });

  it("leaves invalid UTF-8 elsewhere in the file for the general path to handle", async () => {
    const file = path.join(project.dir, "latin1.txt");
    const bytes = Buffer.concat([Buffer.from("caf"), Buffer.from([0xe9]), Buffer.from("\nkey=old\n")]);
    await readAndGet(file, bytes);
    await callText(EditTool, { file_path: file, old_string: "key=old", new_string: "key=new" }, project.context);
    expect((await readFile(file, "utf8")).endsWith("\nkey=new\n")).toBe(true);
  });
});

describe("Edit: concurrent calls on one file", () => {
  it("two edits racing on the same file both land: each is applied to the content on disk at its write", async () => {
    const file = path.join(project.dir, "race.txt");
    await readAndGet(file, "alpha\nbeta\ngamma\n");
    const [first, second] = await Promise.all([
      callTool(EditTool, { file_path: file, old_string: "alpha", new_string: "ALPHA" }, project.context),
      callTool(EditTool, { file_path: file, old_string: "gamma", new_string: "GAMMA" }, project.context),
    ]);
    expect(first.is_error).toBeFalsy();
    expect(second.is_error).toBeFalsy();
    expect(await readFile(file, "utf8")).toBe("ALPHA\nbeta\nGAMMA\n");
    expect(listFileChanges(project.sessionDir)).toHaveLength(2);
  });
});

describe("Edit: shortened tags", () => {
  it("expands shortened tags the model quotes back", async () => {
    const file = path.join(project.dir, "prompt.txt");
    await readAndGet(file, "<function_results>old</function_results>\n");
    await callText(
      EditTool,
      { file_path: file, old_string: "<fnr>old</fnr>", new_string: "<fnr>new</fnr>" },
      project.context,
    );
    expect(await readFile(file, "utf8")).toBe("<function_results>new</function_results>\n");
  });
});
