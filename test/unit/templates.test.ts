import fs from 'node:fs';
import path from 'node:path';
import Handlebars from 'handlebars';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../helpers/cli.js';

// `npm test` builds first, so dist/templates.precompiled.js is the build of the current templates.
const precompiledPath = path.join(REPO_ROOT, 'dist', 'templates.precompiled.js');

describe('precompiled templates', () => {
  it('cover every template with its current source, and render exactly like the compiler', async () => {
    const { templates } = (await import(precompiledPath)) as { templates: Record<string, { source: string; spec: unknown }> };
    const names = Object.keys(templates);
    expect(names).toContain('prompts/spawn-standard.md.hbs');
    expect(names).toContain('squad/charter.md.hbs');

    const runtime = Handlebars.create();
    const compiler = Handlebars.create();
    for (const hbs of [runtime, compiler]) {
      hbs.registerHelper('json', (v: unknown) => JSON.stringify(v ?? ''));
      hbs.registerHelper('oneLine', (v: unknown) => String(v ?? '').replace(/\s*[\r\n]+\s*/g, ' ').trim());
      hbs.registerHelper('cell', (v: unknown) => String(v ?? '').replace(/\|/g, '\\|'));
      hbs.registerHelper('eq', (a: unknown, b: unknown) => a === b);
    }
    const data = {
      name: 'Fenster <&> "x"', role: 'Core Dev', folder: 'fenster', project: 'P', stack: 'S', owner: 'O', universe: 'U',
      description: 'd', instruction: 'i\nj', title: 't', date: '2026-01-01', author: 'a', version: '1.0', agent: 'Fenster',
      members: [{ name: 'Keaton', role: 'Lead', folder: 'keaton' }], patterns: ['a merge=union'], task: 'T', charter: 'C',
    };
    for (const name of names) {
      const source = fs.readFileSync(path.join(REPO_ROOT, 'templates', ...name.split('/')), 'utf8');
      expect(templates[name]!.source, `${name} is stale: rebuild`).toBe(source);
      const viaSpec = runtime.template(templates[name]!.spec as Parameters<typeof Handlebars.template>[0])(data);
      const viaCompile = compiler.compile(source, { noEscape: true, strict: false })(data);
      expect(viaSpec, name).toBe(viaCompile);
    }
  });
});
