// The built-in agents: general-purpose (every tool the filters leave), Explore and Plan (read-only:
// no Agent, Edit, Write or NotebookEdit; no memory files in their prompt), and verification, which
// tries to break the work it is given and answers PASS or FAIL with evidence. Their prompts are in
// ./built-in-prompts.ts.
import type { AgentDefinition } from "../../tool/agents.js";
import { EXPLORE_PROMPT, GENERAL_PURPOSE_PROMPT, PLAN_PROMPT, VERIFICATION_PROMPT } from "./built-in-prompts.js";

/** What a read-only agent may never have: tools that change files or spawn further agents. */
export const READ_ONLY_DISALLOWED = ["Agent", "Edit", "Write", "NotebookEdit"];

export const GENERAL_PURPOSE_AGENT: AgentDefinition = {
  agentType: "general-purpose",
  whenToUse:
    "Researching complex questions, searching for code and carrying out multi-step tasks. Use it when a search may take several tries.",
  systemPrompt: GENERAL_PURPOSE_PROMPT,
  tools: ["*"],
  source: "built-in",
};

export const EXPLORE_AGENT: AgentDefinition = {
  agentType: "Explore",
  whenToUse:
    "Fast read-only exploration of a codebase: find files by pattern, search code for keywords, answer questions about how the code works. Say how thorough it should be (quick, medium, very thorough).",
  systemPrompt: EXPLORE_PROMPT,
  disallowedTools: READ_ONLY_DISALLOWED,
  // A cheaper model where the provider has one (src/tools/agent/model.ts maps the alias).
  model: "haiku",
  omitMemory: true,
  source: "built-in",
};

export const PLAN_AGENT: AgentDefinition = {
  agentType: "Plan",
  whenToUse:
    "Designing an implementation plan: reads the code, weighs approaches and returns a step-by-step plan naming the files to change. Read-only.",
  systemPrompt: PLAN_PROMPT,
  disallowedTools: READ_ONLY_DISALLOWED,
  model: "inherit",
  omitMemory: true,
  source: "built-in",
};

export const VERIFICATION_AGENT: AgentDefinition = {
  agentType: "verification",
  whenToUse:
    "Checking finished work independently: it runs the tests and tries to break the change, then reports PASS or FAIL with the evidence. Give it what was done and how to check it.",
  systemPrompt: VERIFICATION_PROMPT,
  disallowedTools: READ_ONLY_DISALLOWED,
  model: "inherit",
  color: "red",
  source: "built-in",
};

/**
 * A fork's definition (never listed, never chosen by name): the parent's exact tools, model and
 * system prompt bytes, permission asks bubbling to the parent (src/tools/agent/fork.ts).
 */
export const FORK_AGENT: AgentDefinition = {
  agentType: "fork",
  whenToUse: "A copy of this agent that continues the conversation with one directive.",
  systemPrompt: "",
  tools: ["*"],
  model: "inherit",
  source: "built-in",
};

export const BUILT_IN_AGENTS: readonly AgentDefinition[] = [
  GENERAL_PURPOSE_AGENT,
  EXPLORE_AGENT,
  PLAN_AGENT,
  VERIFICATION_AGENT,
];
