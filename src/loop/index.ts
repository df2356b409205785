export * from "./events.js";
export * from "./execute-tools.js";
export * from "./query.js";
export * from "./reminders.js";
export * from "./request-messages.js";
export * from "./request-prefix.js";
export * from "./session.js";
export * from "./system-prompt.js";
