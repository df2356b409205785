// Walks a bash syntax tree into the simple commands bash will run, in order, with the words each
// one really receives, its redirections, and the directory it runs in (a `cd` moves the later
// ones; subshells, pipeline stages and substitutions keep theirs to themselves, as in bash).
import type { Node, Tree } from "web-tree-sitter";
import { assignmentValueField, type Field, fieldsOfNodes, type WordContext, type WordPiece } from "../words/index.js";
import { nextDirectory } from "./directory-change.js";

export type CommandOrigin = "top" | "substitution" | "function" | "nested-shell";

export interface Assignment {
  name: string;
  value: Field;
  source: string;
}

export interface Redirect {
  /** `>`, `>>`, `<`, `&>`, `>&`, `>|`, `<<`, `<<<` ... */
  operator: string;
  fd: string | undefined;
  /** The recovered target word; undefined for heredocs. */
  target: Field | undefined;
  /** Directory relative targets resolve against; undefined when a `cd` made it unknowable. */
  cwd: string | undefined;
}

export interface SimpleCommand {
  kind: "command" | "declaration" | "test" | "assignment";
  assignments: Assignment[];
  /** argv as bash passes it, command name first (empty for a bare assignment). */
  words: Field[];
  redirects: Redirect[];
  cwd: string | undefined;
  origin: CommandOrigin;
  /** Inside a tree region the grammar could not parse. */
  inError: boolean;
  source: string;
  /** Offset of the command in the parsed script (UTF-16 units), for "which line" questions. */
  startIndex: number;
  /** The pipeline stage whose output this command reads, when it reads one. */
  stdinFrom?: SimpleCommand;
  /** What a heredoc or here-string hands it on standard input, as written. */
  stdinText?: string;
}

export interface Heredoc {
  /** True for `<<'EOF'`: the body is literal text; false bodies are expanded by bash. */
  literal: boolean;
  body: string;
}

export interface ScriptStructure {
  commands: SimpleCommand[];
  /** Every redirection, including those on compound commands and bare `exec 3>file`. */
  redirects: Redirect[];
  heredocs: Heredoc[];
  functionNames: Set<string>;
  hasError: boolean;
}

interface WalkState {
  cwd: string | undefined;
  origin: CommandOrigin;
  inError: boolean;
}

const SUBSTITUTIONS = new Set(["command_substitution", "process_substitution"]);
/** Statements the grammar may leave as children of a simple command (see visitCommand). */
const STATEMENTS_INSIDE_COMMAND = new Set([
  "subshell",
  "compound_statement",
  "if_statement",
  "while_statement",
  "for_statement",
  "c_style_for_statement",
  "case_statement",
  "function_definition",
  "pipeline",
  "list",
  "negated_command",
  "redirected_statement",
]);
const WORDISH = new Set([
  "word",
  "string",
  "raw_string",
  "ansi_c_string",
  "translated_string",
  "concatenation",
  "simple_expansion",
  "expansion",
  "number",
  "command_substitution",
  "process_substitution",
  "arithmetic_expansion",
  "brace_expression",
  "test_operator",
  "regex",
  "extglob_pattern",
]);

export function splitScript(tree: Tree, cwd: string, context: WordContext): ScriptStructure {
  const structure: ScriptStructure = {
    commands: [],
    redirects: [],
    heredocs: [],
    functionNames: new Set(),
    hasError: tree.rootNode.hasError,
  };
  // The root node starts at the first token, so its text lacks leading blanks while every node's
  // index counts them: without the padding, `  rm -rf x` was read as `rm -rfx` (and slipped past a
  // deny of `rm -rf`).
  const walker = new Walker(structure, context, " ".repeat(tree.rootNode.startIndex) + tree.rootNode.text);
  walker.visit(tree.rootNode, { cwd, origin: "top", inError: false });
  return structure;
}

class Walker {
  constructor(
    private readonly out: ScriptStructure,
    private readonly context: WordContext,
    private readonly script: string,
  ) {}

  visit(node: Node, state: WalkState): void {
    switch (node.type) {
      case "command":
        this.visitCommand(node, state);
        return;
      case "declaration_command":
      case "unset_command":
        this.visitDeclaration(node, state);
        return;
      case "test_command":
        this.visitTest(node, state);
        return;
      case "variable_assignment":
        this.visitBareAssignments([node], state);
        return;
      case "variable_assignments":
        this.visitBareAssignments(
          this.named(node).filter((c) => c.type === "variable_assignment"),
          state,
        );
        return;
      case "redirected_statement":
        this.visitRedirected(node, state);
        return;
      case "pipeline": {
        let previousStageEnd: SimpleCommand | undefined;
        for (const child of this.named(node)) {
          const before = this.out.commands.length;
          this.visit(child, { ...state });
          const stage = this.out.commands.slice(before).filter((c) => c.origin === state.origin);
          if (stage[0] && previousStageEnd) stage[0].stdinFrom = previousStageEnd;
          previousStageEnd = stage[stage.length - 1] ?? previousStageEnd;
        }
        return;
      }
      case "subshell":
      case "command_substitution":
      case "process_substitution":
        this.visitChildren(node, { ...state, origin: node.type === "subshell" ? state.origin : "substitution" });
        return;
      case "function_definition":
        this.visitFunction(node, state);
        return;
      case "heredoc_redirect":
        for (const redirect of this.visitHeredoc(node, state).redirects) {
          this.visitNestedSubstitutions(redirect, state);
          this.out.redirects.push(...this.redirectsOf(redirect, state));
        }
        return;
      case "ERROR":
        this.out.hasError = true;
        this.visitChildren(node, { ...state, inError: true });
        return;
      default:
        // The grammar takes `;;` as a plain terminator anywhere (`echo a ;;`, `ls ;; cat x`), but
        // bash accepts it only to end a case item and rejects the whole line otherwise.
        if (node.isMissing || (node.type === ";;" && node.parent?.type !== "case_item")) this.out.hasError = true;
        this.visitChildren(node, state);
    }
  }

  private named(node: Node): Node[] {
    return node.namedChildren.filter((c): c is Node => c !== null);
  }

  private visitChildren(node: Node, state: WalkState): void {
    for (const child of node.children) if (child) this.visit(child, state);
  }

  /** Substitutions inside a command's words run before it, each in its own subshell. */
  private visitNestedSubstitutions(node: Node, state: WalkState): void {
    if (!/\$\(|`|[<>]\(/.test(node.text) && !(this.out.hasError && node.hasError)) return;
    for (const child of node.children) {
      if (!child) continue;
      const type = child.type;
      if (SUBSTITUTIONS.has(type)) this.visit(child, { ...state, origin: "substitution" });
      else if (type === "ERROR") this.visit(child, state);
      else this.visitNestedSubstitutions(child, state);
    }
  }

  private visitCommand(node: Node, state: WalkState): void {
    this.visitNestedSubstitutions(node, state);
    const assignments: Assignment[] = [];
    const wordGroups: WordPiece[][] = [];
    const redirects: Redirect[] = [];
    let stdinText: string | undefined;
    let previous: Node | undefined;
    // The grammar can leave escaped characters outside every node (`b""\ {c,a}`, a trailing
    // `x\ `): they belong to the word they touch, as bash reads them.
    const textAfterPrevious = (until: number): { escapes: string; rest: string } => {
      if (!previous) return { escapes: "", rest: " " };
      const gap = this.script.slice(previous.endIndex, until);
      const escapes = /^(?:\\[^\n])*/.exec(gap)?.[0] ?? "";
      return { escapes, rest: gap.slice(escapes.length) };
    };
    const closeWord = (until: number) => {
      const { escapes } = textAfterPrevious(until);
      if (escapes !== "") wordGroups[wordGroups.length - 1]?.push(escapes);
      previous = undefined;
    };
    for (const child of node.children) {
      if (!child) continue;
      const type = child.type;
      if (STATEMENTS_INSIDE_COMMAND.has(type)) {
        // The grammar reads `echo (rm x)` and `time (rm x)` as a command with a subshell among its
        // words. Bash rejects the first and runs the second's subshell: the commands inside are
        // seen (deny rules meet them), and the line counts as not understood, so nothing allows it.
        this.out.hasError = true;
        this.visit(child, state);
        continue;
      }
      if (
        type === "variable_assignment" ||
        type === "file_redirect" ||
        type === "herestring_redirect" ||
        type === "heredoc_redirect"
      ) {
        closeWord(child.startIndex);
        if (type === "variable_assignment") {
          const assignment = this.assignmentOf(child);
          if (assignment) assignments.push(assignment);
        } else if (type === "heredoc_redirect") {
          const heredoc = this.visitHeredoc(child, state);
          stdinText = heredoc.body;
          for (const redirect of heredoc.redirects) redirects.push(...this.redirectsOf(redirect, state));
        } else {
          const added = this.redirectsOf(child, state);
          redirects.push(...added);
          const hereString = added.find((r) => r.operator === "<<<")?.target;
          if (hereString?.literal) stdinText = `${hereString.value}\n`;
        }
        continue;
      }
      const parts = type === "command_name" ? this.named(child) : [child];
      for (const part of parts) {
        const partType = part === child ? type : part.type;
        if (!WORDISH.has(partType) && partType !== "$") continue;
        // Adjacent nodes with no blank between them are one word to bash.
        const { escapes, rest } = textAfterPrevious(part.startIndex);
        const group = previous ? wordGroups[wordGroups.length - 1] : undefined;
        if (group && escapes !== "") group.push(escapes);
        if (group && rest === "") group.push(part);
        else wordGroups.push([part]);
        previous = part;
      }
    }
    // Escapes right after the command's last node (`... b\ `) may fall outside it.
    const trailing = /^(?:\\[^\n])*/.exec(this.script.slice(node.endIndex))?.[0] ?? "";
    closeWord(node.endIndex + trailing.length);
    const words = wordGroups.flatMap((group) => fieldsOfNodes(group, this.context));
    this.record({ kind: "command", assignments, words, redirects, node, state });
    const recorded = this.out.commands[this.out.commands.length - 1];
    if (recorded && stdinText !== undefined) recorded.stdinText = stdinText;
  }

  private visitDeclaration(node: Node, state: WalkState): void {
    this.visitNestedSubstitutions(node, state);
    const keyword = node.children[0]?.text ?? node.type;
    const words: Field[] = [{ value: keyword, literal: true, glob: false, quoted: false, source: keyword }];
    for (const child of this.named(node)) {
      if (child.type === "variable_assignment") {
        const source = child.text;
        words.push(assignmentValueField([child], this.context));
        (words[words.length - 1] as Field).source = source;
      } else if (WORDISH.has(child.type) || child.type === "variable_name") {
        words.push(...fieldsOfNodes([child], this.context));
      }
    }
    this.record({ kind: "declaration", assignments: [], words, redirects: [], node, state });
  }

  private visitTest(node: Node, state: WalkState): void {
    this.visitNestedSubstitutions(node, state);
    const opener = node.children[0]?.text === "[[" ? "[[" : "[";
    const words: Field[] = [{ value: opener, literal: true, glob: false, quoted: false, source: opener }];
    const collect = (current: Node) => {
      for (const child of this.named(current)) {
        if (WORDISH.has(child.type)) words.push(...fieldsOfNodes([child], this.context));
        else collect(child);
      }
    };
    collect(node);
    this.record({ kind: "test", assignments: [], words, redirects: [], node, state });
  }

  private visitBareAssignments(nodes: Node[], state: WalkState): void {
    const assignments: Assignment[] = [];
    for (const node of nodes) {
      this.visitNestedSubstitutions(node, state);
      const assignment = this.assignmentOf(node);
      if (assignment) assignments.push(assignment);
    }
    const first = nodes[0];
    if (!first) return;
    this.record({ kind: "assignment", assignments, words: [], redirects: [], node: first, state });
  }

  private visitRedirected(node: Node, state: WalkState): void {
    const redirectNodes: Node[] = [];
    const body: Node[] = [];
    const heredocNodes: Node[] = [];
    let heredocBody: string | undefined;
    for (const child of node.children) {
      if (!child) continue;
      if (child.type === "file_redirect" || child.type === "herestring_redirect") redirectNodes.push(child);
      else if (child.type === "heredoc_redirect") heredocNodes.push(child);
      else body.push(child);
    }
    const startCwd = state.cwd;
    const before = this.out.commands.length;
    for (const child of body) this.visit(child, state);
    // The grammar puts `| sh` of `cat <<EOF | sh` inside the heredoc: it runs after the body's
    // command and reads its output.
    const bodyEnd = this.out.commands[this.out.commands.length - 1];
    const bodyRecorded = this.out.commands.length > before;
    for (const heredoc of heredocNodes) {
      const visited = this.visitHeredoc(heredoc, state, bodyRecorded ? bodyEnd : undefined);
      heredocBody = visited.body;
      redirectNodes.push(...visited.redirects);
    }
    // The grammar hangs `a && b > f` and `a | b > f` on the whole list or pipeline; bash gives
    // the redirection to the last command, which also decides the directory it resolves in.
    const trailing = body.length === 1 && ["command", "list", "pipeline"].includes(body[0]?.type ?? "");
    // The body's own last command: what a heredoc's `| sh` adds after it reads the output instead.
    const owner = trailing && bodyRecorded ? bodyEnd : undefined;
    const redirectState = { ...state, cwd: owner ? owner.cwd : startCwd };
    for (const child of redirectNodes) {
      this.visitNestedSubstitutions(child, redirectState);
      const redirects = this.redirectsOf(child, redirectState);
      owner?.redirects.push(...redirects);
      this.out.redirects.push(...redirects);
      const hereString = redirects.find((r) => r.operator === "<<<")?.target;
      if (owner && hereString?.literal) owner.stdinText = `${hereString.value}\n`;
    }
    // A heredoc feeds the first command of the statement (`cat <<EOF | sh` feeds cat).
    const first = this.out.commands[before];
    if (heredocBody !== undefined && first && !first.stdinText) first.stdinText = heredocBody;
  }

  /**
   * A heredoc's body, and the redirections written after its operator on the same line: the
   * grammar hangs `> out` of `cat <<EOF > out` inside the heredoc node, but bash gives it to the
   * command like any other (the caller records them as the command's).
   */
  private visitHeredoc(node: Node, state: WalkState, pipedFrom?: SimpleCommand): { body: string; redirects: Node[] } {
    const start = node.children.find((c) => c?.type === "heredoc_start");
    const bodyNode = node.children.find((c) => c?.type === "heredoc_body");
    const literal = start ? /['"\\]/.test(start.text) : false;
    const body = bodyNode?.text ?? "";
    const redirects: Node[] = [];
    this.out.heredocs.push({ literal, body });
    for (const child of node.children) {
      if (!child || child.type === "heredoc_start" || child.type === "heredoc_end") continue;
      if (child.type === "heredoc_body") {
        if (!literal) this.visitNestedSubstitutions(child, state);
        continue;
      }
      if (child.type === "file_redirect" || child.type === "herestring_redirect") {
        // A target the grammar could not read leaves the line not understood. (Substitutions in
        // the target are walked by the caller, with the redirection's directory.)
        if (child.hasError) this.out.hasError = true;
        redirects.push(child);
        continue;
      }
      if (!child.isNamed) continue;
      const before = this.out.commands.length;
      this.visit(child, child.type === "pipeline" ? { ...state } : state);
      const first = this.out.commands[before];
      if (child.type === "pipeline" && first && pipedFrom) first.stdinFrom = pipedFrom;
    }
    return { body, redirects };
  }

  private visitFunction(node: Node, state: WalkState): void {
    const name = node.childForFieldName("name") ?? this.named(node).find((c) => c.type === "word");
    if (name) this.out.functionNames.add(name.text);
    const body = node.childForFieldName("body") ?? this.named(node).find((c) => c !== name);
    if (body) this.visit(body, { ...state, origin: "function" });
  }

  private assignmentOf(node: Node): Assignment | undefined {
    const name = node.children.find((c) => c?.type === "variable_name" || c?.type === "subscript");
    if (!name) return undefined;
    const operatorIndex = node.children.findIndex((c) => c?.type === "=" || c?.type === "+=");
    const valueNodes = node.children.slice(operatorIndex + 1).filter((c): c is Node => c !== null);
    const value = valueNodes.length
      ? assignmentValueField(valueNodes, this.context)
      : { value: "", literal: true, glob: false, quoted: false, source: "" };
    return { name: name.text, value, source: node.text };
  }

  private redirectsOf(node: Node, state: WalkState): Redirect[] {
    let operator = "";
    let fd: string | undefined;
    const targetNodes: Node[] = [];
    for (const child of node.children) {
      if (!child) continue;
      const type = child.type;
      const named = child.isNamed;
      if (type === "file_descriptor") fd = child.text;
      else if (!named && operator === "") operator = type;
      else if (
        named &&
        (targetNodes.length === 0 || targetNodes[targetNodes.length - 1]?.endIndex === child.startIndex)
      ) {
        targetNodes.push(child);
      }
    }
    const fields = fieldsOfNodes(targetNodes, this.context);
    const target =
      fields.length === 1
        ? fields[0]
        : { value: targetNodes.map((n) => n.text).join(""), literal: false, glob: true, quoted: false, source: "" };
    return [{ operator, fd, target, cwd: state.cwd }];
  }

  private record(entry: {
    kind: SimpleCommand["kind"];
    assignments: Assignment[];
    words: Field[];
    redirects: Redirect[];
    node: Node;
    state: WalkState;
  }): void {
    const { state } = entry;
    this.out.commands.push({
      kind: entry.kind,
      assignments: entry.assignments,
      words: entry.words,
      redirects: entry.redirects,
      cwd: state.cwd,
      origin: state.origin,
      inError: state.inError || (this.out.hasError && entry.node.hasError),
      source: entry.node.text,
      startIndex: entry.node.startIndex,
    });
    state.cwd = nextDirectory(entry.words, state.cwd);
  }
}
