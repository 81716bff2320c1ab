/**
 * A yes-or-no question on the terminal, with `prompts` (loaded only here, only when asking): what
 * `skills add` and `skills update` ask after the audit found something to review. The answer is no
 * unless the user says yes; Ctrl-C or Escape is no as well.
 */
import type { Confirm } from '../commands/skills-audit.js';

type Prompts = typeof import('prompts');

export const confirmWithPrompts: Confirm = async (question) => {
  // prompts colours with kleur 3, which knows NODE_DISABLE_COLORS but not NO_COLOR (no-color.org).
  if (process.env.NO_COLOR !== undefined && process.env.NO_COLOR !== '') process.env.NODE_DISABLE_COLORS = '1';
  const mod = (await import('prompts')) as unknown as { default?: Prompts } & Prompts;
  const prompts = mod.default ?? mod;
  const answer = (await prompts({ type: 'confirm', name: 'yes', message: question, initial: false }, { onCancel: () => false })) as { yes?: boolean };
  return answer.yes === true;
};
