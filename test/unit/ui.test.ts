import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createUi, inert, jsonDocument, shouldUseColor, style } from '../../src/cli/ui.js';

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

function capture(env: NodeJS.ProcessEnv = {}, tty = { stdout: false, stderr: false }) {
  const stdout = new Capture(tty.stdout);
  const stderr = new Capture(tty.stderr);
  return { stdout, stderr, ui: createUi({ stdout, stderr, env }) };
}

/** Every control character but the line feeds that end lines and the colour sequences the Ui adds. */
const RAW_CONTROL = /(?!\u001b\[(?:1|2|22|31|32|33|36|39)m)[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/;

/** A hostile field: cursor moves, screen clear, a colour, a window title, C1 CSI, bidi override, CR, LF. */
const HOSTILE = 'x\u001b[1A\u001b[2K\u001b[31mred\u001b]0;pwned\u0007\u009b2J\u202e!\rCR\nLF';

describe('inert', () => {
  it('folds every kind of line break, with the blanks around it, into one space', () => {
    expect(inert('one\ntwo\r\nthree\rfour\u2028five\u0085six')).toBe('one two three four five six');
    expect(inert('trailing  \n   indented')).toBe('trailing indented');
    expect(inert('  indent kept')).toBe('  indent kept');
  });

  it('shows every other control character as its escape, keeps text', () => {
    expect(inert('\u001b[31mred\u001b[0m')).toBe('\\u001b[31mred\\u001b[0m');
    expect(inert('bell\u0007 del\u007f csi\u009b nul\u0000 tab\t')).toBe('bell\\u0007 del\\u007f csi\\u009b nul\\u0000 tab\\u0009');
    expect(inert('\u001b]0;pwned\u0007')).toBe('\\u001b]0;pwned\\u0007');
    expect(inert('abc\u202edef\u2066')).toBe('abc\\u202edef\\u2066');
    expect(inert('— ✓ ünïcode 名前')).toBe('— ✓ ünïcode 名前');
  });
});

describe('jsonDocument', () => {
  it('escapes the controls JSON.stringify leaves raw, and reads back as the same value', () => {
    const value = { name: 'a\u001b[2J\u007f\u009b\u2028\u202e\n', list: ['\u0085'] };
    const text = jsonDocument(value);
    expect(text).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u2028\u2029\u202e]/);
    expect(text).toContain('"a\\u001b[2J\\u007f\\u009b\\u2028\\u202e\\n"');
    expect(JSON.parse(text)).toEqual(value);
  });
});

describe('createUi', () => {
  it('prints warnings and errors as one inert line on stderr, nothing on stdout', () => {
    const { stdout, stderr, ui } = capture();
    ui.warn('skill "x\u001b[2J"\nFAKE');
    ui.error('bad\r\nthing');
    expect(stderr.text).toBe('⚠ skill "x\\u001b[2J" FAKE\n✗ bad thing\n');
    expect(stdout.text).toBe('');
  });

  it('makes every method print one line whatever its text holds', () => {
    const { stdout, stderr, ui } = capture({ FORCE_COLOR: '1' });
    ui.out(style.red('✗'), ' ', HOSTILE);
    ui.success(HOSTILE);
    ui.note(HOSTILE);
    ui.warn(HOSTILE);
    ui.error(style.dim(HOSTILE));
    ui.table(['NAME'], [[HOSTILE]]);
    for (const text of [stdout.text, stderr.text]) expect(text).not.toMatch(RAW_CONTROL);
    expect(stdout.text.split('\n')).toHaveLength(5);
    expect(stderr.text.split('\n')).toHaveLength(4);
    expect(stdout.text).toContain('x\\u001b[1A\\u001b[2K\\u001b[31mred\\u001b]0;pwned\\u0007\\u009b2J\\u202e! CR LF');
  });

  it('colours only the styled pieces; a colour sequence in the text stays escaped', () => {
    const { stdout, ui } = capture({ FORCE_COLOR: '1' });
    ui.out(style.green('✓'), ' \u001b[32mfake\u001b[39m');
    expect(stdout.text).toBe('\u001b[32m✓\u001b[39m \\u001b[32mfake\\u001b[39m\n');
  });

  it('makes the text of a styled piece inert too, and prints it plain without colour', () => {
    const coloured = capture({ FORCE_COLOR: '1' });
    coloured.ui.out(style.dim('fix: \u001b[2Jnow\nplease'));
    expect(coloured.stdout.text).toBe('\u001b[2mfix: \\u001b[2Jnow please\u001b[22m\n');
    const plain = capture();
    plain.ui.out(style.dim('fix: now'));
    expect(plain.stdout.text).toBe('fix: now\n');
  });

  it('turns a styled piece pasted into a template string into its plain, inert text', () => {
    const { stdout, ui } = capture({ FORCE_COLOR: '1' });
    ui.out(`${style.red('✗ \u001b[2J')} done`);
    expect(stdout.text).toBe('✗ \\u001b[2J done\n');
  });

  it('colours each stream as that stream allows', () => {
    const { stdout, stderr, ui } = capture({}, { stdout: true, stderr: false });
    ui.success('ok');
    ui.warn('careful');
    expect(stdout.text).toBe('\u001b[32m✓\u001b[39m ok\n');
    expect(stderr.text).toBe('⚠ careful\n');
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
    const { stdout, ui } = capture();
    ui.table(['NAME', 'VERSION'], [['react', '1.0\nFAKE ROW\u001b[1A\u001b[2K']]);
    ui.out('line one\nline two \u001b[H');
    expect(stdout.text).toBe('NAME   VERSION\nreact  1.0 FAKE ROW\\u001b[1A\\u001b[2K\nline one line two \\u001b[H\n');
  });

  it('aligns table columns by the width the terminal shows: colours count nothing, an escape its characters', () => {
    const { stdout, ui } = capture({}, { stdout: true, stderr: false });
    ui.table(
      ['NAME', 'SCOPE'],
      [
        [style.green('a'), 'team'],
        ['b\u0007', 'agent'],
        ['longer-name', ''],
      ],
    );
    const lines = stdout.text.split('\n').map((line) => line.replace(/\u001b\[\d+m/g, ''));
    expect(lines.slice(0, 4)).toEqual(['NAME         SCOPE', 'a            team', 'b\\u0007      agent', 'longer-name']);
  });
});
