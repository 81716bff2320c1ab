import fs from 'node:fs';
import path from 'node:path';
import Handlebars from 'handlebars';
import { describe, expect, it } from 'vitest';
import { COMPILE_OPTIONS, TEMPLATE_HELPERS, renderTemplate } from '../../src/core/fs/templates.js';
import { foldLines } from '../../src/core/base/util.js';
import { escapeXmlLine } from '../../src/core/base/xml.js';
import { REPO_ROOT } from '../helpers/cli.js';

// `npm test` builds first, so dist/templates.precompiled.cjs is the build of the current templates.
const precompiledPath = path.join(REPO_ROOT, 'dist', 'templates.precompiled.cjs');

describe('precompiled templates', () => {
  it('cover every template with its current source, and render exactly like the compiler', async () => {
    const { templates } = (await import(precompiledPath)) as { templates: Record<string, { source: string; spec: unknown }> };
    const names = Object.keys(templates);
    expect(names).toContain('prompts/spawn-standard.md.hbs');
    expect(names).toContain('squad/charter.md.hbs');

    const runtime = Handlebars.create();
    const compiler = Handlebars.create();
    for (const hbs of [runtime, compiler]) {
      for (const [name, helper] of Object.entries(TEMPLATE_HELPERS)) hbs.registerHelper(name, helper);
    }
    const data = {
      name: 'Fenster <&> "x"',
      role: 'Core Dev',
      folder: 'fenster',
      project: 'P',
      stack: 'S',
      owner: 'O',
      universe: 'U',
      description: 'd',
      instruction: 'i\nj',
      title: 't',
      date: '2026-01-01',
      author: 'a',
      version: '1.0',
      agent: 'Fenster',
      members: [{ name: 'Keaton', role: 'Lead', folder: 'keaton' }],
      patterns: ['a merge=union'],
      task: 'T',
      charter: 'C',
    };
    for (const name of names) {
      const source = fs.readFileSync(path.join(REPO_ROOT, 'templates', ...name.split('/')), 'utf8');
      expect(templates[name]!.source, `${name} is stale: rebuild`).toBe(source);
      const viaSpec = runtime.template(templates[name]!.spec as Parameters<typeof Handlebars.template>[0])(data);
      const viaCompile = compiler.compile(source, COMPILE_OPTIONS)(data);
      expect(viaSpec, name).toBe(viaCompile);
    }
  });
});

describe('one rule to fold text onto one line', () => {
  const text = '  first\r\nsecond \u2028 third\u2029fourth\u0085fifth\n\n sixth  ';

  it('folds every kind of line break, in templates and in the XML of prompts alike', async () => {
    expect(foldLines(text)).toBe('first second third fourth fifth sixth');
    expect(escapeXmlLine(text)).toBe(foldLines(text));
    const rendered = await renderTemplate('prompts/mcp-requirements.md.hbs', {
      rows: [{ skill: 's', server: 'x', required: true, purpose: text, seen: 'none (cloud: ?)' }],
      missing: [],
    });
    expect(rendered).toContain(`| s | x | Yes | ${foldLines(text)} | none (cloud: ?) |`);
  });

  it('has no helpers nobody uses', () => {
    const sources = fs
      .readdirSync(path.join(REPO_ROOT, 'templates'), { recursive: true, encoding: 'utf8' })
      .filter((name) => name.endsWith('.hbs'))
      .map((name) => fs.readFileSync(path.join(REPO_ROOT, 'templates', name), 'utf8'))
      .join('\n');
    for (const helper of Object.keys(TEMPLATE_HELPERS)) expect(sources, helper).toMatch(new RegExp(`\\{\\{[#/]?${helper} `));
  });
});
