/** Edit distance, for "did you mean …?" suggestions. */

/** Levenshtein distance between `a` and `b` (insertions, deletions, substitutions). */
export function editDistance(a: string, b: string): number {
  if (a === b) return 0;
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i += 1) {
    const current = [i];
    for (let j = 1; j <= b.length; j += 1) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      current.push(Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + cost));
    }
    previous = current;
  }
  return previous[b.length]!;
}

/** The candidate closest to `word` within `maxDistance` (ties: the first in `candidates`), if any. */
export function closestMatch(word: string, candidates: readonly string[], maxDistance = 2): string | undefined {
  let best: string | undefined;
  let bestDistance = maxDistance + 1;
  for (const candidate of candidates) {
    const distance = editDistance(word.toLowerCase(), candidate.toLowerCase());
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best;
}

/**
 * ` (did you mean "x"?)` for the candidate nearest to `wanted` (case aside, within two edits, or a
 * third of the word for long ones), or '' when none is near: the end of an "unknown name" message.
 */
export function didYouMean(wanted: string, candidates: readonly string[]): string {
  const word = wanted.trim();
  if (!word) return '';
  const match = closestMatch(word, [...new Set(candidates)], Math.max(2, Math.floor(word.length / 3)));
  return match === undefined || match.toLowerCase() === word.toLowerCase() ? '' : ` (did you mean "${match}"?)`;
}
