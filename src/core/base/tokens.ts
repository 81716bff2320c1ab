/**
 * Token estimates. Models tokenize differently; a common rule of thumb for English prose and code
 * is about four characters per token. Every estimate create-squad prints uses this one function,
 * so numbers are comparable across commands.
 */
export const CHARS_PER_TOKEN = 4;

export function estimateTokens(text: string): number {
  return tokensOfLength(text.length);
}

/** The estimate for a text of `length` characters, when only its length is known. */
export function tokensOfLength(length: number): number {
  return Math.ceil(length / CHARS_PER_TOKEN);
}
