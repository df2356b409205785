// PDFs are read as text, page by page; unpdf (a build of PDF.js) is loaded only when a PDF is read.
import { readFile } from "node:fs/promises";
import { MAX_PDF_PAGES_PER_READ, PDF_PAGES_WITHOUT_RANGE } from "./limits.js";

export interface PageRange {
  first: number;
  last: number;
}

/** "3" → 3..3, "1-5" → 1..5, "10-" → 10..end; undefined with a message when malformed. */
export function parsePageRange(pages: string): PageRange | { error: string } {
  const match = /^\s*(\d+)\s*(?:-\s*(\d*)\s*)?$/.exec(pages);
  if (!match) return { error: `pages must look like "3", "1-5" or "10-", not "${pages}".` };
  const first = Number(match[1]);
  const last = match[2] === undefined ? first : match[2] === "" ? Number.POSITIVE_INFINITY : Number(match[2]);
  if (first < 1 || last < first)
    return { error: `pages "${pages}" is not a valid range: pages count from 1 and the range must not run backwards.` };
  return { first, last };
}

export interface PdfReadResult {
  text: string;
  totalPages: number;
  first: number;
  last: number;
}

export async function readPdfText(filePath: string, range: PageRange | undefined): Promise<PdfReadResult> {
  const bytes = new Uint8Array(await readFile(filePath));
  const { getDocumentProxy } = await import("unpdf");
  let pdf: Awaited<ReturnType<typeof getDocumentProxy>>;
  try {
    pdf = await getDocumentProxy(bytes);
  } catch (error) {
    throw new Error(`${filePath} could not be read as a PDF: ${(error as Error).message}`);
  }
  try {
    const totalPages = pdf.numPages;
    if (!range && totalPages > PDF_PAGES_WITHOUT_RANGE) {
      throw new Error(
        `${filePath} has ${totalPages} pages, too many to read at once. Read it in parts with the pages parameter, e.g. pages: "1-${MAX_PDF_PAGES_PER_READ}" (at most ${MAX_PDF_PAGES_PER_READ} pages per call).`,
      );
    }
    const first = range?.first ?? 1;
    const last = Math.min(range?.last ?? totalPages, totalPages);
    if (first > totalPages)
      throw new Error(`${filePath} has only ${totalPages} page(s); page ${first} does not exist.`);
    if (last - first + 1 > MAX_PDF_PAGES_PER_READ) {
      throw new Error(
        `At most ${MAX_PDF_PAGES_PER_READ} pages can be read per call; ask for a smaller range than ${first}-${last}.`,
      );
    }
    const pages: string[] = [];
    for (let n = first; n <= last; n++) {
      const page = await pdf.getPage(n);
      const content = await page.getTextContent();
      const text = content.items
        .map((item) => ("str" in item ? `${item.str}${item.hasEOL ? "\n" : ""}` : ""))
        .join("")
        .trim();
      pages.push(`<page number="${n}">\n${text}\n</page>`);
    }
    return { text: pages.join("\n"), totalPages, first, last };
  } finally {
    await pdf.loadingTask.destroy();
  }
}
