// The words bash will see: a shell word's syntax turned into the arguments bash passes (quote
// removal, ANSI-C strings, brace expansion, $IFS splitting), with what is known only at run time
// marked so no rule can match it by accident; and option parsing over those arguments.

export { decodeAnsiC } from "./ansi-c.js";
export { commandBaseName } from "./command-name.js";
export { DYNAMIC_MARK, type Field, type WordContext, type WordToken } from "./field.js";
export { matchesLong, type OptionSpec, optionValueText, type ParsedArgs, parseArgs } from "./options.js";
export { assignmentValueField, fieldsOfNodes, fieldsOfTokens, type WordPiece } from "./word-tokens.js";
