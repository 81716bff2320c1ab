/**
 * The spawn modes of a prompt: the one list the CLI's `--mode` choices and the core use.
 * This module imports nothing: the CLI shell (bundled for start-up time) includes it.
 */
export type SpawnMode = 'standard' | 'lightweight';
export const SPAWN_MODES: readonly SpawnMode[] = ['standard', 'lightweight'];
export const DEFAULT_SPAWN_MODE: SpawnMode = 'standard';
