/**
 * The questions `init` asks on a terminal, with `prompts` (loaded only here, only when asking).
 * Ctrl-C or Escape at any question aborts init before anything is written.
 */
import { SquadError } from '../core/base/errors.js';
import { checkRoleList, splitRoleList } from '../core/roster/roles.js';
import type { InitAnswers, InitQuestions } from '../commands/init.js';
import { inert } from './ui.js';

type Prompts = typeof import('prompts');

function cancelled(): never {
  throw new SquadError('aborted', 'init cancelled; nothing was written', { hint: 'run "create-squad init" again when you are ready' });
}

/**
 * The answer to "Other roles?" given the roles picked above: true when the whole list is one init
 * accepts, else what is wrong with it (shown under the question, which is asked again).
 */
export function customRolesProblem(picked: readonly string[], typed: string, allowDuplicates = false): true | string {
  const roles = [...picked, ...splitRoleList(typed)];
  if (roles.length === 0) return 'Pick at least one role above, or name one here';
  try {
    checkRoleList(roles, { allowDuplicates });
    return true;
  } catch (error) {
    if (error instanceof SquadError) return `${error.message} — ${error.hint ?? ''}`.replace(/ — $/, '');
    throw error;
  }
}

export async function askWithPrompts(questions: InitQuestions): Promise<Partial<InitAnswers>> {
  // prompts colours with kleur 3, which knows NODE_DISABLE_COLORS but not NO_COLOR (no-color.org).
  if (process.env.NO_COLOR !== undefined && process.env.NO_COLOR !== '') process.env.NODE_DISABLE_COLORS = '1';
  const mod = (await import('prompts')) as unknown as { default?: Prompts } & Prompts;
  const prompts = mod.default ?? mod;
  const ask = async <T>(question: import('prompts').PromptObject): Promise<T> => {
    const answer = (await prompts(question, { onCancel: cancelled })) as Record<string, T>;
    return answer[question.name as string] as T;
  };
  // prompts prints a default as is, and the project's comes from package.json: shown (and kept) inert.
  const { defaults } = questions;
  const answers: Partial<InitAnswers> = {};

  if (questions.ask.project) {
    answers.project = (await ask<string>({ type: 'text', name: 'project', message: 'What are you building?', initial: inert(defaults.project) })).trim();
  }
  if (questions.ask.stack) {
    answers.stack = (await ask<string>({ type: 'text', name: 'stack', message: 'Which stack? (languages, frameworks)', initial: inert(defaults.stack) })).trim();
  }
  if (questions.ask.owner) {
    answers.owner = (await ask<string>({ type: 'text', name: 'owner', message: 'Who does the squad work for? (your name)', initial: inert(defaults.owner) })).trim();
  }
  if (questions.ask.roles) {
    const picked = await ask<string[]>({
      type: 'multiselect',
      name: 'roles',
      message: 'Which roles should the team have?',
      choices: questions.presets.map((preset) => ({
        title: preset.title,
        value: preset.title,
        description: preset.handles,
        selected: defaults.roles.includes(preset.title),
      })),
      hint: 'space to toggle, enter to confirm',
      instructions: false,
    });
    const custom = await ask<string>({
      type: 'text',
      name: 'custom',
      message: 'Other roles? (comma-separated, enter for none)',
      validate: (value: string) => customRolesProblem(picked, value, questions.allowDuplicateRoles),
    });
    answers.roles = [...picked, ...splitRoleList(custom)];
  }
  if (questions.ask.universe) {
    answers.universe = await ask<string>({
      type: 'select',
      name: 'universe',
      message: 'Cast member names from which universe?',
      choices: questions.universes.map((name) => ({ title: name, value: name })),
      initial: Math.max(0, questions.universes.indexOf(defaults.universe)),
    });
  }
  return answers;
}
