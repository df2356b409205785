// Some harnesses shorten tag-like text in what the model sees (`<function_results>` shown as
// `<fnr>`, "\n\nHuman:" as "\n\nH:"), so the model may quote the short form back in old_string.
// When nothing else matches, the short forms are expanded and tried again; the same expansion is
// applied to new_string so the file keeps its real tags.

const EXPANSIONS: ReadonlyArray<readonly [string, string]> = [
  ["<fnr>", "<function_results>"],
  ["</fnr>", "</function_results>"],
  ["<n>", "<name>"],
  ["</n>", "</name>"],
  ["<o>", "<output>"],
  ["</o>", "</output>"],
  ["<e>", "<error>"],
  ["</e>", "</error>"],
  ["<s>", "<system>"],
  ["</s>", "</system>"],
  ["<r>", "<result>"],
  ["</r>", "</result>"],
  ["\n\nH:", "\n\nHuman:"],
  ["\n\nA:", "\n\nAssistant:"],
];

/** The expanded text, or undefined when it holds none of the short forms. */
export function expandSanitizedTags(text: string): string | undefined {
  let changed = false;
  let out = text;
  for (const [short, full] of EXPANSIONS) {
    if (out.includes(short)) {
      out = out.split(short).join(full);
      changed = true;
    }
  }
  return changed ? out : undefined;
}
