/** The JSON catalogs create-squad ships, read through their schemas. */
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { checkedTemplateJson } from '../../src/core/fs/templates.js';
import { defaultUniverseName, universes } from '../../src/core/roster/casting.js';
import { defaultRoles, rolePresets, roleCatalog } from '../../src/core/roster/roles.js';
import { roleTools, scribeTools } from '../../src/core/squad/agents/role-tools.js';

describe('the shipped catalogs', () => {
  it('match their schemas: universes with names, presets with their tools, the default roles among the presets', () => {
    expect(universes().length).toBeGreaterThan(5);
    expect(universes().map((u) => u.name)).toContain(defaultUniverseName());
    const titles = rolePresets().map((preset) => preset.title);
    for (const role of defaultRoles()) expect(titles).toContain(role);
    expect(titles).toContain(roleCatalog().lead);
    expect(roleTools('Lead')).toEqual(expect.arrayContaining(roleCatalog().memberTools.every));
    expect(scribeTools()).toEqual(expect.arrayContaining(roleCatalog().memberTools.scribe));
  });

  it('say which entry of a broken data file is wrong, and that the package needs reinstalling', () => {
    const schema = v.object({ universes: v.array(v.object({ name: v.number() })) });
    let error: unknown;
    try {
      checkedTemplateJson('casting/universes.json', schema);
    } catch (caught) {
      error = caught;
    }
    expect(error).toMatchObject({
      message: expect.stringMatching(/^data file templates\/casting\/universes\.json is broken in the create-squad package: universes\[0\]\.name: /),
      hint: 'reinstall create-squad; the package is incomplete',
    });
  });
});
