// The engine as sessions use it: createCanUseTool (the chain pipeline → classifier → ask handler
// → record, what the loop asks before every call), the ask handlers that settle an ask, and the
// checker behind `warden permissions check`, which decides a call without running anything.

export { alwaysAllowUpdates } from "./always-allow.js";
export {
  type AskHandler,
  type AskRequest,
  type AskResponse,
  createHeadlessAskHandler,
  denyAskHandler,
  howToAllow,
} from "./ask-handlers.js";
export { type CreateCanUseToolOptions, createCanUseTool, type PermissionDecisionRecord } from "./can-use-tool.js";
export {
  type CheckOutcome,
  type CheckRequest,
  createPermissionChecker,
  type DecisionLine,
  type PermissionChecker,
  toDecisionLine,
} from "./check-request.js";
