// Fetching against real HTTP servers on 127.0.0.1: the size limit holds after decompression, a
// host that resolves to the local network is refused unless the permission check judged it so
// (DNS rebinding), charsets are honoured, HTML becomes markdown with absolute links, and the
// cache forgets a page after 15 minutes.
import { gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CACHE_TTL_MS, PageCache } from "../../../src/tools/web-fetch/cache.js";
import { htmlToMarkdown } from "../../../src/tools/web-fetch/convert.js";
import { fetchPage } from "../../../src/tools/web-fetch/fetch-page.js";
import {
  addressesForFetch,
  type HostJudgements,
  recordJudgement,
  resolveHost,
} from "../../../src/tools/web-fetch/host-resolution.js";
import { GUIDE_HTML, type PageServer, startPageServer } from "./page-server.js";

let server: PageServer;
const signal = new AbortController().signal;

beforeAll(async () => {
  server = await startPageServer({
    // 2 MB of zeros, gzipped to a few KB: the limit must count what it inflates to.
    "/bomb": {
      headers: { "content-type": "text/plain", "content-encoding": "gzip" },
      body: gzipSync(Buffer.alloc(2 * 1024 * 1024, 0x61)),
    },
    "/latin1": {
      headers: { "content-type": "text/plain; charset=iso-8859-1" },
      body: Buffer.from([0x63, 0x61, 0x66, 0xe9]),
    },
    "/guide": { body: GUIDE_HTML },
  });
});

afterAll(() => server?.close());

/** One session's judgements, as its permission check left them: this machine judged (and asked about). */
const sessions = new Map<string, HostJudgements>();
function session(name: string): HostJudgements {
  const existing = sessions.get(name);
  if (existing) return existing;
  const judgements: HostJudgements = new Map();
  sessions.set(name, judgements);
  return judgements;
}
async function judged(name: string): Promise<void> {
  recordJudgement(session(name), await resolveHost("127.0.0.1"));
}

describe("fetchPage", () => {
  it("stops at the size limit counted after decompression", async () => {
    await judged("size");
    await expect(
      fetchPage(new URL(`${server.origin}/bomb`), { judgements: session("size"), signal, maxBytes: 1024 * 1024 }),
    ).rejects.toThrow(/larger than the limit of 1 MB/);
  });

  it("decodes the declared charset", async () => {
    await judged("charset");
    const outcome = await fetchPage(new URL(`${server.origin}/latin1`), { judgements: session("charset"), signal });
    expect(outcome.kind === "page" && outcome.page.content).toBe("café");
  });

  it("converts only the beginning of HTML longer than the conversion limit, and says so", async () => {
    await judged("cut");
    const cutAt = GUIDE_HTML.indexOf("<h2>Install</h2>");
    const outcome = await fetchPage(new URL(`${server.origin}/guide`), {
      judgements: session("cut"),
      signal,
      maxHtmlChars: cutAt,
    });
    expect(outcome.kind === "page" && outcome.page.htmlCut).toBe(true);
    expect(outcome.kind === "page" && outcome.page.content).toContain("Widgets are small components");
    expect(outcome.kind === "page" && outcome.page.content).not.toContain("npm install");
  });

  it("refuses to connect when a host judged public resolves to a local address at fetch time", async () => {
    // What the permission check saw: these names answered public addresses then (a rebinding DNS
    // record's first answer). Now they resolve to this machine.
    recordJudgement(session("rebinding"), {
      host: "localhost",
      addresses: [{ address: "93.184.216.34", family: 4 }],
      isPrivate: false,
    });
    recordJudgement(session("rebinding"), {
      host: "127.0.0.1",
      addresses: [{ address: "93.184.216.34", family: 4 }],
      isPrivate: false,
    });
    const refused = await addressesForFetch(session("rebinding"), "localhost");
    expect(refused).toEqual({ error: expect.stringContaining("approved as a public host") });
    await expect(
      fetchPage(new URL(`${server.origin}/guide`), { judgements: session("rebinding"), signal }),
    ).rejects.toThrow(/refusing to connect/);
    expect(server.hits.get("/guide") ?? 0).toBe(1);
    // Judged private (asked about, or named by a rule): connected.
    await judged("rebinding-ok");
    expect(await addressesForFetch(session("rebinding-ok"), "127.0.0.1")).toEqual({
      addresses: [{ address: "127.0.0.1", family: 4 }],
    });
    // Another session of the same process judged nothing public: its fetch is not refused.
    expect(await addressesForFetch(session("another"), "localhost")).toHaveProperty("addresses");
  });
});

describe("htmlToMarkdown", () => {
  it("keeps the main content, as markdown, with links made absolute", async () => {
    const page = await htmlToMarkdown(GUIDE_HTML, "https://widgets.test/guide/");
    expect(page.mainContent).toBe(true);
    expect(page.title).toBe("Widget guide");
    expect(page.markdown).toContain("[the configuration page](https://widgets.test/docs/config)");
    expect(page.markdown).not.toMatch(/Pricing|Cookie settings/);
  });
});

describe("PageCache", () => {
  it("serves a page for 15 minutes, then fetches again", () => {
    let now = 1_000_000;
    const cache = new PageCache(() => now);
    const page = {
      url: "https://a.test/",
      status: 200,
      statusText: "OK",
      contentType: "text/plain",
      bytes: 2,
      content: "hi",
      isMarkdown: false,
    };
    cache.set(page.url, page);
    now += CACHE_TTL_MS - 1;
    expect(cache.get(page.url)).toBe(page);
    now += 1;
    expect(cache.get(page.url)).toBeUndefined();
  });
});
