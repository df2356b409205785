import { describe, expect, it } from "vitest";
import {
  parseQuery,
  rankTools,
  SEARCH_WEIGHTS,
  type SearchableTool,
  searchTools,
  splitToolName,
} from "../../src/tools/tool-search/scoring.js";

const tools: SearchableTool[] = [
  { name: "mcp__github__create_issue", description: "Create a new issue in a GitHub repository.", isMcp: true },
  { name: "mcp__github__list_issues", description: "List issues of a repository, filtered by state.", isMcp: true },
  { name: "mcp__github__create_pull_request", description: "Open a pull request.", isMcp: true },
  { name: "mcp__slack__send_message", description: "Post a message to a Slack channel.", isMcp: true },
  { name: "mcp__slack__list_channels", description: "List the channels of the workspace.", isMcp: true },
  {
    name: "mcp__jira__createIssue",
    description: "Create a Jira ticket.",
    isMcp: true,
    searchHint: "bug tracker ticket",
  },
  { name: "NotebookEdit", description: "Replace, insert or delete a cell of a Jupyter notebook.", isMcp: false },
  {
    name: "WebFetch",
    description: "Fetch a URL and answer a question about its content.",
    isMcp: false,
    searchHint: "download web page http",
  },
  { name: "WebSearch", description: "Search the web and return result links.", isMcp: false },
];

describe("splitToolName", () => {
  it.each([
    ["mcp__github__create_issue", ["github", "create", "issue"]],
    ["mcp__jira__createIssue", ["jira", "create", "issue"]],
    ["NotebookEdit", ["notebook", "edit"]],
    ["WebFetch", ["web", "fetch"]],
    ["mcp__my-server__getHTTPStatus", ["my", "server", "get", "http", "status"]],
  ])("%s → %j", (name, parts) => {
    expect(splitToolName(name)).toEqual(parts);
  });
});

describe("parseQuery", () => {
  it("reads select: lists, trimming blanks", () => {
    expect(parseQuery("select: WebFetch, mcp__slack__send_message ,")).toEqual({
      kind: "select",
      names: ["WebFetch", "mcp__slack__send_message"],
    });
  });
  it("marks +terms as required and keeps them as scoring terms", () => {
    expect(parseQuery("+Slack send")).toEqual({ kind: "keywords", terms: ["slack", "send"], required: ["slack"] });
  });
  it("recognises a server prefix", () => {
    expect(parseQuery("mcp__github")).toEqual({ kind: "serverPrefix", prefix: "mcp__github" });
  });
});

describe("scoring weights", () => {
  const score = (tool: SearchableTool, query: string) => rankTools([tool], [query], [])[0]?.score ?? 0;
  it.each([
    [
      "exact MCP name part",
      { name: "mcp__s__send", description: "", isMcp: true },
      "send",
      SEARCH_WEIGHTS.exactNamePartMcp,
    ],
    [
      "exact built-in name part",
      { name: "WebFetch", description: "", isMcp: false },
      "fetch",
      SEARCH_WEIGHTS.exactNamePart,
    ],
    [
      "partial MCP name part",
      { name: "mcp__s__sending", description: "", isMcp: true },
      "send",
      SEARCH_WEIGHTS.partialNamePartMcp,
    ],
    [
      "partial built-in name part",
      { name: "WebFetching", description: "", isMcp: false },
      "fetch",
      SEARCH_WEIGHTS.partialNamePart,
    ],
    [
      "full-name fallback across parts",
      { name: "NotebookEdit", description: "", isMcp: false },
      "notebookedit",
      SEARCH_WEIGHTS.fullNameFallback,
    ],
    [
      "search hint word",
      { name: "X", description: "", isMcp: false, searchHint: "download page" },
      "download",
      SEARCH_WEIGHTS.searchHint,
    ],
    [
      "description word",
      { name: "X", description: "Reads a page.", isMcp: false },
      "page",
      SEARCH_WEIGHTS.descriptionWord,
    ],
    ["description substring is not a word", { name: "X", description: "Reads pages.", isMcp: false }, "page", 0],
  ] as Array<[string, SearchableTool, string, number]>)("%s", (_label, tool, term, expected) => {
    expect(score(tool, term)).toBe(expected);
  });
});

describe("searchTools ranking table", () => {
  it.each([
    // exact MCP part "issue" (12) beats everything; list_issues only matches partially (6) + description (2).
    ["issue", ["mcp__github__create_issue", "mcp__jira__createIssue", "mcp__github__list_issues"]],
    [
      "create issue",
      [
        "mcp__github__create_issue",
        "mcp__jira__createIssue",
        "mcp__github__create_pull_request",
        "mcp__github__list_issues",
      ],
    ],
    ["+slack message", ["mcp__slack__send_message", "mcp__slack__list_channels"]],
    ["ticket", ["mcp__jira__createIssue"]],
    ["web", ["WebFetch", "WebSearch"]],
    ["http download", ["WebFetch"]],
    ["notebook cell", ["NotebookEdit"]],
    ["mcp__github", ["mcp__github__create_issue", "mcp__github__create_pull_request", "mcp__github__list_issues"]],
    ["mcp__slack__", ["mcp__slack__list_channels", "mcp__slack__send_message"]],
    ["webfetch", ["WebFetch"]],
    ["select:WebSearch,webfetch", ["WebSearch", "WebFetch"]],
    ["nothing-like-this", []],
  ])("%s", (query, expected) => {
    expect(searchTools(tools, query, 5).matches).toEqual(expected);
  });

  it("limits keyword results to max_results but not a server prefix", () => {
    expect(searchTools(tools, "issue", 1).matches).toEqual(["mcp__github__create_issue"]);
    expect(searchTools(tools, "mcp__github", 1).matches).toHaveLength(3);
  });

  it("reports select: names that do not exist", () => {
    expect(searchTools(tools, "select:WebFetch,Nope", 5)).toEqual({ matches: ["WebFetch"], missing: ["Nope"] });
  });

  it("drops tools missing a required term even when other terms score", () => {
    expect(searchTools(tools, "+jira issue", 5).matches).toEqual(["mcp__jira__createIssue"]);
  });
});
