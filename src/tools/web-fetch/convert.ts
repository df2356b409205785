// HTML to markdown: Readability keeps the page's main content (no menus, footers, cookie
// banners), linkedom gives it a DOM without a browser, and turndown writes the markdown. The three
// cost ~270 ms and ~34 MB to load (STACK.md), so they load on the first page a session converts,
// never at start-up.
import type TurndownService from "turndown";

interface Converters {
  parseHTML: typeof import("linkedom").parseHTML;
  Readability: typeof import("@mozilla/readability").Readability;
  turndown: TurndownService;
}

let loading: Promise<Converters> | undefined;

async function loadConverters(): Promise<Converters> {
  const [{ parseHTML }, { Readability }, { default: Turndown }] = await Promise.all([
    import("linkedom"),
    import("@mozilla/readability"),
    import("turndown"),
  ]);
  const turndown = new Turndown({ headingStyle: "atx", codeBlockStyle: "fenced", bulletListMarker: "-" });
  turndown.remove(["script", "style", "noscript", "iframe", "template"]);
  return { parseHTML, Readability, turndown };
}

/** Loads the converters (once per process); the first WebFetch of an HTML page waits for it. */
export function converters(): Promise<Converters> {
  loading ??= loadConverters();
  // A failed load is not remembered: the next page tries again.
  loading.catch(() => {
    loading = undefined;
  });
  return loading;
}

export interface ConvertedPage {
  title?: string;
  markdown: string;
  /** True when Readability found the main content; false: the whole body was converted. */
  mainContent: boolean;
}

/** What this file uses of linkedom's document (the project compiles without the DOM library's types). */
interface PageElement {
  getAttribute(name: string): string | null;
  setAttribute(name: string, value: string): void;
}
interface PageDocument {
  title?: string;
  body?: { innerHTML: string } | null;
  querySelectorAll(selector: string): Iterable<PageElement>;
}

type ReadabilityDocument = ConstructorParameters<Converters["Readability"]>[0];

/** Links and images made absolute against the page's URL, so the markdown's links work on their own. */
function absolutizeLinks(document: PageDocument, base: string): void {
  for (const [selector, attribute] of [
    ["a[href]", "href"],
    ["img[src]", "src"],
  ] as const) {
    for (const element of document.querySelectorAll(selector)) {
      const value = element.getAttribute(attribute);
      if (!value || value.startsWith("#")) continue;
      try {
        element.setAttribute(attribute, new URL(value, base).href);
      } catch {
        // A link that is not a URL stays as the page wrote it.
      }
    }
  }
}

export async function htmlToMarkdown(html: string, pageUrl: string): Promise<ConvertedPage> {
  const { parseHTML, Readability, turndown } = await converters();
  const parse = () => {
    const document = parseHTML(html).document as unknown as PageDocument;
    absolutizeLinks(document, pageUrl);
    return document;
  };
  const document = parse();
  const title = document.title?.trim() || undefined;
  let article: { title?: string | null; content?: string | null } | null = null;
  try {
    // Readability takes the document apart as it reads it. A copy would cost as much as a second
    // parse (~1 s for a 1 MB page here), and the untouched document is needed only when it finds
    // nothing: then the page is parsed again.
    article = new Readability(document as unknown as ReadabilityDocument).parse();
  } catch {
    article = null;
  }
  const mainHtml = article?.content?.trim();
  if (mainHtml) {
    return { title: article?.title?.trim() || title, markdown: turndown.turndown(mainHtml).trim(), mainContent: true };
  }
  const whole = parse();
  return { title, markdown: turndown.turndown(whole.body?.innerHTML ?? html).trim(), mainContent: false };
}
