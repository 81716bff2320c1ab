import { describe, expect, it } from 'vitest';
import { shippedOwnedFiles } from '../../src/core/squad/owned.js';
import { STATE_TEMPLATES_FOLDER, TEMPLATES_COPY_DIR, stateTemplate, templateCopyPath } from '../../src/core/base/paths.js';
import { STATE_TEMPLATES } from '../../src/core/scaffold/scaffold.js';

describe('state templates and their .ai-team-templates/ copies', () => {
  it('name a template and its copy from one folder constant', () => {
    expect(stateTemplate('charter.md')).toBe(`${STATE_TEMPLATES_FOLDER}/charter.md.hbs`);
    expect(templateCopyPath(stateTemplate('charter.md'))).toBe(`${TEMPLATES_COPY_DIR}/charter.md`);
  });

  it('every template init renders is shipped as a copy, at the path doctor points to', async () => {
    const copies = new Set((await shippedOwnedFiles()).filter((f) => f.kind === 'template').map((f) => f.path));
    for (const template of Object.values(STATE_TEMPLATES)) expect(copies, template).toContain(templateCopyPath(template));
  });
});
