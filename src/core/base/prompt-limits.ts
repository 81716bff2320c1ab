/**
 * Limits of a spawn prompt that the command line shows in its help. This module imports nothing:
 * the CLI shell (bundled for start-up time) includes it.
 */

/** Default token budget of the `<available_skills>` entries of a standard prompt. */
export const DEFAULT_SKILLS_BUDGET = 4000;
