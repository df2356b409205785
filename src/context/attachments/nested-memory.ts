// `nested_memory`: a folder below the working directory may keep its own AGENTS.md or CLAUDE.md
// (a package of a monorepo, a service with its own conventions). The system prompt holds only the
// memory files from the filesystem root down to cwd; when the model starts working in a deeper
// folder (it reads or writes a file there, or its shell moves there), that folder's files and
// those of the folders between are attached, once each. A deny rule on a memory file keeps it out,
// as it keeps Read out.
import { basename, dirname, relative, resolve, sep } from "node:path";
import { type MemoryFile, projectMemoryFilesIn } from "../../config/memory.js";
import { externalImportsDecision } from "../../config/memory-approval.js";
import { reportInstructionsLoaded } from "../../hooks/instructions-loaded.js";
import type { ToolPermissionContext } from "../../tool/permission-types.js";
import type { AttachmentItem, AttachmentSource } from "../../tool/types.js";
import { readableMemoryFiles } from "../memory-access.js";

export function nestedMemorySource(): AttachmentSource {
  /** Folders whose memory files were looked for already (each folder is looked at once). */
  const checked = new Set<string>();
  /** Folders of files already considered: most turns touch no new folder and cost a set lookup each. */
  const seenPlaces = new Set<string>();
  const attached: MemoryFile[] = [];
  return {
    kind: "nested_memory",
    async collect({ context }) {
      const state = context.getAppState();
      const roots = rootsOf(context.options.cwd, state.toolPermissionContext);
      // Each place with the file that brought the model there (InstructionsLoaded's trigger_file_path).
      const places: Array<{ place: string; trigger?: string }> = context.readFileState
        .keys()
        .map((path) => ({ place: dirname(path), trigger: path }));
      if (state.bashCwd) places.push({ place: resolve(state.bashCwd) });
      const found: MemoryFile[] = [];
      const triggers = new Map<MemoryFile, string | undefined>();
      const external = externalImportsDecision(context.options.cwd) === "approved" ? "load" : "skip";
      for (const { place, trigger } of places) {
        if (seenPlaces.has(place)) continue;
        seenPlaces.add(place);
        for (const { dir, root } of foldersToLook(place, roots)) {
          if (checked.has(dir)) continue;
          checked.add(dir);
          // What they import must be inside the working folder they are under, unless the user
          // approved this project's external imports (config/memory-boundary.ts).
          for (const file of projectMemoryFilesIn(dir, root, { externalImports: external })) {
            found.push(file);
            triggers.set(file, trigger);
          }
        }
      }
      if (found.length === 0) return undefined;
      const allowed = await readableMemoryFiles(found, state.toolPermissionContext, context.options.tools);
      attached.push(...allowed);
      for (const file of allowed) reportInstructionsLoaded(state.hooks, [file], "nested_traversal", triggers.get(file));
      return allowed.map((file): AttachmentItem => ({ text: render(file) }));
    },
    afterCompaction({ context }) {
      if (attached.length === 0) return undefined;
      reportInstructionsLoaded(context.getAppState().hooks, attached, "compact");
      return attached.map(render).join("\n\n");
    },
  };
}

interface Root {
  dir: string;
  /** cwd's own memory is in the system prompt already; an --add-dir folder's is not. */
  includeSelf: boolean;
}

function rootsOf(cwd: string, permissions: ToolPermissionContext): Root[] {
  const main = resolve(cwd);
  const roots: Root[] = [{ dir: main, includeSelf: false }];
  for (const dir of permissions.workingDirectories) {
    const absolute = resolve(dir);
    if (absolute !== main) roots.push({ dir: absolute, includeSelf: true });
  }
  return roots;
}

/** The folders from the root (or just below it) down to `place`, outermost first, each with its root; none outside every root. */
function foldersToLook(place: string, roots: readonly Root[]): Array<{ dir: string; root: string }> {
  for (const root of roots) {
    const rel = relative(root.dir, place);
    if (rel.startsWith("..") || resolve(root.dir, rel) !== place) continue;
    const folders: Array<{ dir: string; root: string }> = root.includeSelf ? [{ dir: root.dir, root: root.dir }] : [];
    let dir = root.dir;
    for (const part of rel === "" ? [] : rel.split(sep)) {
      dir = `${dir}${dir.endsWith(sep) ? "" : sep}${part}`;
      folders.push({ dir, root: root.dir });
    }
    return folders;
  }
  return [];
}

/** The folder a memory file speaks for (`.claude/CLAUDE.md` speaks for the folder holding `.claude`). */
function folderOf(file: MemoryFile): string {
  const dir = dirname(file.path);
  return basename(dir) === ".claude" ? dirname(dir) : dir;
}

function render(file: MemoryFile): string {
  const cut = file.truncated ? "\n[the file is longer; the rest was cut]" : "";
  return `Contents of ${file.path} (instructions for the folder ${folderOf(file)} and below, where you are now working; they add to the memory files in the system prompt and win where they conflict):\n\n${file.content.trimEnd()}${cut}`;
}
