/**
 * The kind of work a task asks for, read from how it is phrased rather than from what it is about:
 * "try odd titles and report what breaks" is testing whatever it tests, "is Postgres enough or do
 * we need Elasticsearch?" is a decision whatever it decides, "the discount field accepts expired
 * codes" is a bug to fix. Routing weighs the kind of work against the subject (route.ts): testing
 * and decisions go to whoever the team gives that kind of work, a bug report to whoever implements
 * when nothing else matched. The phrasings are data, one table; this module reads no file.
 */

export type WorkKind = 'approval' | 'review' | 'testing' | 'decision' | 'lead-question' | 'implementation' | 'bug-report' | 'triage';

/**
 * How each kind of work is phrased, in the order route.ts consults them:
 * - `approval`: asking someone for a yes (an approval, a sign-off, a go-ahead, a go-live);
 * - `review`: a change to read and accept or send back (a PR, a branch, a diff), not a review of a subject ("a security review");
 * - `testing`: asking for tests, or for the behaviour to be tried, confirmed or reproduced;
 * - `decision`: a question of judgement (whether, which, enough, worth it), answered by the lead;
 * - `lead-question`: the lead's other subjects (architecture, scope, priorities, review), which
 *   yield to a routing.md row that names the subject;
 * - `implementation`: an implementation verb first ("Add pagination", "Send a receipt");
 * - `bug-report`: something misbehaves, or a fix is asked for at the end ("…; patch it");
 * - `triage`: a question, or planning, reviewing or deciding: what nothing else matched goes to the
 *   lead when it is one of these, to whoever implements otherwise.
 */
export const WORK_KIND_PHRASES: Readonly<Record<WorkKind, readonly RegExp[]>> = {
  approval: [
    /\bapprov\w*|\bsign[- ]?offs?\b|\bsay(?:s)? yes\b|(?<=\b(?:a|the|final|your|their|our) )yes\b|\bgreen[- ]light\b|(?<=\b(?:the|a|your|their|our) )go[- ]ahead\b|\bgo-ahead\b|\bgo live\b|\bthumbs[- ]up\b|(?<=\b(?:the|an|final|product|your|their|our) )ok(?:ay)?\b(?!\s+(?:button|key|link|dialog|box))|\bok(?:ay)? to (?:ship|release|launch)\b|\bgo\/no[- ]go\b|\bblessing\b/i,
  ],
  review: [
    /\breview (?:it|this|that|the (?:pr|pull request|change|changes|branch|diff|patch))\b|\b(?:approve|accept) or reject\b|\blook (?:it )?over (?:the |this |that )?(?:pr|pull request|branch|changes|diff)\b|\bgive (?:it|the pr|this) a (?:critical )?read\b/i,
    /\b(?:up|ready) for (?:a )?review\b|\bsecond pair of eyes\b|\bapprove (?:it |this |them )?or (?:bounce|reject|send (?:it )?back|list)\b/i,
    /\bgo (?:through|over) the (?:changes|diff|branch|pr|patch)\b|\bread the (?:diff|changes|patch)\b|\b(?:they|it)(?:'re| are| is|'s) any good\b/i,
  ],
  testing: [
    /\b(?:write|writes|writing|add|adds|adding|need|needs|missing|more|extra|new|unit|integration|e2e|end-to-end|regression|smoke)\s+(?:[\w'-]+\s+){0,3}?tests?\b(?!\s+(?:button|page|account|user|server|environment|mode|data|card|email)s?\b)/i,
    /\btests?\s+(?:that|for|which|proving|covering)\b/i,
    /^\W*(?:please\s+)?(?:re-?)?test\b/i,
    /\btry\b(?:\s+[\w'-]+){0,4}?\s+(?:odd|weird|strange|unusual|bad|invalid|malformed|huge|giant|empty|blank|random|extreme|garbage|hostile|broken|nasty|long|negative|unicode|special)\b/i,
    /\btry(?:ing)? to break\b|\bpoke (?:at|around)\b/i,
    /\b(?:what|anything|something|where it) (?:breaks|crashes|fails|falls over)\b|\bsee (?:if|whether) (?:it|anything|something) (?:breaks|crashes|fails|falls over|holds up)\b/i,
    /\bwhat happens\b|\band see (?:what|how|if|whether)\b|\bprove (?:it|that|this)\b|\bsupposedly\b/i,
    /\b(?:goes|went|go) wrong\b|\bdon'?t fix\b|\bshow it happening\b|\bcheck (?:that )?nothing\b|\blooks? broken\b|\bdoes anything (?:get|go|break)\b/i,
    /\bwhat (?:does|do|would|will) (?:the |our |it )?[\w-]* ?(?:do|say|show) (?:when|if|with)\b/i,
    /\bdouble[- ]check\w*/i,
    // Something is done to the product and the answer is how it copes: "…and tell me whether any get lost".
    /\btell (?:me|us) (?:whether|if|where) (?:it|any|anything|something|they|the (?:app|page|site|server|api))\b(?![^.?!]{0,20}\b(?:good|safe|ready|ok|okay|fine|worth)\b)|\bwhere it (?:falls apart|gives up|chokes|struggles)\b/i,
    /\b(?:write|note|jot) down how (?:it|they|the \w+) (?:copes?|cope|handles?|behaves?|reacts?|responds?)\b|\bhow (?:it|they) (?:copes?|holds? up)\b/i,
    /\b(?:we'?d|we would|we'?ll|we will|would we|to) (?:catch|notice|spot) (?:it|that|this|them|any|a|an|the)\b[^.?!]{0,40}\b(?:if|when|before)\b/i,
    /^\W*(?:please\s+)?(?:check|make sure|ensure)\s+(?:that\s+)?[^.?!]{0,120}?\b(?:right|correct|correctly|properly|as expected)\b/i,
    /\bconfirm(?:s|ed)? (?:it|this|that|whether|if|the (?:bug|issue|crash|report|problem|fix))\b/i,
    /\breproduc\w*|\brepro\b/i,
    /\b(?:did|does|do|will)(?:n'?t| not) (?:break|regress)\b|\bstill (?:works?|passes|holds)\b/i,
    /\bverif(?:y|ies|ied)\s+(?:that|whether|if|it|the fix)\b/i,
    /\b(?:browser|ui|e2e|end-to-end|unit|integration|smoke|snapshot|regression|load) tests?\b|\b(?:gaps?|holes?) in (?:the |our )?(?:tests?|coverage)\b|\btests?\b[^.?!]{0,60}?\b(?:enough|holes|gaps)\b/i,
    /\b(?:nothing|no tests?) (?:covers?|tests?|checks)\b|\bcover (?:it|them|this|that|these|those)\b(?!\s+(?:up|in|with)\b)|\buntested\b/i,
  ],
  decision: [
    /(?<=^\W*|[.?!;:]\s*)should\s+[\w'-]+/i,
    /\bdo we\b[^.?!]{0,80}\bor\b|\bmake (?:the|a) call\b|\bgive (?:us|me) a direction\b/i,
    /\bwhether\b[^.?!]{0,80}\bor\b|\bsettle (?:it|this|that|the)\b|\bcan'?t agree\b|\bdisagree (?:on|about|over|whether)\b/i,
    /\b(?:are|is) we\b[^.?!]{0,80}\bor\b|(?<!\b(?:users?|people|customers?|shoppers?|members?|them|they|to|can|could) )\bpick (?:who|what|which)\b|\bcomes? first\b|\bis (?:it|this|that) worth\b/i,
    /\b(?:what|which)\b[^.?!]{0,40}\b(?:build|ship|tackle|cut|drop|finish(?:ed)?|do|park) (?:next|first)\b|\bwhich (?:one|do we|should we)\b/i,
    /\bwhere should\b|\bis (?:that|this|it) (?:a|the) direction\b/i,
    /\bwhat(?:'s| is) the call\b|\bor a trap\b|\bwould\b[^.?!]{0,80}\bbe (?:a |an )?(?:good|bad|sane|smart|wise|reasonable|terrible)\b/i,
    /\b(?:is|are)\b[^.?!;]{0,60}?\b(?:enough|overkill|worth it|the right (?:call|choice|approach|tool))\b/i,
    /\bdo we (?:really )?(?:need|want)\b/i,
    /\bweigh(?:ing)? (?:it|them|this|that|up|the)\b/i,
    /\bthink (?:it|this|that) (?:through|over)\b/i,
    /\bpros and cons\b/i,
    /\bworth (?:it|doing|the (?:effort|cost|trouble|complexity))\b/i,
    /\b(?:which|what) (?:one|option|approach|library|framework|database|tool|stack) (?:should|is better|would)\b/i,
    /\b(?:and|then) (?:choose|pick|decide)\s*(?:[.!?]|$)|(?<=^\W*|[.?!;:]\s*|\b(?:please|just) )(?:choose|pick|decide) (?:between|among|one|which|whether)\b|(?<=^\W*|[.?!;:]\s*)pick the (?:\w+ ){0,3}?(?:worth|most|best|ones?)\b/i,
    /\bbreak the tie\b|\btie-?break\w*|\bregret\b|\bwhat we(?:'ll| will)? go with\b/i,
  ],
  'lead-question': [
    /\barchitect\w*|\bsystem design\b|\btrade-?offs?\b|\bdecid(?:e|es|ing)\b|\b(?:technical|architecture|architectural|design) decisions?\b/i,
    /\btech(?:nology)? stack\b|\badrs?\b|\bscope\b|\bprioriti\w*|\broadmap\b|\bsprints?\b|\bbacklog\b|\bmilestones?\b/i,
    // A pull request to look at, not the pull requests CI runs on ("tests on pull requests from forks").
    /\bcode reviews?\b|(?<!\b(?:on|from|for|in|of|with) )\b(?:(?:pull|merge)[- ]request|PR)\b(?!s)/i,
    /\b(?:carve|split|break|cut|slice|divide|chop)\b[^.?!]{0,40}?\b(?:into|in) (?:\w+ )?(?:pieces|tasks|chunks|work items|issues|tickets|steps|milestones|phases|stories)\b/i,
    /\b(?:go|goes|get|gets|make it|makes it|belongs?) in(?:to)? (?:the |this |our )?(?:next |upcoming |coming |first )?(?:release|version|iteration|cycle)\b/i,
    /\bin or out\b|\bfirst cut\b|\bleave (?:it |them |that )?for later\b|\bwhat we leave\b/i,
    /\bdraw the line\b|\bwhat waits\b|\bwhat goes\b|\bcan'?t do (?:all|both)\b|\bmvp\b|\boverall design\b|\btech(?:nical)? choices?\b/i,
    /\bfit into the (?:codebase|architecture|system|design|app)\b|\bwhere (?:does|should|would) (?:it|this|that) (?:live|go|fit)\b/i,
    /\bcode quality\b|\bbefore (?:it|this) (?:can )?(?:merges?|goes in|lands)\b|\bthe author\b/i,
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
    /\bbugs?\b|\bbroken\b|\bregressed\b|\bdoes nothing\b|\bnothing happens\b|\bget (?:it|this|that|them) working\b|\bsort (?:it|this|that|them) out\b/i,
    /[;,.:—-]\s*(?:please\s+)?(?:fix|patch|repair|sort out)\s+(?:it|this|that|them)\b/i,
  ],
  triage: [
    /\?\s*$|^\W*(?:what|why|how|which|who|when|where|should|can|could|would|is|are|do|does|did|will)\b/i,
    /^\W*(?:please\s+)?(?:plan|decide|prioriti[sz]e|rank|organi[sz]e|coordinate|schedule|estimate|triage|review|look over|go over|assess|evaluate|compare|propose|brainstorm|discuss|sketch|outline|lay out|work out|break down|pick|choose|write down)\b/i,
    /\bshould\b|\bpick one\b|\bgood to merge\b|\bbefore (?:i|we|you|it) merges?\b|\binto tasks\b|\bconventions?\b/i,
  ],
};

/** The first phrase of `kind` the task holds, as the task wrote it; undefined when it holds none. */
export function workKindPhrase(task: string, kind: WorkKind): string | undefined {
  return workKindMatch(task, kind)?.phrase;
}

/** The first phrase of `kind` the task holds (by the table's order), with where it starts and ends in the task. */
export function workKindMatch(task: string, kind: WorkKind): { phrase: string; index: number; end: number } | undefined {
  for (const pattern of WORK_KIND_PHRASES[kind]) {
    const found = pattern.exec(task);
    if (found) return { phrase: found[0].trim(), index: found.index, end: found.index + found[0].length };
  }
  return undefined;
}
