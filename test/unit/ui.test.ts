import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createUi, displayable, inert, shouldUseColor } from '../../src/cli/ui.js';

class Capture extends Writable {
  text = '';
  constructor(readonly isTTY = false) {
    super();
  }
  override _write(chunk: Buffer, _encoding: string, done: () => void): void {
    this.text += chunk.toString('utf8');
    done();
  }
}

describe('inert', () => {
  it('folds every kind of line break into one space', () => {
    expect(inert('one\ntwo\r\nthree\rfour\u2028five\u0085six')).toBe('one two three four five six');
    expect(inert('trailing  \n   indented')).toBe('trailing indented');
  });

  it('shows other control characters as escapes, keeps tabs and text', () => {
    expect(inert('\u001b[31mred\u001b[0m')).toBe('\\u001b[31mred\\u001b[0m');
    expect(inert('bell\u0007 del\u007f csi\u009b nul\u0000')).toBe('bell\\u0007 del\\u007f csi\\u009b nul\\u0000');
    expect(inert('tab\there — ✓ ünïcode')).toBe('tab\there — ✓ ünïcode');
  });
});

describe('displayable', () => {
  it('lets colours, tabs and line feeds through, escapes every other control sequence', () => {
    expect(displayable('\u001b[32m✓\u001b[39m done\n\tnext')).toBe('\u001b[32m✓\u001b[39m done\n\tnext');
    expect(displayable('a\u001b[2Jb\u001b]0;title\u0007c\rd\u009be')).toBe('a\\u001b[2Jb\\u001b]0;title\\u0007c\\u000dd\\u009be');
  });
});

describe('createUi', () => {
  it('prints warnings and errors as one inert line on stderr, nothing on stdout', () => {
    const stdout = new Capture();
    const stderr = new Capture();
    const ui = createUi({ stdout, stderr, env: {} });
    ui.warn('skill "x\u001b[2J"\nFAKE');
    ui.error('bad\r\nthing');
    expect(stderr.text).toBe('⚠ skill "x\\u001b[2J" FAKE\n✗ bad thing\n');
    expect(stdout.text).toBe('');
  });

  it('colours only a TTY, never with NO_COLOR or TERM=dumb; FORCE_COLOR turns it on', () => {
    expect(shouldUseColor({ isTTY: true }, {})).toBe(true);
    expect(shouldUseColor({ isTTY: false }, {})).toBe(false);
    expect(shouldUseColor({ isTTY: true }, { NO_COLOR: '1' })).toBe(false);
    expect(shouldUseColor({ isTTY: true }, { TERM: 'dumb' })).toBe(false);
    expect(shouldUseColor({ isTTY: false }, { FORCE_COLOR: '1' })).toBe(true);
    expect(shouldUseColor({ isTTY: false }, { FORCE_COLOR: '0' })).toBe(false);
    expect(shouldUseColor({ isTTY: false }, { FORCE_COLOR: '1', NO_COLOR: '1' })).toBe(false);
  });

  it('keeps a table row on one line and its cells inert, whatever a file put in them', () => {
    const stdout = new Capture();
    const ui = createUi({ stdout, stderr: new Capture(), env: {} });
    ui.table(['NAME', 'VERSION'], [['react', '1.0\nFAKE ROW\u001b[1A\u001b[2K']]);
    ui.out('line one\nline two \u001b[H');
    expect(stdout.text).toBe('NAME   VERSION\nreact  1.0 FAKE ROW\\u001b[1A\\u001b[2K\nline one\nline two \\u001b[H\n');
  });

  it('aligns table columns by visible width, ignoring colour codes', () => {
    const stdout = new Capture(true);
    const ui = createUi({ stdout, stderr: new Capture(), env: {} });
    ui.table(['NAME', 'SCOPE'], [[ui.style.green('a'), 'team'], ['longer-name', 'agent']]);
    const lines = stdout.text.split('\n').map((line) => line.replace(/\u001b\[\d+m/g, ''));
    expect(lines.slice(0, 3)).toEqual(['NAME         SCOPE', 'a            team', 'longer-name  agent']);
  });
});
