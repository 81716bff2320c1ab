/**
 * The kind of work a task asks for, read from how it is phrased rather than from what it is about:
 * "try odd titles and report what breaks" is testing whatever it tests, "is Postgres enough or do
 * we need Elasticsearch?" is a decision whatever it decides, "the discount field accepts expired
 * codes" is a bug to fix. Routing weighs the kind of work against the subject (route.ts): testing
 * and decisions go to whoever the team gives that kind of work, a bug report to whoever implements
 * when nothing else matched. The phrasings are data, one table; this module reads no file.
 */

export type WorkKind = 'testing' | 'decision' | 'lead-question' | 'implementation' | 'bug-report';

/**
 * How each kind of work is phrased, in the order route.ts consults them:
 * - `testing`: asking for tests, or for the behaviour to be tried, confirmed or reproduced;
 * - `decision`: a question of judgement (whether, which, enough, worth it), answered by the lead;
 * - `lead-question`: the lead's other subjects (architecture, scope, priorities, review), which
 *   yield to a routing.md row that names the subject;
 * - `implementation`: an implementation verb first ("Add pagination", "Send a receipt");
 * - `bug-report`: something misbehaves, or a fix is asked for at the end ("…; patch it").
 */
export const WORK_KIND_PHRASES: Readonly<Record<WorkKind, readonly RegExp[]>> = {
  testing: [
    /\b(?:write|writes|writing|add|adds|adding|need|needs|missing|more|extra|new|unit|integration|e2e|end-to-end|regression|smoke)\s+(?:[\w'-]+\s+){0,3}?tests?\b(?!\s+(?:button|page|account|user|server|environment|mode|data|card|email)s?\b)/i,
    /\btests?\s+(?:that|for|which|proving|covering)\b/i,
    /^\W*(?:please\s+)?(?:re-?)?test\b/i,
    /\btry\b(?:\s+[\w'-]+){0,4}?\s+(?:odd|weird|strange|unusual|bad|invalid|malformed|huge|giant|empty|blank|random|extreme|garbage|hostile|broken|nasty|long|negative|unicode|special)\b/i,
    /\btry(?:ing)? to break\b|\bpoke (?:at|around)\b/i,
    /\b(?:what|anything|something|where it) (?:breaks|crashes|fails|falls over)\b|\bsee (?:if|whether) (?:it|anything|something) (?:breaks|crashes|fails|falls over|holds up)\b/i,
    /\bwhat happens (?:when|if|with)\b/i,
    /\bdouble[- ]check\w*/i,
    /\bconfirm(?:s|ed)? (?:it|this|that|whether|if|the (?:bug|issue|crash|report|problem|fix))\b/i,
    /\breproduc\w*|\brepro\b/i,
    /\b(?:did|does|do|will)(?:n'?t| not) (?:break|regress)\b|\bstill (?:works?|passes|holds)\b/i,
    /\bverif(?:y|ies|ied)\s+(?:that|whether|if|it|the fix)\b/i,
  ],
  decision: [
    /(?<=^\W*|[.?!;:]\s*)should\s+(?:we|i|the|our|this|that|it|they)\b/i,
    /\b(?:is|are)\b[^.?!;]{0,60}?\b(?:enough|overkill|worth it|the right (?:call|choice|approach|tool))\b/i,
    /\bdo we (?:really )?(?:need|want)\b/i,
    /\bweigh(?:ing)? (?:it|them|this|that|up|the)\b/i,
    /\bthink (?:it|this|that) (?:through|over)\b/i,
    /\bpros and cons\b/i,
    /\bworth (?:it|doing|the (?:effort|cost|trouble|complexity))\b/i,
    /\b(?:which|what) (?:one|option|approach|library|framework|database|tool|stack) (?:should|is better|would)\b/i,
  ],
  'lead-question': [
    /\barchitect\w*|\bsystem design\b|\btrade-?offs?\b|\bdecid(?:e|es|ing)\b|\b(?:technical|architecture|architectural|design) decisions?\b/i,
    /\btech(?:nology)? stack\b|\badrs?\b|\bscope\b|\bprioriti\w*|\broadmap\b|\bsprints?\b|\bbacklog\b|\bmilestones?\b/i,
    /\bcode reviews?\b|\b(?:pull|merge)[- ]requests?\b|\bPRs?\b/i,
    /\b(?:go|goes|get|gets|make it|makes it|belongs?) in(?:to)? (?:the |this |our )?(?:next |upcoming |coming |first )?(?:release|version|iteration|cycle)\b/i,
    /\b(?:defer|postpone|punt)\w*|\bwhat (?:to|should we|do we|we should) (?:build|ship|tackle|cut|drop) (?:next|first)\b/i,
  ],
  implementation: [
    /^\W*(?:please\s+)?(?:add|implement|build|create|fix|patch|refactor|rewrite|extract|rename|support|integrate|extend|port|wire up|hook up|connect|enable|allow|let|change|update|upgrade|replace|remove|delete|move|convert|speed up|optimi[sz]e|paginate|validate|store|save|show|display|render|return|send|sort|filter)\b/i,
  ],
  'bug-report': [
    /\b(?:accepts?|ignores?|skips?|drops?|loses?|crash(?:es)?|throws?|hangs?|freezes?|duplicates?|double[- ]charges?)\b/i,
    /\bslips? through\b|\blets? (?:[\w'-]+ ){0,3}through\b/i,
    /\b(?:is|are|was|were|gets?|comes? out|shows?|returns?) (?:sometimes |always |often |still |now )?(?:wrong|broken|off by|missing|incorrect|empty|blank|stale|garbled)\b/i,
    /\b(?:doesn'?t|does not|don'?t|won'?t|can'?t|cannot|isn'?t|aren'?t|never) (?:work|save|load|show|appear|update|open|close|submit|send|arrive|render)\b/i,
    /\bbugs?\b|\bbroken\b|\bregressed\b/i,
    /[;,.:—-]\s*(?:please\s+)?(?:fix|patch|repair|sort out)\s+(?:it|this|that|them)\b/i,
  ],
};

/** The first phrase of `kind` the task holds, as the task wrote it; undefined when it holds none. */
export function workKindPhrase(task: string, kind: WorkKind): string | undefined {
  for (const pattern of WORK_KIND_PHRASES[kind]) {
    const found = pattern.exec(task);
    if (found) return found[0].trim();
  }
  return undefined;
}
