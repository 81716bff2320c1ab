/**
 * create-squad as a library: the core that the CLI is built on. Everything here is free of console
 * output; errors are thrown as SquadError with a code and a hint.
 */
export { SquadError, isSquadError, usageError, type SquadErrorCode, type SquadErrorOptions } from './core/errors.js';
export * from './core/paths.js';
export { MAX_NAME_LENGTH, NAME_PATTERN, isValidName, nameProblems, slugify, type NameProblem } from './core/names.js';
export {
  FRONTMATTER_MAX_BYTES,
  YAML_MAX_ALIAS_COUNT,
  FrontmatterError,
  locateFrontmatter,
  normalizeNewlines,
  parseFrontmatterYaml,
  splitFrontmatter,
  type FrontmatterIssue,
} from './core/frontmatter.js';
export {
  isModelInvocationDisabled,
  mcpServers,
  parseSkill,
  readSkillFile,
  readSkillFrontmatter,
  skillMetadata,
  skillVersion,
  type Frontmatter,
  type McpServerRequirement,
  type ParsedSkill,
  type SkillHead,
} from './core/skill.js';
export {
  KNOWN_EXTENSION_FIELDS,
  MAX_BODY_LINES,
  MAX_BODY_TOKENS,
  MAX_COMPATIBILITY_LENGTH,
  MAX_DESCRIPTION_LENGTH,
  STANDARD_FIELDS,
  validateSkill,
  type SkillIssue,
  type SkillValidation,
  type ValidateSkillInput,
} from './core/validate.js';
export { inspectSkill, type SkillReport } from './core/inspect.js';
export {
  SCOPE_PRECEDENCE,
  discoverSkills,
  type DiscoveredSkill,
  type Discovery,
  type DiscoveryWarning,
  type DiscoverOptions,
  type SkillScope,
} from './core/discover.js';
export { hasSquad, listAgents, parseRoster, readRoster, requireAgent, requireSquad, type Agent, type RosterMember } from './core/roster.js';
export { buildTaughtSkill, deriveSkillName, type TaughtSkill, type TaughtSkillInput } from './core/teach.js';
export { estimateTokens } from './core/tokens.js';
export { AVAILABLE_SKILLS_TAG, escapeXml, escapeXmlLine, renderAvailableSkills, skillEntry, type SkillSummary } from './core/xml.js';
export {
  MCP_CONFIG_MAX_BYTES,
  collectMcpRequirements,
  detectMcpConfig,
  mcpServerStatus,
  missingRequiredServers,
  renderMcpBlock,
  type McpConfigDetection,
  type McpConfigSource,
  type McpConfigured,
  type McpRequirementRow,
  type SkillMcpNeeds,
} from './core/mcp.js';
export { rankDocuments, stem, tokenize, type RankOptions, type RankedDocument, type TextDocument } from './core/text-match.js';
export {
  MAX_ACTIVATED_SKILLS,
  SPAWN_MODES,
  detectBroadTask,
  matchSkills,
  promptableSkills,
  routeTask,
  type BroadTask,
  type RankedMember,
  type RouteSuggestion,
  type SkillMatch,
  type SpawnMode,
} from './core/route.js';
export {
  MAX_INLINED_SKILL_BYTES,
  SPAWN_TEMPLATES,
  buildSpawnPrompt,
  type PromptSkill,
  type SpawnPrompt,
  type SpawnPromptOptions,
  type SpawnPromptTokens,
} from './core/spawn-prompt.js';
export { packageVersion } from './core/version.js';
