/**
 * commander, in one place. The CLI shell's bundle (scripts/bundle-cli.mjs) compiles it in, so
 * starting the CLI resolves no package and loads commander's `node:child_process` only on use.
 */
export { Command, CommanderError, Option } from 'commander';
