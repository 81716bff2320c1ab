/**
 * The squad's files against the limits the commands hold them to (base/limits.ts): a file larger
 * than create-squad reads, a charter or rules file over what teach keeps it to, a standing rule over
 * a rule's size, and control or bidirectional characters in what every prompt inlines.
 */
import { RULE_MAX_BYTES, STATE_FILE_MAX_BYTES, bytesText } from '../../base/limits.js';
import { hiddenCharacterCount } from '../../base/visible-text.js';
import { formatBytes } from '../../base/util.js';
import { readRulesSection, standingRulesFileLimit } from '../../team/standing-rules.js';
import type { Finding } from '../catalog.js';
import type { DoctorState, LimitedFile } from '../read.js';

/** What a file over the read limit breaks, by kind. */
const UNREADABLE: Record<LimitedFile['kind'], string> = {
  charter: 'prompt refuses that member and route reads only its start',
  rules: 'prompt refuses every member',
  history: 'export refuses the squad, and the member cannot read its history whole',
  decisions: 'the members cannot read the decisions whole',
};

/** A size over `limit` as people read it, in bytes when rounding would make it look equal to the limit. */
function sizeOver(bytes: number, limit: number): string {
  return formatBytes(bytes) === formatBytes(limit) ? bytesText(bytes) : formatBytes(bytes);
}

export function checkLimits(state: DoctorState): Finding[] {
  const findings: Finding[] = [];
  for (const file of state.limited) {
    if (file.bytes > STATE_FILE_MAX_BYTES) {
      // Charters and rules break commands; a history or the decisions only the members' reading.
      const breaks = file.kind === 'charter' || file.kind === 'rules';
      findings.push({
        severity: breaks ? 'error' : 'warning',
        code: 'file-too-large',
        path: file.path,
        message: `${file.path} is ${sizeOver(file.bytes, STATE_FILE_MAX_BYTES)}, more than create-squad reads (${formatBytes(STATE_FILE_MAX_BYTES)}): ${UNREADABLE[file.kind]}`,
        fix: `shorten it below ${formatBytes(STATE_FILE_MAX_BYTES)}: move old entries to a file outside ${file.path.slice(0, file.path.indexOf('/'))}/`,
      });
      continue;
    }
    if (file.text === undefined) continue;
    const limit = standingRulesFileLimit(file.kind === 'charter');
    if (file.bytes > limit) {
      findings.push({
        severity: 'warning',
        code: 'standing-rules-too-large',
        path: file.path,
        message: `${file.path} is ${sizeOver(file.bytes, limit)}, more than teach keeps it to (${formatBytes(limit)}): every prompt inlines it whole, and teach adds no more rules to it`,
        fix: 'remove rules that no longer hold and other long text from it',
      });
    }
    const long = readRulesSection(file.text).filter((rule) => Buffer.byteLength(rule) > RULE_MAX_BYTES);
    if (long.length > 0) {
      findings.push({
        severity: 'warning',
        code: 'standing-rule-too-long',
        path: file.path,
        message: `${file.path} has ${long.length === 1 ? 'a standing rule' : `${long.length} standing rules`} longer than ${formatBytes(RULE_MAX_BYTES)} (the first starts "${long[0]!.slice(0, 40).replace(/\p{Cc}/gu, '')}…")`,
        fix: 'say in one line what always holds, or move the longer text into a skill ("create-squad teach --skill")',
      });
    }
    const unsafe = hiddenCharacterCount(file.text);
    if (unsafe > 0) {
      findings.push({
        severity: 'warning',
        code: 'control-characters',
        path: file.path,
        message: `${file.path} holds ${unsafe} control or bidirectional character${unsafe === 1 ? '' : 's'} (a terminal escape, NUL, a text-direction override): every prompt inlines them, and they can hide what the text says`,
        fix: 'remove them in an editor that shows invisible characters; teach never writes them',
      });
    }
  }
  return findings;
}
