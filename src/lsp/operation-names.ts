// The LSP tool's operations by name: read by the tool's schema at start-up (so this file imports
// nothing) and by operations.ts, which runs them once a server is connected.
export const LSP_OPERATIONS = [
  "goToDefinition",
  "findReferences",
  "hover",
  "documentSymbol",
  "workspaceSymbol",
  "goToImplementation",
  "prepareCallHierarchy",
  "incomingCalls",
  "outgoingCalls",
] as const;
export type LspOperation = (typeof LSP_OPERATIONS)[number];
