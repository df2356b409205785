// What a PowerShell script does, read from its syntax tree: every command it runs, wherever it
// sits (a pipeline, a script block, a sub-expression inside a string, an argument in
// parentheses), with its canonical name and its arguments as far as they are literal; what writes
// (redirections); and what runs code the analysis cannot read (.NET method calls, static members,
// dynamic command names, functions defined on the line, `--%`). Says what the script is, never
// whether it may run: that is src/permissions/powershell/.
import type { Node } from "web-tree-sitter";
import { canonicalCommandName } from "./cmdlets.js";
import { parsePowerShell } from "./parser.js";

export interface PsArgument {
  /** `parameter`: `-Name` (its text, `:` dropped); `value`: anything else. */
  kind: "parameter" | "value";
  /** The value as PowerShell would pass it, when literal; the source text otherwise. */
  text: string;
  /** False when any part is known only at run time (a variable, a sub-expression, a script block). */
  literal: boolean;
}

export interface PsCommand {
  /** The name as written (`gci`, `Microsoft.PowerShell.Management\Get-ChildItem`, `git`). */
  name: string;
  /** Lower-case, alias resolved, module qualifier dropped (`get-childitem`, `git`). */
  canonical: string;
  /** False when the name is computed (`& $cmd`, `& (Get-X)`). */
  literalName: boolean;
  /** Called with `&` or dot-sourced with `.`. */
  invocation?: "&" | ".";
  args: PsArgument[];
  /** Files its redirections write (undefined: a target known only at run time). */
  redirects: Array<string | undefined>;
  source: string;
}

export interface PsAnalysis {
  script: string;
  /** Set when the grammar could not read the script (the decision asks). */
  parseError?: string;
  commands: PsCommand[];
  /**
   * When the grammar could not read the script: its text split at separators into words, for
   * deny rules only (a deny must hold on what the grammar rejects; more candidates only deny more).
   */
  fallbackCommands: PsCommand[];
  /** What runs code the analysis cannot read or changes how later names resolve: each asks. */
  findings: string[];
  /** Redirections outside a command's own (`$x > file`), by target. */
  redirects: Array<string | undefined>;
  /** Environment variables it reads whose names look like secrets (`$env:API_KEY`). */
  secretVariables: string[];
}

const SECRET_NAME = /(KEY|TOKEN|SECRET|PASSW|CREDENTIAL|AUTH(?!OR)|PRIVATE|COOKIE|SESSION)/i;

/** Variables a script may set without changing how PowerShell itself behaves. */
function isPlainVariableTarget(text: string): boolean {
  const match = /^\$([A-Za-z_][A-Za-z0-9_]*)$/.exec(text.trim());
  if (!match?.[1]) return false;
  const name = match[1].toLowerCase();
  // Preference and automatic variables change later commands (`$PSDefaultParameterValues` adds
  // parameters to every call; `$ErrorActionPreference`, `$ConfirmPreference`...).
  return !name.startsWith("ps") && !name.endsWith("preference") && !AUTOMATIC.has(name);
}

const AUTOMATIC = new Set([
  "executioncontext",
  "host",
  "input",
  "args",
  "this",
  "_",
  "null",
  "true",
  "false",
  "home",
  "pwd",
  "env",
  "error",
  "ofs",
  "maximumhistorycount",
]);

export async function analyzePowerShell(script: string): Promise<PsAnalysis> {
  const tree = await parsePowerShell(script);
  try {
    const analysis: PsAnalysis = {
      script,
      commands: [],
      fallbackCommands: [],
      findings: [],
      redirects: [],
      secretVariables: [],
    };
    const root = tree.rootNode;
    if (root.hasError) {
      const bad = firstError(root);
      analysis.parseError = bad
        ? `the PowerShell grammar cannot read \`${bad.text.slice(0, 60)}\` (at character ${bad.startIndex + 1})`
        : "the PowerShell grammar cannot read the command";
      analysis.fallbackCommands = fallbackCommands(script);
    }
    walk(root, analysis);
    return analysis;
  } finally {
    tree.delete();
  }
}

function firstError(node: Node): Node | undefined {
  if (node.type === "ERROR" || node.isMissing) return node;
  for (const child of node.children) {
    if (child?.hasError || child?.isMissing) {
      const found = firstError(child);
      if (found) return found;
    }
  }
  return node.hasError ? node : undefined;
}

function walk(node: Node, analysis: PsAnalysis): void {
  switch (node.type) {
    case "command":
      analysis.commands.push(commandOf(node, analysis));
      break;
    case "invokation_expression":
    case "invokation_foreach_expression":
      analysis.findings.push(`\`${clip(node.text)}\` calls a .NET method, which can do anything`);
      break;
    case "member_access":
      if (node.text.includes("::"))
        analysis.findings.push(`\`${clip(node.text)}\` reaches a .NET type's static member`);
      break;
    case "assignment_expression": {
      const left = node.namedChildren.find((c) => c?.type === "left_assignment_expression");
      if (!left || !isPlainVariableTarget(left.text))
        analysis.findings.push(
          `\`${clip(node.text)}\` assigns to \`${clip(left?.text ?? "?")}\`, which can change what later commands do`,
        );
      break;
    }
    case "function_statement":
    case "class_statement":
    case "enum_statement":
      analysis.findings.push("the command defines a function or class, which can stand in for any command name");
      break;
    case "stop_parsing":
    case "verbatim_command_argument":
      analysis.findings.push("`--%` passes the rest of the line unparsed");
      break;
    case "redirection":
      // A command's own redirections are read by commandOf; these are an expression's.
      if (node.parent?.type !== "command_elements") analysis.redirects.push(redirectTarget(node));
      break;
    case "variable": {
      const env = /^\$(?:\{)?env:([A-Za-z0-9_]+)/i.exec(node.text);
      if (env?.[1] && SECRET_NAME.test(env[1])) analysis.secretVariables.push(env[1]);
      break;
    }
    case "data_statement":
    case "inlinescript_statement":
    case "parallel_statement":
    case "sequence_statement":
      analysis.findings.push(`\`${clip(node.text)}\` is a workflow or data section, which is not analysed`);
      break;
  }
  for (const child of node.children) if (child) walk(child, analysis);
}

function commandOf(node: Node, analysis: PsAnalysis): PsCommand {
  const operator = node.children.find((c) => c?.type === "command_invokation_operator");
  const nameNode = node.childForFieldName("command_name");
  const elements = node.childForFieldName("command_elements");
  const invocation = operator ? (operator.text as "&" | ".") : undefined;
  let name = nameNode?.text ?? "";
  let literalName = nameNode !== null && isLiteralName(nameNode);
  if (literalName && nameNode) {
    const unquoted = literalString(innermostValue(nameNode));
    if (unquoted !== undefined) name = unquoted;
    else if (nameNode.type === "command_name_expr" && nameNode.firstNamedChild?.type !== "command_name")
      literalName = false;
  }
  if (invocation === ".") analysis.findings.push(`\`${clip(node.text)}\` dot-sources a script into the session`);
  const command: PsCommand = {
    name,
    canonical: literalName ? canonicalCommandName(name) : "",
    literalName,
    ...(invocation ? { invocation } : {}),
    args: [],
    redirects: [],
    source: node.text,
  };
  if (!literalName) {
    // `& { ... }` runs a script block whose commands the walk reads; anything else is opaque.
    const block =
      nameNode?.type === "command_name_expr" && nameNode.firstNamedChild?.type === "script_block_expression";
    if (!block) analysis.findings.push(`\`${clip(node.text)}\` runs a command whose name is known only at run time`);
  }
  for (const child of elements?.children ?? []) {
    if (!child) continue;
    switch (child.type) {
      case "command_argument_sep":
        // `-Path:value` reads as the parameter followed by its value, as `-Path value` does.
        continue;
      case "command_parameter":
        command.args.push({ kind: "parameter", text: child.text, literal: true });
        break;
      case "redirection":
        command.redirects.push(redirectTarget(child));
        break;
      case "stop_parsing":
        command.args.push({ kind: "value", text: child.text, literal: false });
        break;
      default:
        command.args.push(...valuesOf(child));
    }
  }
  return command;
}

/** The file a redirection writes; undefined when it is not literal. `$null` and streams merged are not files. */
function redirectTarget(node: Node): string | undefined {
  const target = node.children.find((c) => c?.type === "redirected_file_name");
  if (!target) return "";
  const value = target.namedChildren.filter((c) => c && c.type !== "command_argument_sep");
  if (value.length !== 1 || !value[0]) return undefined;
  if (/^\$null$/i.test(value[0].text)) return "";
  const values = valuesOf(value[0]);
  return values.length === 1 && values[0]?.literal ? values[0].text : undefined;
}

/** The argument values of one command element. */
function valuesOf(node: Node): PsArgument[] {
  if (node.type === "generic_token") {
    const text = node.text;
    return [{ kind: "value", text, literal: !/[$`@{}()]/.test(text) }];
  }
  if (node.type === "array_literal_expression") {
    const items = node.namedChildren.filter((c): c is Node => c !== null);
    return items.flatMap((item) => {
      const text = literalString(innermostValue(item));
      return [{ kind: "value" as const, text: text ?? item.text, literal: text !== undefined }];
    });
  }
  return [{ kind: "value", text: node.text, literal: false }];
}

/** Descends through single-child wrappers (unary_expression, string_literal) to the value node. */
function innermostValue(node: Node): Node {
  let current = node;
  while (
    current.namedChildCount === 1 &&
    current.type !== "expandable_string_literal" &&
    current.type !== "verbatim_string_characters"
  ) {
    const next = current.firstNamedChild;
    if (!next) break;
    current = next;
  }
  return current;
}

/** The text of a string or bare literal without quotes, or undefined when any part is dynamic. */
function literalString(node: Node): string | undefined {
  const text = node.text;
  switch (node.type) {
    case "verbatim_string_characters":
      return text.slice(1, -1).replaceAll("''", "'");
    case "expandable_string_literal":
      if (node.namedChildCount > 0 || /[$`]/.test(text)) return undefined;
      return text.slice(1, -1).replaceAll('""', '"');
    case "generic_token":
    case "command_name":
    case "simple_name":
      return /[$`@{}()"']/.test(text) ? undefined : text;
    case "decimal_integer_literal":
    case "integer_literal":
    case "real_literal":
      return text;
    default:
      return undefined;
  }
}

function isLiteralName(node: Node): boolean {
  if (node.type === "command_name") return !/[$`"'(]/.test(node.text);
  const inner = innermostValue(node);
  return literalString(inner) !== undefined;
}

function clip(text: string): string {
  const line = text.replace(/\s+/g, " ").trim();
  return line.length > 80 ? `${line.slice(0, 77)}...` : line;
}

/** Words of each stretch between separators (`;`, `|`, `&`, brackets, new lines), quotes dropped. */
export function fallbackCommands(script: string): PsCommand[] {
  const commands: PsCommand[] = [];
  for (const segment of script.split(/[;|&\n(){}]+/)) {
    const words = [...segment.matchAll(/"([^"]*)"|'([^']*)'|(\S+)/g)].map((m) => m[1] ?? m[2] ?? m[3] ?? "");
    const [name, ...rest] = words;
    if (!name || name === ".") continue;
    commands.push({
      name,
      canonical: canonicalCommandName(name),
      literalName: !name.includes("$"),
      args: rest.map((text) => ({
        kind: text.startsWith("-") ? ("parameter" as const) : ("value" as const),
        text,
        literal: !/[$`]/.test(text),
      })),
      redirects: [],
      source: segment.trim(),
    });
  }
  return commands;
}
