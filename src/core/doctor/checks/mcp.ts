/**
 * MCP configuration: files no host reads, files a host cannot use, required servers that a host
 * lacks (none at all: mcp-not-configured; some of them: mcp-host-missing), and registered `squad`
 * servers that did not start when the read step started them (mcp-server-not-starting).
 */
import { quoted } from '../../base/util.js';
import { localCommand } from '../../base/cli-invocation.js';
import {
  UNREAD_MCP_CONFIG_FIX,
  collectMcpRequirements,
  describeServerHosts,
  hostNames,
  mcpServerKey,
  mcpSetupFixes,
  missingRequiredServers,
  type McpRequirementRow,
} from '../../skills/mcp.js';
import { LOCAL_INSTALL_COMMAND } from '../../scaffold/mcp-register.js';
import type { Finding } from '../catalog.js';
import type { DoctorState } from '../read.js';

/** The skills that declare MCP servers and can be used. */
function skillsWithServers(state: DoctorState) {
  return state.skills.discovery.skills.filter((s) => s.valid && s.mcpServers.length > 0);
}

/** How many distinct servers the squad's skills declare. */
export function declaredServerCount(state: DoctorState): number {
  const detection = state.mcp.detection;
  if (detection === undefined) return 0;
  const rows = collectMcpRequirements(
    skillsWithServers(state).map((s) => ({ name: s.dirName, mcpServers: s.mcpServers })),
    detection,
  );
  return new Set(rows.map((r) => mcpServerKey(r.server))).size;
}

/** A registered `squad` server that did not start: the host shows it failing, and the coordinator falls back to the CLI. */
function serverStartFindings(state: DoctorState): Finding[] {
  return state.mcp.servers
    .filter((server) => server.failure !== undefined)
    .map((server) => ({
      severity: 'warning' as const,
      code: 'mcp-server-not-starting',
      path: server.path,
      message: `the MCP server ${quoted(server.name)} that ${server.path} registers for ${hostNames(server.hosts)} does not start (${server.commandLine}): ${server.failure}`,
      fix: `install create-squad in the repository (${LOCAL_INSTALL_COMMAND}, or npm install when package.json lists it); if it is installed, run that command in the repository to see why it stops, or remove the entry and run "create-squad init --mcp" to register the repository's install`,
    }));
}

/** A registered `squad` server doctor did not start: it would run a create-squad the repository brings. */
function serverNotCheckedFindings(state: DoctorState): Finding[] {
  return state.mcp.servers
    .filter((server) => server.notStarted !== undefined)
    .map((server) => ({
      severity: 'warning' as const,
      code: 'mcp-server-not-checked',
      path: server.path,
      message: `the MCP server ${quoted(server.name)} that ${server.path} registers for ${hostNames(server.hosts)} was not started (${server.commandLine}): ${server.notStarted}`,
      fix: `run doctor with the repository's own install (${localCommand('doctor')}) to start it, once you trust that install`,
    }));
}

export function checkMcp(state: DoctorState): Finding[] {
  const findings: Finding[] = [...serverStartFindings(state), ...serverNotCheckedFindings(state)];
  for (const unread of state.mcp.unread) {
    findings.push({
      severity: 'warning',
      code: 'mcp-config-unread',
      path: unread.path,
      message: `${unread.path} is not MCP configuration for any Copilot host: ${unread.note}`,
      fix: UNREAD_MCP_CONFIG_FIX,
    });
  }
  const detection = state.mcp.detection;
  if (detection === undefined) return findings;
  for (const source of detection.sources.filter((s) => s.error !== undefined || s.invalidEntries !== undefined)) {
    const problems = source.error !== undefined ? [`ignored: ${source.error}`] : source.invalidEntries!;
    for (const problem of problems) {
      findings.push({
        severity: 'warning',
        code: 'mcp-config-invalid',
        path: source.path,
        message: `MCP configuration ${source.path}${source.error !== undefined ? ' ' : ': '}${problem}`,
        fix: `fix ${source.path} as the message says (${hostNames(source.hosts)} ${source.hosts.length > 1 ? 'read' : 'reads'} it); until then, whether a server listed there is configured is unknown`,
      });
    }
  }
  const rows = collectMcpRequirements(
    skillsWithServers(state).map((s) => ({ name: s.dirName, mcpServers: s.mcpServers })),
    detection,
  );
  for (const row of rows.filter((r) => r.required)) {
    const finding = requiredServerFinding(row);
    if (finding) findings.push(finding);
  }
  return findings;
}

/** A required server some host lacks: which host has it, and how to give it to the others. */
function requiredServerFinding(row: McpRequirementRow): Finding | undefined {
  if (!Object.values(row.hosts).some((h) => h.answer === 'not-configured')) return undefined;
  const none = missingRequiredServers([row]).length > 0;
  const fixes = mcpSetupFixes(row.server, row.hosts, none);
  const needs = `skill ${row.skill} requires the MCP server ${quoted(row.server)}${row.purpose ? ` (${row.purpose})` : ''}`;
  return {
    severity: 'warning',
    code: none ? 'mcp-not-configured' : 'mcp-host-missing',
    message: `${needs}, which ${none ? 'no Copilot host has, as far as create-squad can tell' : 'not every Copilot host has'}: ${describeServerHosts(row.hosts)}`,
    fix: `${fixes.join('; ')}${none ? '; until then a member whose tools lack it stops and tells the coordinator' : ''}`,
  };
}
