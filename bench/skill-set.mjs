/**
 * Realistic synthetic skills for the benchmark, written by our own code from a fixed seed, so two
 * runs measure the same files: a two- to four-word name, a description of 200–600 characters (a
 * plain, quoted or folded scalar, as skills write them), metadata, and a body of 2–8 KB.
 */
import fs from 'node:fs';
import path from 'node:path';

/** A small deterministic generator (mulberry32): the same seed gives the same skills. */
export function random(seed) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const TOPICS = (
  'api pagination orders billing invoices payments refunds search indexing cache queue worker retry ' +
  'migration schema database postgres sqlite redis kafka logging tracing metrics alerting dashboard ' +
  'frontend react forms validation accessibility layout theme tokens icons charts tables export import ' +
  'csv pdf spreadsheet images thumbnails upload storage buckets auth login sessions tokens permissions ' +
  'roles audit release changelog versioning docker kubernetes helm terraform deploy rollback canary ' +
  'testing fixtures mocks snapshots coverage lint format typescript python rust golang java kotlin ' +
  'swift android ios mobile push email templates notifications webhooks graphql grpc rest openapi ' +
  'localization translation dates currency timezones security secrets encryption backups monitoring'
).split(' ');
const VERBS = 'design review write refactor debug profile document migrate configure test deploy secure harden tune'.split(' ');
const FILLER = (
  'Use this skill when the work touches {t} or {u}. It explains the conventions this team follows for {t}, ' +
  'the checks to run before a change is merged, and the mistakes that were made before. ' +
  'Covers how to {v} the {u} layer, which files hold the {t} settings, and how to verify the result. ' +
  'Prefer it over general advice when the task names {t}, {u} or a closely related area. '
)
  .split('. ')
  .map((s) => s.trim())
  .filter(Boolean);

function pick(next, list) {
  return list[Math.floor(next() * list.length)];
}

function sentence(next) {
  return pick(next, FILLER)
    .replace(/\{t\}/g, () => pick(next, TOPICS))
    .replace(/\{u\}/g, () => pick(next, TOPICS))
    .replace(/\{v\}/g, () => pick(next, VERBS))
    .replace(/\.?$/, '.');
}

/** Text of `min`..`max` characters, whole sentences. */
function prose(next, min, max) {
  const target = min + Math.floor(next() * (max - min));
  let text = '';
  while (text.length < target) text += (text ? ' ' : '') + sentence(next);
  return text.length > max ? `${text.slice(0, max - 1).trimEnd()}.` : text;
}

function body(next, name) {
  const target = 2048 + Math.floor(next() * 6144);
  const parts = [`# ${name}\n`];
  let size = parts[0].length;
  let section = 0;
  while (size < target) {
    const part =
      section % 3 === 2
        ? `\n\`\`\`sh\nnpm run ${pick(next, VERBS)} -- --${pick(next, TOPICS)}\n\`\`\`\n`
        : `\n## ${pick(next, VERBS)} ${pick(next, TOPICS)}\n\n${prose(next, 300, 900)}\n`;
    parts.push(part);
    size += part.length;
    section += 1;
  }
  return parts.join('');
}

/** The text of one SKILL.md: the i-th skill of the set. */
export function skillFile(next, name) {
  const description = prose(next, 200, 600);
  const style = next();
  const descriptionYaml =
    style < 0.5
      ? `description: ${description}`
      : style < 0.75
        ? `description: "${description}"`
        : `description: >-\n${description
            .match(/.{1,78}(\s|$)/g)
            .map((line) => `  ${line.trim()}`)
            .join('\n')}`;
  const license = next() < 0.3 ? 'license: MIT\n' : '';
  return `---\nname: ${name}\n${descriptionYaml}\n${license}metadata:\n  author: bench\n  version: "1.${Math.floor(next() * 20)}"\n---\n\n${body(next, name)}`;
}

/** Write `count` skills into `dir` (one folder each, named like the skill). Returns the names. */
export function writeSkillSet(dir, count, seed = 19) {
  const next = random(seed);
  const names = [];
  for (let i = 0; i < count; i += 1) {
    const words = 2 + Math.floor(next() * 3);
    const name = `${Array.from({ length: words }, () => pick(next, TOPICS)).join('-')}-${i}`;
    const skillDir = path.join(dir, name);
    fs.mkdirSync(skillDir, { recursive: true });
    fs.writeFileSync(path.join(skillDir, 'SKILL.md'), skillFile(next, name));
    names.push(name);
  }
  return names;
}
