// WebFetch's own costs, in a fresh process (bench/run.ts gives each module one): loading the HTML
// converters on the first page (Readability, linkedom, turndown: never at start-up), converting a
// 1 MB documentation page to markdown, and a whole fetch of that page from a server on 127.0.0.1
// (HTTP, decode, convert; the model's reading excluded). Run alone:
// `node --import tsx bench/run.ts web-fetch`.
import { once } from "node:events";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { performance } from "node:perf_hooks";
import { converters, htmlToMarkdown } from "../src/tools/web-fetch/convert.js";
import { fetchPage } from "../src/tools/web-fetch/fetch-page.js";
import { recordJudgement, resolveHost } from "../src/tools/web-fetch/host-resolution.js";
import type { BenchRow } from "./run.js";

/** A documentation page of about `bytes`: navigation, then many sections of prose, code and lists. */
function documentationPage(bytes: number): string {
  const sections: string[] = [];
  let size = 0;
  for (let i = 0; size < bytes; i++) {
    const section = `<section id="s${i}"><h2>Option ${i}</h2>
<p>The <code>option${i}</code> setting controls how widgets render their ${i}th value. ${"It accepts a string, a number or a function returning either, and falls back to the default when left out. ".repeat(3)}See <a href="/docs/options#o${i}">the reference</a>.</p>
<pre><code>widget.configure({ option${i}: true, retries: ${i % 7} });</code></pre>
<ul><li>Default: <code>false</code></li><li>Since: 4.${i % 20}.0</li></ul></section>\n`;
    sections.push(section);
    size += section.length;
  }
  return `<!doctype html><html><head><title>Widget options</title></head><body>
<nav>${Array.from({ length: 50 }, (_, i) => `<a href="/p${i}">Page ${i}</a>`).join(" | ")}</nav>
<main><article><h1>Options</h1>${sections.join("")}</article></main><footer>Widget Corp</footer></body></html>`;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

export default async function webFetchBench(): Promise<BenchRow[]> {
  const html = documentationPage(1024 * 1024);
  const rssBefore = process.memoryUsage().rss;
  const loadStart = performance.now();
  await converters();
  const loadMs = performance.now() - loadStart;
  const loadRss = process.memoryUsage().rss - rssBefore;

  const convertTimes: number[] = [];
  let markdownChars = 0;
  for (let run = 0; run < 3; run++) {
    const start = performance.now();
    const page = await htmlToMarkdown(html, "https://widgets.test/docs/options");
    convertTimes.push(performance.now() - start);
    markdownChars = page.markdown.length;
  }

  const server = createServer((_request, response) => {
    response.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(html);
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const url = new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/docs/options`);
  const judgements = new Map<string, boolean>();
  recordJudgement(judgements, await resolveHost("127.0.0.1"));
  const fetchTimes: number[] = [];
  for (let run = 0; run < 3; run++) {
    const start = performance.now();
    await fetchPage(url, { judgements, signal: new AbortController().signal });
    fetchTimes.push(performance.now() - start);
  }
  server.close();

  return [
    {
      name: "WebFetch first page: load Readability + linkedom + turndown",
      value: loadMs,
      unit: "ms",
      note: `+${Math.round(loadRss / 1024 / 1024)} MB RSS`,
    },
    {
      name: "convert a 1 MB HTML page to markdown (median of 3)",
      value: median(convertTimes),
      unit: "ms",
      note: `${Math.round(html.length / 1024)} KB HTML -> ${Math.round(markdownChars / 1024)} KB markdown`,
    },
    { name: "fetch + convert the same page from 127.0.0.1 (median of 3)", value: median(fetchTimes), unit: "ms" },
  ];
}
