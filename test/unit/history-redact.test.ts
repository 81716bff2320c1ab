import { describe, expect, it } from 'vitest';
import { demoteHeadings, splitHistory } from '../../src/core/roster/history.js';
import { redactText } from '../../src/core/base/redact.js';
import { renderTemplate } from '../../src/core/fs/templates.js';
import { STATE_TEMPLATES } from '../../src/core/scaffold/scaffold.js';

describe('splitHistory', () => {
  it('splits the history init writes: Portable Knowledge travels as portable, the rest as project', async () => {
    const text = await renderTemplate(STATE_TEMPLATES.history, { name: 'Fenster', role: 'Core Dev', project: 'Shop' });
    const filled = text.replace('## Portable Knowledge\n\n', '## Portable Knowledge\n\n- Prefers tabs.\n').concat('\n- Orders live in src/orders.\n');
    expect(splitHistory(filled)).toEqual({
      portable: '- Prefers tabs.',
      project: [
        '## Project Context',
        '',
        '- **Project:** Shop',
        '- **Stack:** _not specified yet_',
        '- **Owner:** _not specified yet_',
        '- **My role:** Core Dev',
        '',
        '## Project Learnings',
        '',
        '- Orders live in src/orders.',
      ].join('\n'),
    });
    expect(splitHistory(text)).toEqual({ portable: '', project: expect.stringMatching(/^## Project Context[\s\S]*## Project Learnings$/) });
  });

  it('counts only level-2 headings outside code blocks, and any heading starting with "Portable"', () => {
    const text = [
      '# Title',
      'Loose note before any section.',
      '## Portable',
      '- a',
      '### Sub heading stays',
      '```md',
      '## Not a heading',
      '```',
      '## Learnings',
      '- b',
      '## portable knowledge ##',
      '- c',
    ].join('\r\n');
    expect(splitHistory(text)).toEqual({
      portable: '- a\n### Sub heading stays\n```md\n## Not a heading\n```\n### portable knowledge\n- c',
      project: 'Loose note before any section.\n## Learnings\n- b',
    });
  });

  it('keeps the heading of a second portable section, one level deeper', () => {
    const text = '# Ada\n\n## Portable Knowledge\n\n- small PRs\n\n## Learnings\n\n- pnpm\n\n## Portable: testing\n\n- tests first\n';
    expect(splitHistory(text)).toEqual({ portable: '- small PRs\n\n### Portable: testing\n\n- tests first', project: '## Learnings\n\n- pnpm' });
  });

  it('drops only lines that are exactly one comment: text beside or between comments stays', () => {
    const text = [
      '## Portable Knowledge',
      '<!-- What would still hold on another project. -->',
      '<!-- hint --> Ada wants small PRs <!-- end -->',
      '- Tabs. <!-- from the review -->',
      '  <!-- indented hint -->  ',
      '<!-- a --><!-- b -->',
    ].join('\n');
    expect(splitHistory(text).portable).toBe('<!-- hint --> Ada wants small PRs <!-- end -->\n- Tabs. <!-- from the review -->\n<!-- a --><!-- b -->');
  });

  it('is stable: splitting what an import wrote gives the same portable and project parts back', async () => {
    const parts = splitHistory('# X\n\n## Portable Knowledge\n\n- keep\n\n## Notes\n\n- there\n');
    const imported = await renderTemplate('import/history.md.hbs', {
      name: 'X',
      source: 'old',
      date: '2025-01-01',
      portable: parts.portable,
      project: demoteHeadings(parts.project),
    });
    const again = splitHistory(imported);
    expect(again.portable).toBe(parts.portable);
    // The learnings an import demoted under "Project Learnings (from old)" come back up a level, not one deeper per trip.
    expect(again.project).toBe(parts.project);
  });
});

describe('demoteHeadings', () => {
  it('adds a level to every heading up to h6, and leaves code blocks alone', () => {
    expect(demoteHeadings('# A\n## B\n###### F\n#nospace\n~~~\n## code\n~~~\n   ## indented')).toBe('## A\n### B\n###### F\n#nospace\n~~~\n## code\n~~~\n   ### indented');
  });
});

describe('redactText', () => {
  it.each([
    ['mail ada.lovelace+x@example.co.uk today', 'mail [REDACTED:email] today', 1, 0],
    ['gh token ghp_abcdefghijklmnopqrstuvwxyz0123456789AB here', 'gh token [REDACTED:secret] here', 0, 1],
    ['pat github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyz', 'pat [REDACTED:secret]', 0, 1],
    ['aws AKIAIOSFODNN7EXAMPLE key', 'aws [REDACTED:secret] key', 0, 1],
    ['openai sk-proj-abcdefghijklmnop1234567890', 'openai [REDACTED:secret]', 0, 1],
    ['slack xoxb-123456789012-abcdefghij', 'slack [REDACTED:secret]', 0, 1],
    ['password=hunter22!', 'password=[REDACTED:secret]', 0, 1],
    ['api_key: "Zx81kLmn0pQ"', 'api_key: "[REDACTED:secret]"', 0, 1],
    ['Authorization: Bearer abcdefghijklmnop.qrstuvwx', 'Authorization: Bearer [REDACTED:secret]', 0, 1],
    ['db postgres://admin:s3cret@db.internal:5432/app', 'db postgres://[REDACTED:secret]@db.internal:5432/app', 0, 1],
    ['key 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822c', 'key [REDACTED:secret]', 0, 1],
    ['key 4Kp9Xw2LmQ7vZr8tYb3NcJ6hGd1FsA5eWq0UoIiE', 'key [REDACTED:secret]', 0, 1],
    ['-----BEGIN RSA PRIVATE KEY-----\nMIIEow\n-----END RSA PRIVATE KEY----- after', '[REDACTED:secret] after', 0, 1],
    ['-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXkt', '[REDACTED:secret]', 0, 1],
    // Keys with a prefix (\b does not end a word before "_"), and the keys api_token and secret_key.
    ['DB_PASSWORD=hunter22!', 'DB_PASSWORD=[REDACTED:secret]', 0, 1],
    ['export GITHUB_TOKEN=Zx81kLmn0pQr', 'export GITHUB_TOKEN=[REDACTED:secret]', 0, 1],
    ['SECRET_KEY=Zx81kLmn0pQr', 'SECRET_KEY=[REDACTED:secret]', 0, 1],
    ['MY_API_KEY: Zx81kLmn0pQr', 'MY_API_KEY: [REDACTED:secret]', 0, 1],
    ['api_token: Zx81kLmn0pQr', 'api_token: [REDACTED:secret]', 0, 1],
    ['"secret-key": "Zx81kLmn0pQr"', '"secret-key": "[REDACTED:secret]"', 0, 1],
    [`Authorization: Basic ${Buffer.from('ada:s3cret-pass').toString('base64')}`, 'Authorization: Basic [REDACTED:secret]', 0, 1],
    ['hook https://hooks.slack.com/services/T0001ABCD/B0002EFGH/abcdefghijklmnopqrstuvwx done', 'hook [REDACTED:secret] done', 0, 1],
    ['cache redis://:s3cretpass@cache.internal:6379/0', 'cache redis://[REDACTED:secret]@cache.internal:6379/0', 0, 1],
    // The other side of each kept case below: the same shape, but a secret.
    ['Token: Jwt9xKq2LmZ', 'Token: [REDACTED:secret]', 0, 1],
    ['secret: c0nfig-S3cret!', 'secret: [REDACTED:secret]', 0, 1],
    ['pwd=ab/Q7vZr8tYb3NcJ6hGd1FsA5eWq0', 'pwd=[REDACTED:secret]', 0, 1],
    ['write to git@example.com today', 'write to [REDACTED:email] today', 1, 0],
    ['mail ada@example.com: she knows', 'mail [REDACTED:email]: she knows', 1, 0],
    ['mail font@example.io', 'mail [REDACTED:email]', 1, 0],
    ['key 4Kp9Xw2LmQ7vZr8t/Yb3NcJ6hGd1FsA5eWq0UoIiE', 'key [REDACTED:secret]', 0, 1],
    ['key 4Kp9Xw2LmQ7vZr8tYb3N/cJ6hGd1FsA5eWq0UoIiE+xY=', 'key [REDACTED:secret]', 0, 1],
    // An address that ends a sentence: the full stop is not part of it.
    ['- Contact alice@example.com.', '- Contact [REDACTED:email].', 1, 0],
    ['- End: grace@example.co.uk.', '- End: [REDACTED:email].', 1, 0],
    ['- ping bob+tag@sub.example.co.uk.', '- ping [REDACTED:email].', 1, 0],
    ['Ask ada@example.com? Or bob@example.org! Or eve@example.net...', 'Ask [REDACTED:email]? Or [REDACTED:email]! Or [REDACTED:email]...', 3, 0],
    // Letters of any script, an apostrophe in the local part, quotes around the address.
    ['mail first.last@exämple.de now', 'mail [REDACTED:email] now', 1, 0],
    ["mail o'brien@example.com now", 'mail [REDACTED:email] now', 1, 0],
    ["mail 'ada@example.com' now", "mail '[REDACTED:email]' now", 1, 0],
    ['gitlab glpat-AbCdEf1234567890GhIj here', 'gitlab [REDACTED:secret] here', 0, 1],
    ['deploy gldt-AbCdEf1234567890GhIj here', 'deploy [REDACTED:secret] here', 0, 1],
  ])('redacts %j', (text, expected, email, secret) => {
    expect(redactText(text)).toEqual({ text: expected, counts: { email, secret } });
  });

  it.each([
    'commit 3f786850e387550fdab836ed7e6dc881de23001b fixed it',
    'see src/components/OrderList/OrderListItem/index.tsx for it',
    'the token: expires daily',
    'token: ${GITHUB_TOKEN} from the environment',
    'password: <your password>',
    'use logo@2x.png on retina screens',
    'the react-component-patterns skill and the api-design skill',
    'npm i @scope/pkg@1.2.3',
    // Prose, paths and digests that an assignment or a pattern used to take for secrets.
    'Token: JWT-based auth',
    'secret: config/secrets.yaml',
    'api_key: docs/setup.md',
    'pwd: /home/ada/projects/recipes',
    'token_count: 12345678',
    'Basic authentication is used; Basic Authentication12',
    'remote git@github.com:acme/app.git',
    'use font@1.5x.woff2 and font@1.5x.woff',
    'use font@1.5x.woff2. Then logo@2x.png.',
    'clone ssh://git@gitlab.com/acme/app.git.',
    'remote git@github.com:acme/app.git.',
    'see apps/WebPortal/src/Kyc2/Verification/KycDocumentUploadHandler.ts',
    'src/components/OrderList/OrderListItem/OrderListItemView2/index.tsx',
    'in apps/WebPortal/src/Kyc2/BankXfer/QuickZap/JsonGrid9/MvpDyLow.tsx and src/Api/V2/Kyc/JwtBearerFx9/QuickZipMover/DbPgVault7',
    'sha256 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08',
  ])('keeps %j', (text) => {
    expect(redactText(text)).toEqual({ text, counts: { email: 0, secret: 0 } });
  });
});
