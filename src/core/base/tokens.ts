/**
 * Token estimates. Models tokenize differently; a common rule of thumb for English prose and code
 * is about four characters per token. Every estimate create-squad prints uses this one function,
 * so numbers are comparable across commands.
 */
export const CHARS_PER_TOKEN = 4;

export function estimateTokens(text: string): number {
  return Math.ceil(text.length / CHARS_PER_TOKEN);
}
