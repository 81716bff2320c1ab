/**
 * commander, loaded with require. It is a CommonJS package: importing it through ESM makes Node
 * analyse its exports at every start, which costs more than `--help` itself.
 */
import { createRequire } from 'node:module';
import type * as CommanderModule from 'commander';

const commander = createRequire(import.meta.url)('commander') as typeof CommanderModule;

export const { Command, Option, CommanderError } = commander;
export type Command = CommanderModule.Command;
export type Option = CommanderModule.Option;
export type CommanderError = CommanderModule.CommanderError;
