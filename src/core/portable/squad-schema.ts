/**
 * The shape of a `.squad` document (format 1.1) as one valibot schema: every field, its type, its
 * default, the name rules for agents and skills, the file objects. It is the one description of
 * the format: squad-validate.ts checks documents with it (then the limits, paths and casting shapes
 * that depend on options or on other entries), and `npm run build` turns it into the JSON Schema
 * shipped as `schema/squad-format.schema.json` (scripts/squad-json-schema.mjs).
 */
import * as v from 'valibot';
import { MAX_NAME_LENGTH, NAME_PATTERN, folderNameProblem } from '../base/names.js';
import { lazySchema, mapping, mustBe, objectMessage, ownRecord } from '../base/schema.js';
import { controlCharacterProblem, isMapping } from '../base/util.js';
import { SQUAD_FORMAT_VERSION, oneLine } from './squad-format.js';

/** Longest one-line field (`exported_at`, `exported_by`, `source.project`). */
export const MAX_PLAIN_LENGTH = 1000;

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** Base64 as Buffer.from would read it back exactly: the alphabet, padding at the end only, whole groups of four. */
export function isBase64(content: string): boolean {
  return content.length % 4 === 0 && BASE64.test(content);
}

const text = (description: string) => v.pipe(v.string(mustBe('a string')), v.description(description));

/** A text file that may be absent (or null). */
const optionalText = (description: string) => v.nullish(text(description));

/** A one-line field: at most MAX_PLAIN_LENGTH characters, no control character. */
const plain = (description: string) =>
  v.nullish(
    v.pipe(
      v.string(mustBe('a string')),
      v.maxLength(MAX_PLAIN_LENGTH, `is longer than ${MAX_PLAIN_LENGTH} characters`),
      v.check(
        (value) => controlCharacterProblem(value) === undefined,
        (issue) => controlCharacterProblem(issue.input as string) ?? '',
      ),
      v.description(description),
    ),
    '',
  );

/** An agent or skill name: the name rules (folderNameProblem); the pattern and length say the same to JSON Schema. */
const name = (what: string) =>
  v.pipe(
    v.string(),
    v.check(
      (value) => folderNameProblem(value, what) === undefined,
      (issue) => folderNameProblem(issue.input as string, what) ?? '',
    ),
    v.regex(NAME_PATTERN),
    v.maxLength(MAX_NAME_LENGTH),
  );

/** An object (absent or null: none). */
const object = <const Entries extends v.ObjectEntries>(entries: Entries, description: string) =>
  v.pipe(mapping(v.object(entries, objectMessage('an object', entries))), v.description(description));

const FILE_OBJECT = {
  content: v.pipe(v.string(mustBe('a string')), v.description('the file: UTF-8 text, or base64 when encoding is "base64"')),
  encoding: v.optional(v.picklist(['utf8', 'base64'], 'must be "utf8" or "base64"'), 'utf8'),
  mode: v.optional(v.picklist(['644', '755'], 'must be "644" or "755"'), '644'),
};

/** A file in a skill: its text, or {content, encoding, mode}. */
const fileEntry = () =>
  v.union(
    [
      v.string(),
      v.pipe(
        mapping(
          v.strictObject(FILE_OBJECT, (issue) =>
            issue.expected === 'never'
              ? `unexpected field "${oneLine(String(issue.input), 40)}" (a file has content, encoding and mode)`
              : objectMessage('a text string or an object {content, encoding, mode}', FILE_OBJECT)(issue),
          ),
        ),
        v.forward(
          v.check((file) => file.encoding !== 'base64' || isBase64(file.content), 'is not valid base64'),
          ['content'],
        ),
      ),
    ],
    mustBe('a text string or an object {content, encoding, mode}'),
  );

/** The files of one bucket of a skill, by path. */
const files = (description: string) => v.nullish(v.pipe(ownRecord(v.string(), fileEntry(), mustBe('an object')), v.description(description)), {});

const skill = () =>
  object(
    {
      skill_md: text('the SKILL.md, as text'),
      references: files('the files under references/, by path inside it'),
      scripts: files('the files under scripts/, by path inside it'),
      assets: files('the files under assets/, by path inside it'),
      files: files('every other file of the skill, by path inside the skill folder'),
      source: v.nullish(
        v.pipe(
          v.custom<Record<string, unknown>>(isMapping, mustBe('an object')),
          v.description('where the skill was added from: its entry in skills-lock.json, the project lock (skills update fetches from it)'),
        ),
      ),
    },
    'a skill: its SKILL.md and its other files',
  );

/** One skill (the JSON Schema defines it once, as `skill`). */
export const squadSkillSchema = lazySchema(skill);

const skills = (description: string) => v.nullish(v.pipe(ownRecord(name('skill name'), squadSkillSchema(), mustBe('an object')), v.description(description)), {});

/** A casting file's JSON: any object here; its shape is checked by the casting readers. */
const castingFile = (description: string) => v.nullish(v.pipe(v.custom<Record<string, unknown>>(isMapping, mustBe('an object')), v.description(description)));

/** The `.squad` document, format 1.1. Built on first use. */
export const squadDocumentSchema = lazySchema(() =>
  v.pipe(
    mapping(
      v.object(
        {
          squad_format_version: v.pipe(v.literal(SQUAD_FORMAT_VERSION), v.description('the format of this file')),
          exported_at: plain('when the squad was exported (ISO 8601)'),
          exported_by: plain('what exported it, e.g. "create-squad@0.1.0"'),
          source: v.nullish(object({ project: plain('the repository the squad came from') }, 'where the squad came from'), {}),
          team: v.nullish(
            object(
              {
                team_md: optionalText('.ai-team/team.md'),
                routing_md: optionalText('.ai-team/routing.md'),
                ceremonies_md: optionalText('.ai-team/ceremonies.md'),
                rules_md: optionalText('.ai-team/rules.md'),
                decisions_md: optionalText('.ai-team/decisions.md'),
                decisions_archive_md: optionalText('.ai-team/decisions-archive.md: older decisions compact moved out of decisions.md'),
                config_json: optionalText(".ai-team/config.json, as text: the squad's settings (its default model)"),
              },
              'the team files',
            ),
            {},
          ),
          casting: v.nullish(
            object(
              {
                policy: castingFile('.ai-team/casting/policy.json'),
                registry: castingFile('.ai-team/casting/registry.json'),
                history: castingFile('.ai-team/casting/history.json'),
              },
              'the casting files, as JSON',
            ),
            {},
          ),
          agents: v.pipe(
            ownRecord(
              name('agent name'),
              object(
                {
                  charter: optionalText("the member's charter.md"),
                  history: v.nullish(
                    object(
                      {
                        portable: v.nullish(text('what the member knows that holds in any project'), ''),
                        project: v.nullish(text('what the member learned about this project'), ''),
                      },
                      "the member's history.md, in two parts",
                    ),
                  ),
                  history_archive: optionalText("the member's history-archive.md: older history entries compact moved, as they are"),
                  skills: skills("the member's own skills, by name"),
                },
                'a member',
              ),
              mustBe('an object'),
            ),
            v.description('the members, by folder name'),
          ),
          team_skills: skills('the skills every member sees, by name'),
          decisions_inbox: v.nullish(
            v.pipe(
              ownRecord(v.string(), text('a decision not yet merged into decisions.md'), mustBe('an object')),
              v.description('.ai-team/decisions/inbox/: each file by its name'),
            ),
            {},
          ),
        },
        mustBe('a JSON object'),
      ),
    ),
    v.title('create-squad .squad document'),
    v.description(`A squad exported by create-squad (format ${SQUAD_FORMAT_VERSION}): one JSON document, see docs/squad-format.md.`),
  ),
);

export type SquadDocumentInput = v.InferInput<ReturnType<typeof squadDocumentSchema>>;
export type SquadDocumentOutput = v.InferOutput<ReturnType<typeof squadDocumentSchema>>;
