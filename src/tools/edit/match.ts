// Finding old_string in a file: exactly first, then with quotes folded, then with shortened tags
// expanded. There is no fuzzy matching on purpose: an edit either targets text the model has seen
// verbatim or it is refused with a message that says why.
import { expandSanitizedTags } from "./desanitize.js";
import { applyFileQuoteStyle, indexOfFoldingQuotes } from "./quotes.js";

export interface EditMatch {
  /** old_string as it appears in the file. */
  fileOld: string;
  /** new_string adjusted to the file's style (quotes, tags). */
  fileNew: string;
  /** Non-overlapping occurrences of fileOld. */
  count: number;
  /** Index of the first occurrence. */
  firstIndex: number;
}

export function countOccurrences(content: string, search: string): number {
  if (search === "") return 0;
  let count = 0;
  let pos = content.indexOf(search);
  while (pos >= 0) {
    count++;
    pos = content.indexOf(search, pos + search.length);
  }
  return count;
}

export function findEditMatch(content: string, oldString: string, newString: string): EditMatch | undefined {
  const exact = content.indexOf(oldString);
  if (exact >= 0) {
    return { fileOld: oldString, fileNew: newString, count: countOccurrences(content, oldString), firstIndex: exact };
  }
  const folded = indexOfFoldingQuotes(content, oldString);
  if (folded >= 0) {
    const fileOld = content.slice(folded, folded + oldString.length);
    return {
      fileOld,
      fileNew: applyFileQuoteStyle(oldString, fileOld, newString),
      count: countOccurrences(content, fileOld),
      firstIndex: folded,
    };
  }
  const expandedOld = expandSanitizedTags(oldString);
  if (expandedOld !== undefined) {
    const index = content.indexOf(expandedOld);
    if (index >= 0) {
      return {
        fileOld: expandedOld,
        fileNew: expandSanitizedTags(newString) ?? newString,
        count: countOccurrences(content, expandedOld),
        firstIndex: index,
      };
    }
  }
  return undefined;
}

export interface AppliedEdit {
  content: string;
  /** Range in the old content from the first to the end of the last replaced occurrence. */
  start: number;
  oldEnd: number;
}

/**
 * Replaces the first (or every) occurrence. Deleting a whole line (new_string empty, old_string
 * without its newline) also removes the newline, so the deletion does not leave a blank line.
 */
export function applyEdit(content: string, match: EditMatch, replaceAll: boolean): AppliedEdit {
  let search = match.fileOld;
  if (!replaceAll && match.fileNew === "" && !search.endsWith("\n") && content.includes(`${search}\n`))
    search = `${search}\n`;
  const first = content.indexOf(search);
  if (!replaceAll) {
    return {
      content: content.slice(0, first) + match.fileNew + content.slice(first + search.length),
      start: first,
      oldEnd: first + search.length,
    };
  }
  const parts = content.split(search);
  const last = content.lastIndexOf(search);
  return { content: parts.join(match.fileNew), start: first, oldEnd: last + search.length };
}
