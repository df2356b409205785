// Where a command's words lead on disk: a recovered word resolved against the shell's directory,
// and the files a command writes as far as its words say. What may be read or written there is
// the permission engine's question (src/permissions/bash/paths.ts), not this one's.
import * as path from "node:path";
import { resolveShellPath } from "../parse/index.js";
import { commandBaseName, type Field, parseArgs } from "../words/index.js";

const DEVICE_SINKS = new Set(["/dev/null", "/dev/stdout", "/dev/stderr", "/dev/tty", "/dev/fd/1", "/dev/fd/2"]);

/** Resolves a recovered word to an absolute path, or undefined when it is not knowable from the text. */
export function resolveWordPath(word: Field, cwd: string | undefined): string | undefined {
  if (!word.literal) return undefined;
  let value = word.value;
  if (word.glob) {
    // Only the directory part before the first wildcard decides where a glob can land.
    const wildcard = value.search(/[*?[]/);
    value = value.slice(0, wildcard);
    value = value.endsWith("/") || value === "" ? value || "." : path.dirname(value);
  }
  if (path.isAbsolute(value) || value === "~" || value.startsWith("~/")) return resolveShellPath(value, "/");
  if (value.startsWith("~")) return undefined;
  if (cwd === undefined) return undefined;
  return resolveShellPath(value, cwd);
}

export function isDeviceSink(value: string): boolean {
  return DEVICE_SINKS.has(value);
}

const WRITE_ALL_OPERANDS = new Set([
  "rm",
  "rmdir",
  "touch",
  "mkdir",
  "chmod",
  "chown",
  "chgrp",
  "truncate",
  "shred",
  "unlink",
  "tee",
  "chattr",
  "setfacl",
]);

/** The files a command writes, as far as its words say (for the protected-path check). */
export function writeTargetsOf(words: Field[]): Field[] {
  const name = commandBaseName(words[0]?.value ?? "");
  const parsed = () =>
    parseArgs(words, 1, {
      shortWithValue: "tSombgu",
      longWithValue: ["target-directory", "suffix", "mode", "owner", "group", "backup"],
    });
  if (WRITE_ALL_OPERANDS.has(name)) return parseArgs(words, 1, {}).operands;
  switch (name) {
    case "cp":
    case "mv":
    case "install":
    case "ln":
    case "rsync": {
      const args = parsed();
      const target = args.options.find((o) => o.flag === "-t" || o.flag.startsWith("--target"));
      if (target && typeof target.value === "object") return [target.value];
      const last = args.operands[args.operands.length - 1];
      return last ? [last] : [];
    }
    case "sed":
      return words.slice(1).some((w) => /^-[^-]*i|^--in-place/.test(w.value))
        ? parseArgs(words, 1, { shortWithValue: "ef" }).operands.slice(1)
        : [];
    case "dd":
      return words.filter((w) => w.value.startsWith("of=")).map((w) => ({ ...w, value: w.value.slice(3) }));
    case "sort":
    case "tree":
    case "curl":
    case "wget":
    case "git":
      return outputOptionValues(words);
    case "tar":
    case "unzip":
    case "patch":
      return extractionTargets(name, words);
    default:
      return [];
  }
}

/** Where archives and patches unpack: tar -C/--directory, unzip -d, patch's file operand. */
function extractionTargets(name: string, words: Field[]): Field[] {
  const targets: Field[] = [];
  for (let i = 1; i < words.length; i += 1) {
    const text = words[i]?.value ?? "";
    const next = words[i + 1];
    if (name === "tar" && (text === "-C" || text === "--directory") && next) targets.push(next);
    else if (name === "tar" && text.startsWith("--directory="))
      targets.push({ ...(words[i] as Field), value: text.slice(12) });
    else if (name === "unzip" && text === "-d" && next) targets.push(next);
    else if (name === "patch" && (text === "-o" || text === "--output") && next) targets.push(next);
    else if (name === "patch" && !text.startsWith("-")) targets.push(words[i] as Field);
  }
  // With no -C/-d an archive unpacks into the current directory, which the caller checks.
  if (targets.length === 0 && name !== "patch")
    targets.push({ value: ".", literal: true, glob: false, quoted: false, source: "." });
  return targets;
}

function outputOptionValues(words: Field[]): Field[] {
  const targets: Field[] = [];
  for (let i = 1; i < words.length; i += 1) {
    const word = words[i] as Field;
    const text = word.value;
    const long = /^--(output|output-document|out)=(.*)$/.exec(text);
    if (long) targets.push({ ...word, value: long[2] ?? "" });
    else if ((text === "-o" || text === "-O" || text === "--output" || text === "--output-document") && words[i + 1])
      targets.push(words[i + 1] as Field);
    else if (/^-o./.test(text)) targets.push({ ...word, value: text.slice(2) });
  }
  return targets;
}
