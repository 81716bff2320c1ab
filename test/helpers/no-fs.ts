/**
 * The file system switched off: every function of node:fs (and fs.promises) throws while `fn` runs,
 * so a decision that reads the disk fails loudly. Each planner's test runs its decide step this way.
 */
import fs from 'node:fs';
import { vi } from 'vitest';

/** Make every function of node:fs (and fs.promises) throw; returns the switch back on. */
export function switchOffFileSystem(): () => void {
  const off = <O extends object>(object: O, shown: string) =>
    Object.keys(object)
      .filter((key) => typeof (object as Record<string, unknown>)[key] === 'function' && /^[a-z]/.test(key))
      .map((key) =>
        vi.spyOn(object as Record<string, () => unknown>, key).mockImplementation(() => {
          throw new Error(`a check touched the file system: ${shown}${key}`);
        }),
      );
  const spies = [...off(fs, 'fs.'), ...off(fs.promises, 'fs.promises.')];
  return () => {
    for (const spy of spies) spy.mockRestore();
  };
}

/** Run `fn` with the file system switched off. */
export function withoutFileSystem<T>(fn: () => T): T {
  const restore = switchOffFileSystem();
  try {
    return fn();
  } finally {
    restore();
  }
}

/** withoutFileSystem for an async `fn`: the switch stays off until it settles. */
export async function withoutFileSystemAsync<T>(fn: () => Promise<T>): Promise<T> {
  const restore = switchOffFileSystem();
  try {
    return await fn();
  } finally {
    restore();
  }
}
