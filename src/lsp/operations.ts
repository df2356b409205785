// The nine operations of the LSP tool, each one request (two for incoming and outgoing calls) to
// the file's language server, answered as text for the model: locations as path:line:column
// (1-based, paths relative to the working directory when inside it) with the line's text.
import { readFileSync } from "node:fs";
import { isAbsolute, relative } from "node:path";
import { fileURLToPath } from "node:url";
import type {
  CallHierarchyItem,
  DocumentSymbol,
  Hover,
  Location,
  LocationLink,
  MarkedString,
  Position,
  Range,
  ServerCapabilities,
  SymbolInformation,
  WorkspaceSymbol,
} from "vscode-languageserver-protocol/node";
import lsp from "vscode-languageserver-protocol/node";
import { fileUri, type LspClient } from "./client.js";
import type { LspManager } from "./manager.js";
import type { LspOperation } from "./operation-names.js";

export { LSP_OPERATIONS, type LspOperation } from "./operation-names.js";

export interface LspRequest {
  operation: LspOperation;
  /** Absolute path of the file. */
  filePath: string;
  /** 1-based. */
  line: number;
  /** 1-based, in characters as the file shows them. */
  character: number;
}

export interface LspAnswer {
  text: string;
  resultCount: number;
  fileCount: number;
}

export interface AnswerOptions {
  cwd: string;
  signal?: AbortSignal;
  /** False for a file the model may not read (a Read deny rule): its results are left out. */
  mayShow?: (path: string) => boolean;
}

/** At most this many results are listed (the count says how many there were). */
const MAX_LISTED = 200;

const SYMBOL_KINDS = [
  "",
  "File",
  "Module",
  "Namespace",
  "Package",
  "Class",
  "Method",
  "Property",
  "Field",
  "Constructor",
  "Enum",
  "Interface",
  "Function",
  "Variable",
  "Constant",
  "String",
  "Number",
  "Boolean",
  "Array",
  "Object",
  "Key",
  "Null",
  "EnumMember",
  "Struct",
  "Event",
  "Operator",
  "TypeParameter",
];

const NEEDED_CAPABILITY: Record<LspOperation, keyof ServerCapabilities> = {
  goToDefinition: "definitionProvider",
  findReferences: "referencesProvider",
  hover: "hoverProvider",
  documentSymbol: "documentSymbolProvider",
  workspaceSymbol: "workspaceSymbolProvider",
  goToImplementation: "implementationProvider",
  prepareCallHierarchy: "callHierarchyProvider",
  incomingCalls: "callHierarchyProvider",
  outgoingCalls: "callHierarchyProvider",
};

export async function answer(manager: LspManager, request: LspRequest, options: AnswerOptions): Promise<LspAnswer> {
  const client = await manager.clientFor(request.filePath);
  const capability = NEEDED_CAPABILITY[request.operation];
  if (!client.capabilities[capability]) {
    throw new Error(`The ${client.spec.name} language server does not support ${request.operation}`);
  }
  await client.sync(request.filePath);
  const text = client.openText(request.filePath) ?? "";
  const position = toPosition(text, request.line, request.character);
  const textDocument = { uri: fileUri(request.filePath) };
  const out = new AnswerWriter(options);
  const signal = options.signal;
  switch (request.operation) {
    case "goToDefinition": {
      const found = await client.request(lsp.DefinitionRequest.type, { textDocument, position }, signal);
      return out.locations(toLocations(found), "definition");
    }
    case "goToImplementation": {
      const found = toLocations(
        await client.request(lsp.ImplementationRequest.type, { textDocument, position }, signal),
      );
      return out.locations(
        found.length > 0 ? found : await implementationsAtDefinition(client, textDocument, position, signal),
        "implementation",
      );
    }
    case "findReferences": {
      const found = await client.request(
        lsp.ReferencesRequest.type,
        { textDocument, position, context: { includeDeclaration: true } },
        signal,
      );
      return out.locations(found ?? [], "reference");
    }
    case "hover": {
      const found = await client.request(lsp.HoverRequest.type, { textDocument, position }, signal);
      return out.hover(found, request);
    }
    case "documentSymbol": {
      const found = await client.request(lsp.DocumentSymbolRequest.type, { textDocument }, signal);
      return out.documentSymbols(found ?? [], request.filePath);
    }
    case "workspaceSymbol": {
      const query = wordAt(text, position);
      const found = await client.request(lsp.WorkspaceSymbolRequest.type, { query }, signal);
      return out.workspaceSymbols(found ?? [], query);
    }
    case "prepareCallHierarchy": {
      const items = await prepare(client, textDocument, position, signal);
      return out.callItems(items);
    }
    case "incomingCalls":
    case "outgoingCalls": {
      const items = await prepare(client, textDocument, position, signal);
      if (items.length === 0)
        return out.none("No callable symbol at this position (prepareCallHierarchy found nothing)");
      const lines: Array<{ item: CallHierarchyItem; ranges: Range[]; uri: string }> = [];
      for (const item of items) {
        if (request.operation === "incomingCalls") {
          const calls = await client.request(lsp.CallHierarchyIncomingCallsRequest.type, { item }, signal);
          for (const call of calls ?? []) lines.push({ item: call.from, ranges: call.fromRanges, uri: call.from.uri });
        } else {
          const calls = await client.request(lsp.CallHierarchyOutgoingCallsRequest.type, { item }, signal);
          // fromRanges of an outgoing call are in the caller's file.
          for (const call of calls ?? []) lines.push({ item: call.to, ranges: call.fromRanges, uri: item.uri });
        }
      }
      return out.calls(lines, request.operation === "incomingCalls" ? "incoming" : "outgoing", items[0]?.name ?? "");
    }
  }
}

async function prepare(
  client: LspClient,
  textDocument: { uri: string },
  position: Position,
  signal: AbortSignal | undefined,
): Promise<CallHierarchyItem[]> {
  return (await client.request(lsp.CallHierarchyPrepareRequest.type, { textDocument, position }, signal)) ?? [];
}

/**
 * Implementations asked for where the name at the position is declared. A server answers
 * goToImplementation on the declaration of an interface, but on a name that only refers to it
 * through an alias (a type re-exported under another name, `export type { Shape as Figure }`)
 * tsserver finds none, where the model wants the classes. Asked only when the position itself
 * gave nothing and its definition lies elsewhere.
 */
async function implementationsAtDefinition(
  client: LspClient,
  textDocument: { uri: string },
  position: Position,
  signal: AbortSignal | undefined,
): Promise<Location[]> {
  const definitions = toLocations(
    await client.request(lsp.DefinitionRequest.type, { textDocument, position }, signal),
  ).filter((definition) => !(definition.uri === textDocument.uri && contains(definition.range, position)));
  const found = new Map<string, Location>();
  for (const definition of definitions) {
    const path = uriPath(definition.uri);
    if (!isAbsolute(path)) continue;
    // The server may not have the file open; it is read from disk like the asked one.
    if (
      !(await client.sync(path).then(
        () => true,
        () => false,
      ))
    )
      continue;
    const at = await client.request(
      lsp.ImplementationRequest.type,
      { textDocument: { uri: definition.uri }, position: definition.range.start },
      signal,
    );
    for (const location of toLocations(at)) {
      found.set(`${location.uri}:${location.range.start.line}:${location.range.start.character}`, location);
    }
  }
  return [...found.values()];
}

function contains(range: Range, position: Position): boolean {
  const after =
    position.line > range.start.line ||
    (position.line === range.start.line && position.character >= range.start.character);
  const before =
    position.line < range.end.line || (position.line === range.end.line && position.character <= range.end.character);
  return after && before;
}

/** 1-based line and character (as the model counts them) → the LSP's 0-based line and UTF-16 offset. */
export function toPosition(text: string, line: number, character: number): Position {
  const lines = text.split("\n");
  const lineText = lines[line - 1] ?? "";
  const before = Array.from(lineText)
    .slice(0, Math.max(0, character - 1))
    .join("");
  return { line: line - 1, character: before.length };
}

/** The identifier under the position, for workspaceSymbol's query. */
function wordAt(text: string, position: Position): string {
  const lineText = text.split("\n")[position.line] ?? "";
  const isWord = (ch: string | undefined) => ch !== undefined && /[\p{L}\p{N}_$]/u.test(ch);
  let start = position.character;
  let end = position.character;
  while (start > 0 && isWord(lineText[start - 1])) start--;
  while (end < lineText.length && isWord(lineText[end])) end++;
  return lineText.slice(start, end);
}

function toLocations(found: Location | Location[] | LocationLink[] | null | undefined): Location[] {
  if (!found) return [];
  const list = Array.isArray(found) ? found : [found];
  return list.map((entry) =>
    "targetUri" in entry ? { uri: entry.targetUri, range: entry.targetSelectionRange ?? entry.targetRange } : entry,
  );
}

function uriPath(uri: string): string {
  return uri.startsWith("file:") ? fileURLToPath(uri) : uri;
}

function kindName(kind: number): string {
  return SYMBOL_KINDS[kind] ?? "Symbol";
}

/** Builds the texts, leaving out what the model may not read and keeping a file's lines at hand. */
class AnswerWriter {
  private readonly fileLines = new Map<string, string[] | undefined>();

  constructor(private readonly options: AnswerOptions) {}

  private shown(uri: string): boolean {
    const path = uriPath(uri);
    return !isAbsolute(path) || (this.options.mayShow?.(path) ?? true);
  }

  private display(uri: string): string {
    const path = uriPath(uri);
    if (!isAbsolute(path)) return path;
    const rel = relative(this.options.cwd, path);
    return rel && !rel.startsWith("..") && !isAbsolute(rel) ? rel : path;
  }

  private where(uri: string, position: Position): string {
    return `${this.display(uri)}:${position.line + 1}:${position.character + 1}`;
  }

  private lineText(uri: string, line: number): string | undefined {
    const path = uriPath(uri);
    if (!this.fileLines.has(path)) {
      try {
        this.fileLines.set(path, readFileSync(path, "utf8").split("\n"));
      } catch {
        this.fileLines.set(path, undefined);
      }
    }
    const text = this.fileLines.get(path)?.[line]?.trim();
    return text ? (text.length > 160 ? `${text.slice(0, 160)}…` : text) : undefined;
  }

  private withheld(count: number): string {
    return count > 0 ? `\n(${count} result${count === 1 ? "" : "s"} in files you may not read left out)` : "";
  }

  none(text: string): LspAnswer {
    return { text, resultCount: 0, fileCount: 0 };
  }

  locations(all: Location[], what: string): LspAnswer {
    const locations = all.filter((location) => this.shown(location.uri));
    const hidden = all.length - locations.length;
    if (locations.length === 0) return this.none(`No ${what} found${this.withheld(hidden)}`);
    const files = new Set(locations.map((location) => location.uri));
    const lines = locations.slice(0, MAX_LISTED).map((location) => {
      const text = this.lineText(location.uri, location.range.start.line);
      return `${this.where(location.uri, location.range.start)}${text ? `: ${text}` : ""}`;
    });
    const more = locations.length > MAX_LISTED ? `\n… and ${locations.length - MAX_LISTED} more` : "";
    const head =
      locations.length === 1
        ? `Found 1 ${what}:`
        : `Found ${locations.length} ${what}s in ${files.size} file${files.size === 1 ? "" : "s"}:`;
    return {
      text: `${head}\n${lines.join("\n")}${more}${this.withheld(hidden)}`,
      resultCount: locations.length,
      fileCount: files.size,
    };
  }

  hover(found: Hover | null, request: LspRequest): LspAnswer {
    const text = found ? hoverText(found.contents).trim() : "";
    if (!text) return this.none(`No hover information at ${request.line}:${request.character}`);
    return { text, resultCount: 1, fileCount: 1 };
  }

  documentSymbols(found: DocumentSymbol[] | SymbolInformation[], filePath: string): LspAnswer {
    if (found.length === 0) return this.none(`No symbols in ${this.display(fileUri(filePath))}`);
    const lines: string[] = [];
    let count = 0;
    const walk = (symbols: DocumentSymbol[], depth: number) => {
      for (const symbol of symbols) {
        count++;
        if (lines.length < MAX_LISTED * 2) {
          const detail = symbol.detail ? ` ${symbol.detail}` : "";
          lines.push(
            `${"  ".repeat(depth)}${symbol.name} (${kindName(symbol.kind)})${detail} - line ${symbol.selectionRange.start.line + 1}`,
          );
        }
        if (symbol.children) walk(symbol.children, depth + 1);
      }
    };
    if ("location" in found[0]!) {
      for (const symbol of found as SymbolInformation[]) {
        count++;
        const container = symbol.containerName ? ` in ${symbol.containerName}` : "";
        lines.push(
          `${symbol.name} (${kindName(symbol.kind)})${container} - line ${symbol.location.range.start.line + 1}`,
        );
      }
    } else {
      walk(found as DocumentSymbol[], 0);
    }
    return {
      text: `Symbols in ${this.display(fileUri(filePath))}:\n${lines.join("\n")}`,
      resultCount: count,
      fileCount: 1,
    };
  }

  workspaceSymbols(all: SymbolInformation[] | WorkspaceSymbol[], query: string): LspAnswer {
    const symbols = all.filter((symbol) => this.shown(symbol.location.uri));
    const hidden = all.length - symbols.length;
    const label = query ? `matching "${query}"` : "in the workspace";
    if (symbols.length === 0) return this.none(`No symbols ${label}${this.withheld(hidden)}`);
    const files = new Set(symbols.map((symbol) => symbol.location.uri));
    const lines = symbols.slice(0, MAX_LISTED).map((symbol) => {
      const container = symbol.containerName ? ` in ${symbol.containerName}` : "";
      const where =
        "range" in symbol.location
          ? this.where(symbol.location.uri, symbol.location.range.start)
          : this.display(symbol.location.uri);
      return `${symbol.name} (${kindName(symbol.kind)})${container} - ${where}`;
    });
    const more = symbols.length > MAX_LISTED ? `\n… and ${symbols.length - MAX_LISTED} more` : "";
    return {
      text: `Found ${symbols.length} symbol${symbols.length === 1 ? "" : "s"} ${label}:\n${lines.join("\n")}${more}${this.withheld(hidden)}`,
      resultCount: symbols.length,
      fileCount: files.size,
    };
  }

  callItems(items: CallHierarchyItem[]): LspAnswer {
    const shown = items.filter((item) => this.shown(item.uri));
    if (shown.length === 0) return this.none(`No callable symbol at this position${this.withheld(items.length)}`);
    const lines = shown.map((item) => this.itemLine(item));
    return {
      text: `Call hierarchy item${shown.length === 1 ? "" : "s"}:\n${lines.join("\n")}`,
      resultCount: shown.length,
      fileCount: new Set(shown.map((item) => item.uri)).size,
    };
  }

  private itemLine(item: CallHierarchyItem): string {
    const detail = item.detail ? ` ${item.detail}` : "";
    return `${item.name} (${kindName(item.kind)})${detail} - ${this.where(item.uri, item.selectionRange.start)}`;
  }

  calls(
    all: Array<{ item: CallHierarchyItem; ranges: Range[]; uri: string }>,
    direction: string,
    name: string,
  ): LspAnswer {
    const calls = all.filter((call) => this.shown(call.item.uri) && this.shown(call.uri));
    const hidden = all.length - calls.length;
    const what = direction === "incoming" ? `callers of ${name}` : `calls made by ${name}`;
    if (calls.length === 0) return this.none(`No ${what} found${this.withheld(hidden)}`);
    const lines = calls.slice(0, MAX_LISTED).map((call) => {
      const at = call.ranges.map((range) => `${range.start.line + 1}:${range.start.character + 1}`).join(", ");
      return `${this.itemLine(call.item)}${at ? ` (called at ${this.display(call.uri)}:${at})` : ""}`;
    });
    const more = calls.length > MAX_LISTED ? `\n… and ${calls.length - MAX_LISTED} more` : "";
    return {
      text: `Found ${calls.length} ${calls.length === 1 ? what.replace("callers", "caller") : what}:\n${lines.join("\n")}${more}${this.withheld(hidden)}`,
      resultCount: calls.length,
      fileCount: new Set(calls.map((call) => call.item.uri)).size,
    };
  }
}

function hoverText(contents: Hover["contents"]): string {
  const one = (part: MarkedString | { kind: string; value: string }): string =>
    typeof part === "string" ? part : "language" in part ? `\`\`\`${part.language}\n${part.value}\n\`\`\`` : part.value;
  return Array.isArray(contents) ? contents.map(one).join("\n\n") : one(contents);
}
