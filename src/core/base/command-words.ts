/**
 * A command line written as one string (a skill test case's `input.command`) split into the words
 * a program receives, without a shell: whitespace separates words, '…' keeps its text as it is,
 * "…" keeps its text with \" and \\ as the only escapes, and \ outside quotes keeps the next
 * character. What only a shell would do (pipes, redirections, variables, command substitution,
 * globs, `;` and `&`) is refused rather than passed on as text the writer did not mean.
 */

/** Characters a shell gives a meaning to outside quotes; never silently passed as text. */
const SHELL_OPERATORS = new Set(['|', '&', ';', '<', '>', '(', ')', '$', '`', '*', '?', '[', ']', '{', '}', '~', '#', '!']);
/** Inside "…" a shell still expands these. */
const EXPANDED_IN_DOUBLE_QUOTES = new Set(['$', '`']);

export type CommandWords = { words: string[] } | { problem: string };

/** The words of `line`, or what keeps it from being run without a shell. */
export function splitCommandWords(line: string): CommandWords {
  const words: string[] = [];
  let word: string | undefined;
  let index = 0;
  const take = (text: string): void => {
    word = (word ?? '') + text;
  };
  while (index < line.length) {
    const char = line[index]!;
    if (char === '\0') return { problem: 'it contains a NUL byte' };
    if (/\s/.test(char)) {
      if (word !== undefined) words.push(word);
      word = undefined;
      index += 1;
    } else if (char === "'") {
      const end = line.indexOf("'", index + 1);
      if (end < 0) return { problem: `the quote ' at character ${index + 1} is never closed` };
      take(line.slice(index + 1, end));
      index = end + 1;
    } else if (char === '"') {
      let text = '';
      let at = index + 1;
      for (;;) {
        if (at >= line.length) return { problem: `the quote " at character ${index + 1} is never closed` };
        const inner = line[at]!;
        if (inner === '"') break;
        if (inner === '\\' && (line[at + 1] === '"' || line[at + 1] === '\\')) {
          text += line[at + 1];
          at += 2;
          continue;
        }
        if (EXPANDED_IN_DOUBLE_QUOTES.has(inner)) return { problem: operatorProblem(inner, at) };
        text += inner;
        at += 1;
      }
      take(text);
      index = at + 1;
    } else if (char === '\\') {
      if (index + 1 >= line.length) return { problem: 'it ends with a lone \\' };
      take(line[index + 1]!);
      index += 2;
    } else if (SHELL_OPERATORS.has(char)) {
      return { problem: operatorProblem(char, index) };
    } else {
      take(char);
      index += 1;
    }
  }
  if (word !== undefined) words.push(word);
  if (words.length === 0) return { problem: 'it is empty' };
  return { words };
}

function operatorProblem(char: string, index: number): string {
  return `"${char}" at character ${index + 1} means something only to a shell, and the command runs without one (quote it with '…' to pass it as text)`;
}
