// WebFetch: reads one web page for a prompt. The page is fetched (./fetch-page.ts), kept for 15
// minutes (./cache.ts), and read by a small fast model through the session's side query with the
// prompt, except a markdown page short enough to hand over whole. Who may be fetched is
// ./permission.ts; what comes back is marked as untrusted data (../web-shared/untrusted.ts).
import * as z from "zod";
import { buildTool } from "../../tool/build-tool.js";
import type { PermissionResult } from "../../tool/permission-types.js";
import type { Tool, ToolUseContext } from "../../tool/types.js";
import { formatBytes } from "../web-shared/http-request.js";
import { markUntrusted } from "../web-shared/untrusted.js";
import { PageCache } from "./cache.js";
import { type FetchedPage, fetchPage, MAX_HTML_CONVERT_CHARS, WebFetchError } from "./fetch-page.js";
import type { HostJudgements } from "./host-resolution.js";
import { webFetchPermission } from "./permission.js";
import { DEFAULT_PREAPPROVED_HOSTS } from "./preapproved-hosts.js";
import { WEB_FETCH_PROMPT, WEB_FETCH_READER_SYSTEM, WEB_FETCH_TOOL_NAME, webFetchReaderPrompt } from "./prompt.js";
import { fetchTarget } from "./url.js";

/** Markdown up to this long is returned as is; longer content is cut to this before the model reads it. */
export const MAX_MARKDOWN_LENGTH = 100_000;

const inputSchema = z.lazy(() =>
  z.strictObject({
    url: z.string().describe("The URL to fetch (http or https)"),
    prompt: z.string().describe("What to find or extract from the page"),
  }),
);

export type WebFetchInput = z.infer<typeof inputSchema>;

export type WebFetchOutput =
  | { kind: "redirect"; url: string; redirectTo: string; status: number; prompt: string }
  | {
      kind: "answer" | "content";
      url: string;
      page: Omit<FetchedPage, "content">;
      /** The model's answer (`answer`) or the page itself (`content`). */
      result: string;
      /** The page was longer than MAX_MARKDOWN_LENGTH and cut before reading. */
      truncated: boolean;
      fromCache: boolean;
      /** Why the page is returned itself: short markdown, or no model to read it. */
      note?: string;
    };

export interface WebFetchToolOptions {
  /** Hosts fetched without asking (settings `webFetch.preapprovedHosts`); default DEFAULT_PREAPPROVED_HOSTS. */
  preapprovedHosts?: readonly string[];
}

export function createWebFetchTool(options: WebFetchToolOptions = {}): Tool<WebFetchInput, WebFetchOutput> {
  const preapprovedHosts = (options.preapprovedHosts ?? DEFAULT_PREAPPROVED_HOSTS).map((host) => host.toLowerCase());
  const cache = new PageCache();

  const readPage = async (page: FetchedPage, input: WebFetchInput, context: ToolUseContext) => {
    const truncated = page.content.length > MAX_MARKDOWN_LENGTH;
    const content = truncated ? page.content.slice(0, MAX_MARKDOWN_LENGTH) : page.content;
    if (page.isMarkdown && !truncated) {
      return { kind: "content" as const, result: content, truncated, note: "markdown short enough to return whole" };
    }
    const sideQuery = context.options.sideQuery;
    if (!sideQuery) {
      return {
        kind: "content" as const,
        result: content,
        truncated,
        note: "no model is available here to read the page",
      };
    }
    const answer = await sideQuery.run({
      purpose: WEB_FETCH_TOOL_NAME,
      system: WEB_FETCH_READER_SYSTEM,
      prompt: webFetchReaderPrompt(page.url, content, input.prompt),
      signal: context.abortController.signal,
    });
    return { kind: "answer" as const, result: answer.text.trim() || "(the model's answer was empty)", truncated };
  };

  return buildTool<WebFetchInput, WebFetchOutput>({
    name: WEB_FETCH_TOOL_NAME,
    shouldDefer: true,
    maxResultSizeChars: 100_000,
    inputSchema,
    prompt: async () => WEB_FETCH_PROMPT,
    description: async (input) => `Fetch ${input?.url ?? "a web page"}`,
    isReadOnly: () => true,
    isConcurrencySafe: () => true,
    isOpenWorld: () => true,
    interruptBehavior: () => "cancel",
    toAutoClassifierInput: (input) => `${input.url}: ${input.prompt}`,

    async validateInput(input) {
      const target = fetchTarget(input.url);
      if ("error" in target) return { result: false, message: target.error, errorCode: 1 };
      if (input.prompt.trim() === "") {
        return { result: false, message: "Give a prompt: what to find or extract from the page.", errorCode: 2 };
      }
      return { result: true };
    },

    checkPermissions(input, context): Promise<PermissionResult<WebFetchInput>> {
      return webFetchPermission<WebFetchInput>({
        url: input.url,
        rules: context.getAppState().toolPermissionContext.rules,
        preapprovedHosts,
        judgements: hostJudgementsOf(context),
      });
    },

    async call(input, context) {
      const target = fetchTarget(input.url);
      if ("error" in target) throw new WebFetchError(target.error);
      const url = target.url.href;
      let page = cache.get(url);
      const fromCache = page !== undefined;
      if (!page) {
        const outcome = await fetchPage(target.url, {
          judgements: hostJudgementsOf(context),
          signal: context.abortController.signal,
        });
        if (outcome.kind === "redirect") {
          return {
            data: { kind: "redirect", url, redirectTo: outcome.to, status: outcome.status, prompt: input.prompt },
          };
        }
        page = outcome.page;
        cache.set(url, page);
        // The page is also what its final URL holds (a same-host redirect led there).
        if (page.url !== url) cache.set(page.url, page);
      }
      const read = await readPage(page, input, context);
      const { content: _content, ...pageInfo } = page;
      return { data: { ...read, url, page: pageInfo, fromCache } };
    },

    mapToolResult(output, toolUseId) {
      return { type: "tool_result", tool_use_id: toolUseId, content: resultText(output) };
    },
  });
}

function resultText(output: WebFetchOutput): string {
  if (output.kind === "redirect") {
    return [
      `${output.url} redirects (${output.status}) to another host: ${output.redirectTo}`,
      "The redirect was not followed: the new host needs its own permission.",
      `To read it, call ${WEB_FETCH_TOOL_NAME} again with url "${output.redirectTo}" and the same prompt.`,
    ].join("\n");
  }
  const { page } = output;
  const facts = [
    `${page.status}${page.statusText ? ` ${page.statusText}` : ""}`,
    page.contentType,
    formatBytes(page.bytes),
    ...(output.fromCache ? ["from cache"] : []),
  ].join(", ");
  const title = page.title ? ` "${page.title}"` : "";
  const what =
    output.kind === "answer"
      ? "A model read the page for your prompt; its answer follows."
      : `The page's content follows (${output.note ?? "returned whole"}).`;
  const cut = page.htmlCut
    ? `\nThe page's HTML was longer than ${MAX_HTML_CONVERT_CHARS.toLocaleString("en-US")} characters: only its beginning was converted and read.`
    : output.truncated
      ? `\nOnly the first ${MAX_MARKDOWN_LENGTH.toLocaleString("en-US")} characters were read.`
      : "";
  return `Fetched ${page.url}${title} (${facts}). ${what}${cut}\n\n${markUntrusted(output.result, page.url)}`;
}

/** WebFetch with the default pre-approved hosts (sessions pass their settings to createWebFetchTool). */
export const WebFetchTool = createWebFetchTool();

/** The session's judgements of hosts, created on its first check (kept in its AppState, not here). */
function hostJudgementsOf(context: ToolUseContext): HostJudgements {
  const existing = context.getAppState().webFetchHostJudgements;
  if (existing) return existing;
  const judgements: HostJudgements = new Map();
  context.setAppState((state) =>
    state.webFetchHostJudgements ? state : { ...state, webFetchHostJudgements: judgements },
  );
  return context.getAppState().webFetchHostJudgements ?? judgements;
}
