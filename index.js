// Library entry: the public API of create-squad's core (see src/index.ts for the list).
export * from './dist/index.js';
