/**
 * Runs once per `vitest run`, in the main process: a folder the workers share for the run
 * (`sharedRunDir` in test/helpers/shared-run.ts), removed when the run ends. What is expensive to
 * make and only read afterwards (the original Squad's real squads after `upgrade`) is made there
 * once for the whole run instead of once per worker or per file.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The folder the workers of this run share (test/helpers/shared-run.ts). */
    sharedRunDir: string;
  }
}

export default function setup(project: TestProject): () => void {
  // Where the workers keep their temporary folders (vitest.config.ts sets TMPDIR for them, not for this process).
  const dir = fs.mkdtempSync(path.join(project.config.env.TMPDIR ?? os.tmpdir(), 'squad-run-'));
  project.provide('sharedRunDir', dir);
  return () => fs.rmSync(dir, { recursive: true, force: true });
}
