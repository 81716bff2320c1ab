/**
 * The order vitest starts test files in. Without timings of its own (a fresh checkout, CI after
 * npm ci) vitest starts the largest files first, and the files that run long for their size (they
 * wait on real processes, terminals and timers, or evaluate the skills corpus) came last: one
 * worker ran on alone for seconds after the others had finished (route-eval.test.ts started 93 s
 * into a 100 s run). These start first, longest first; a listed file renamed or removed only loses
 * its place at the front.
 */
import { BaseSequencer, type TestSpecification } from 'vitest/node';

const LONG_FOR_THEIR_SIZE = [
  'test/e2e/process.test.ts',
  'test/e2e/concurrency.test.ts',
  'test/e2e/mcp-process.test.ts',
  'test/e2e/init-tty.test.ts',
  'test/e2e/route-eval.test.ts',
  // Each runs many commands on the original Squad's real squads (../shared/data), upgraded once for the run.
  'test/e2e/original-data.test.ts',
  'test/e2e/original-stale-paths.test.ts',
  'test/e2e/commit-hint.test.ts',
  'test/e2e/doctor-mcp.test.ts',
];

function rank(spec: TestSpecification): number {
  const at = LONG_FOR_THEIR_SIZE.findIndex((file) => spec.moduleId.replaceAll('\\', '/').endsWith(file));
  return at === -1 ? LONG_FOR_THEIR_SIZE.length : at;
}

export class LongFilesFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    // Array.prototype.sort is stable: the other files keep vitest's order.
    return (await super.sort(files)).sort((a, b) => rank(a) - rank(b));
  }
}
