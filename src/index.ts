/**
 * create-squad as a library: the core that the CLI is built on. Everything here is free of console
 * output; errors are thrown as SquadError with a code and a hint.
 */
export { SquadError, isSquadError, usageError, type SquadErrorCode, type SquadErrorOptions } from './core/base/errors.js';
export * from './core/base/paths.js';
export {
  changeLines,
  changedPaths,
  commitHint,
  commitPathsOf,
  summarizeChanges,
  type Change,
  type ChangeKind,
  type ChangeSummary,
  type FileContent,
  type Plan,
  type TreeFile,
  type WalkedFile,
} from './core/base/plan.js';
export { applyPlan } from './core/fs/apply-plan.js';
export { MAX_NAME_LENGTH, NAME_PATTERN, isValidName, nameProblems, slugify, type NameProblem } from './core/base/names.js';
export {
  FRONTMATTER_MAX_BYTES,
  YAML_MAX_ALIAS_COUNT,
  FrontmatterError,
  checkedFrontmatterYaml,
  locateFrontmatter,
  normalizeNewlines,
  parseFrontmatterYaml,
  splitFrontmatter,
  type FrontmatterIssue,
} from './core/skills/frontmatter.js';
export {
  isModelInvocationDisabled,
  isVersionUnquoted,
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
} from './core/skills/skill.js';
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
} from './core/skills/validate.js';
export { inspectSkill, type SkillReport } from './core/skills/inspect.js';
export { skillFields, type SkillFields } from './core/skills/skill-fields.js';
export {
  SCOPE_PRECEDENCE,
  discoverSkills,
  type DiscoveredSkill,
  type Discovery,
  type DiscoveryWarning,
  type DiscoverOptions,
  type SkillScope,
} from './core/squad/discover.js';
export { hasSquad, isRosterHeader, listAgents, parseRoster, readRoster, requireAgent, requireSquad, type Agent, type RosterMember } from './core/roster/roster.js';
export {
  buildTaughtSkill,
  decideTeach,
  deriveSkillName,
  type TaughtSkill,
  type TaughtSkillInput,
  type TeachOptions,
  type TeachPlan,
  type TeachState,
} from './core/team/teach.js';
export { planStandingRule, planTeach, readRuleState, readTeachState } from './core/team/teach-state.js';
export { decideStandingRule, type RulePlan, type RuleState } from './core/team/standing-rules.js';
export {
  decideSkillsAdd,
  decideSkillsRemove,
  decideSkillsUpdate,
  type SkillToAdd,
  type SkillsAddPlan,
  type SkillsAddState,
  type SkillsRemovePlan,
  type SkillsRemoveState,
  type SkillsUpdatePlan,
  type SkillsUpdateState,
} from './core/team/skill-change-plan.js';
export { readSkillsAddState, readSkillsRemoveState, readSkillsUpdateState } from './core/team/skill-change-state.js';
export { decideSkillInstall, type InstallPlan, type InstalledFacts } from './core/skills/skill-install-plan.js';
export { readInstalledFacts, readSkillSource, type SkillSource } from './core/skills/skill-install.js';
export { estimateTokens } from './core/base/tokens.js';
export { AVAILABLE_SKILLS_TAG, renderAvailableSkills, type SkillSummary } from './core/base/xml.js';
export {
  MCP_CONFIG_MAX_BYTES,
  MCP_HOSTS,
  collectMcpRequirements,
  detectMcpConfig,
  mcpServerHosts,
  missingRequiredServers,
  renderMcpBlock,
  type McpConfigDetection,
  type McpConfigSource,
  type McpDetectOptions,
  type McpHostAnswer,
  type McpHostId,
  type McpHostStatus,
  type McpRequirementRow,
  type SkillMcpNeeds,
} from './core/skills/mcp.js';
export {
  MAX_ACTIVATED_SKILLS,
  detectBroadTask,
  matchSkills,
  promptableSkills,
  readRouteContext,
  routeTask,
  type BroadTask,
  type RouteContext,
  type RankedMember,
  type RouteSuggestion,
  type SkillMatch,
} from './core/squad/route.js';
export { DEFAULT_SPAWN_MODE, SPAWN_MODES, type SpawnMode } from './core/base/spawn-modes.js';
export {
  MAX_INLINED_SKILL_BYTES,
  SPAWN_TEMPLATES,
  buildSpawnPrompt,
  decideSpawn,
  renderSpawnPrompt,
  type PromptSkill,
  type SpawnPrompt,
  type SpawnPromptOptions,
  type SpawnPromptTokens,
} from './core/prompt/spawn-prompt.js';
export { compareVersions, packageVersion } from './core/fs/version.js';
export {
  UNKNOWN_VERSION,
  decideUpgrade,
  isLearnedSkillPath,
  planUpgrade,
  type UpgradeBackup,
  type UpgradeMigration,
  type UpgradeOptions,
  type UpgradePlan,
  type UpgradeParts,
  type UpgradeSkip,
} from './core/scaffold/upgrade.js';
export { MIGRATIONS, migrationsUpTo, type Migration, type MigrationPlan, type MigrationState, type MigrationWrite } from './core/scaffold/migrations.js';
export { readUpgradeState, type UpgradeState } from './core/scaffold/upgrade-state.js';
export {
  GITATTRIBUTES_TEMPLATE,
  KEEP_FILE,
  KEEP_FOLDERS,
  SCRIBE_MEMBER,
  STATE_TEMPLATES,
  UNION_MERGE_PATTERNS,
  decideScaffold,
  isRoutingHeader,
  planGitattributes,
  planOwnedFiles,
  parseProjectContext,
  planScaffold,
  renderMemberFiles,
  renderMemberRows,
  plannedChanges,
  type PlannedFile,
  type PlannedKind,
  type ProjectContext,
  type ScaffoldMember,
  type ScaffoldOptions,
  type ScaffoldPlan,
  type TeamSource,
} from './core/scaffold/scaffold.js';
export { decideHire, type HireOptions, type HirePlan, type HireState } from './core/team/hire.js';
export { planHire, readHireState } from './core/team/hire-state.js';
export { decideInit, type InitInput, type InitMcp, type InitPlan } from './core/scaffold/init-plan.js';
export { readInitState, readMcpRegistrationState, type InitRequest, type InitState } from './core/scaffold/init-state.js';
export { planRehire, planRetire, readMemberChangeState } from './core/team/retire.js';
export {
  decideRehire,
  decideRetire,
  type MemberChangeOptions,
  type MemberChangePlan,
  type MemberChangeState,
  type MemberCommand,
  type MemberRef,
} from './core/team/member-change-plan.js';
export { planRoleChange } from './core/team/role-change.js';
export { decideRoleChange, type RoleChangeOptions, type RoleChangePlan } from './core/team/role-change-plan.js';
export {
  decideMemberModel,
  decideSquadModel,
  type MemberModelPlan,
  type ModelChangeOptions,
  type SquadModelPlan,
  type SquadModelState,
} from './core/team/model-change.js';
export { readSquadModelState } from './core/team/model-state.js';
export {
  CASTING_SCHEMA,
  SCRIBE_NAME,
  UNIVERSES_DATA_FILE,
  adoptRoster,
  appendCasting,
  castTeam,
  castingEvent,
  createPolicy,
  defaultUniverseName,
  findUniverse,
  legacyPolicy,
  legacyRegistryMembers,
  nextCast,
  parseHistory,
  parsePolicy,
  parseRegistry,
  readCasting,
  resolveUniverse,
  serializeCasting,
  takenNames,
  universes,
  type CastEntry,
  type CastResult,
  type CastingEvent,
  type CastingEventKind,
  type CastingHistory,
  type CastingParseOptions,
  type CastingPolicy,
  type CastingRead,
  type CastingRegistry,
  type CastingState,
  type Taken,
  type Universe,
} from './core/roster/casting.js';
export {
  MAX_ROLE_LENGTH,
  ROLES_DATA_FILE,
  checkRoles,
  defaultRoles,
  findRolePreset,
  isLeadRole,
  normalizeRole,
  rolePresets,
  splitRoleList,
  type RolePreset,
} from './core/roster/roles.js';
export {
  findTable,
  formatTableRow,
  insertTableRecords,
  insertTableRows,
  isTableSeparator,
  splitTableRow,
  tableRecords,
  tableRows,
  type TableLocation,
  type TableRecord,
} from './core/base/md-table.js';
export { closestMatch, editDistance } from './core/base/edit-distance.js';
export { runDoctor, type DoctorOptions, type DoctorReport, type Finding, type Severity } from './core/doctor/doctor.js';
export {
  CASTING_FILES,
  DEFAULT_EXPORT_FILE,
  LEGACY_FORMAT_VERSION,
  SKILL_BUCKETS,
  SQUAD_FORMAT_VERSION,
  SQUAD_LIMITS,
  SquadFormatError,
  TEAM_FILES,
  type FileEntry,
  type FileObject,
  type SkillBucket,
  type SquadAgent,
  type SquadCasting,
  type SquadDocument,
  type SquadFiles,
  type SquadHistory,
  type SquadLimits,
  type SquadSkill,
  type SquadTeam,
  type ValidatedSquad,
} from './core/portable/squad-format.js';
export {
  bucketOf,
  decodeFile,
  encodeFile,
  skillFileEntries,
  squadPathProblem,
} from './core/portable/squad-files.js';
export { serializeSquad } from './core/portable/canonical-json.js';
export { castingFileProblem, readSquadDocument, validateSquadDocument } from './core/portable/squad-validate.js';
export { splitHistory, type HistoryParts } from './core/roster/history.js';
export { REDACTION_RULES, redactText, redactionMarker, type RedactionCounts, type RedactionKind, type Redacted } from './core/base/redact.js';
export {
  checkExportTarget,
  exportSquad,
  writeSquadFile,
  type ExportOptions,
  type ExportRedaction,
  type ExportReport,
  type ExportSkip,
  type ExportedAgent,
  type ExportedSkill,
  type SquadExport,
} from './core/portable/export.js';
export {
  BUILTIN_AUTHOR,
  IMPORTED_SUFFIX,
  decideImport,
  importSquad,
  readImportState,
  withSkillName,
  type ImportInput,
  type ImportOptions,
  type ImportPlan,
  type ImportReport,
  type ImportState,
  type ImportedAgent,
  type ImportedSkill,
  type ScriptReview,
  type SkillRename,
  type SkillSkip,
} from './core/portable/import.js';

// Each writing command's read steps and deciders, beside those exported with their modules above:
// what the library needs to run any of them as the CLI does (test/unit/library-surface.test.ts).
export { decideContextChange } from './core/scaffold/context-plan.js';
export { readContextState } from './core/scaffold/project-context.js';
export { decideMcpRegistration } from './core/scaffold/mcp-register.js';
export { readOwnedState, readScaffoldState } from './core/scaffold/scaffold-state.js';
export { decideMemberProfiles, profileChanges } from './core/squad/agents/profile-plan.js';
export { readProfileState } from './core/squad/agents/profile-sync.js';
export { decideOriginalSkillConversions } from './core/squad/original/skill-migration-plan.js';
export { decideSquadDirMigration } from './core/squad/original/squad-dir-plan.js';
export { readSquadDirState } from './core/squad/original/squad-dir.js';
export { readSquadState } from './core/squad/state.js';
export { decideScriptCommand, decideSkillScript } from './core/skills/script-plan.js';
export { decidePreToolUse, hookAnswer, toolUseOf, type HookDecision, type HookFacts } from './core/hooks/decide-hook.js';
export { readHookFacts } from './core/hooks/hook-state.js';
export { readDoctorState } from './core/doctor/read.js';
export { readSpawnState } from './core/prompt/spawn-read.js';
export { readCompactState, type CompactTarget } from './core/context/compact-read.js';
export { DEFAULT_KEEP, decideCompaction, type CompactPlan, type CompactState } from './core/context/compaction.js';
export { measureContext, type ContextReport, type MemberContext } from './core/context/gauge.js';
