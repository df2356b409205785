// The model-facing text of LSP.
export const LSP_TOOL_NAME = "LSP";

export const LSP_DESCRIPTION = "Ask a language server about code: definitions, references, types, symbols, calls";

export const LSP_PROMPT = `Asks the project's language server (TypeScript/JavaScript, Python with pyright, others from settings) about code, for answers a text search cannot give exactly.

Operations, all given a file and a position in it (line and character are 1-based, as Read shows them; put the position on the symbol's name):
- goToDefinition: where the symbol is defined
- findReferences: every reference to the symbol across the project
- hover: its type and documentation
- documentSymbol: every symbol of the file (the position is ignored)
- workspaceSymbol: symbols across the project whose name matches the word at the position
- goToImplementation: implementations of an interface or abstract member
- prepareCallHierarchy: the function or method at the position, as the call hierarchy sees it
- incomingCalls: the functions that call it
- outgoingCalls: the functions it calls

The first call for a language starts its server, which can take a few seconds on a large project.`;
