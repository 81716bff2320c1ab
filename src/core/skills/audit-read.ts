/**
 * The files of a skill folder read for the audit (audit.ts auditSkill): every file the walk listed,
 * read through the handle openWalkedFile gives (never through a link, only the file the walk saw).
 * `skills add` audits the very walk it copies from; `skills audit` walks an installed skill. A file
 * is read up to AUDIT_READ_MAX_BYTES (what a `.squad` file carries): a larger one, which only a
 * raised CREATE_SQUAD_MAX_FILE_BYTES lets in, is audited on its first part.
 */
import fs from 'node:fs';
import { listTree, openWalkedFile, type Tree } from '../fs/tree.js';
import { auditSkill, type AuditFile, type SkillAudit } from './audit.js';
import { SQUAD_FILE_MAX_BYTES } from '../base/limits.js';

/** The most of one file the audit reads. */
export const AUDIT_READ_MAX_BYTES = SQUAD_FILE_MAX_BYTES;

/** Read the walked files of `tree` below `dir`. */
export function readAuditFiles(dir: string, tree: Tree): AuditFile[] {
  return tree.files.map((file) => {
    const fd = openWalkedFile(dir, file);
    try {
      const size = Math.min(file.size, AUDIT_READ_MAX_BYTES);
      const bytes = Buffer.alloc(size);
      let read = 0;
      while (read < size) {
        const got = fs.readSync(fd, bytes, read, size - read, read);
        if (got === 0) break;
        read += got;
      }
      return { path: file.path, bytes: bytes.subarray(0, read), executable: file.executable };
    } finally {
      fs.closeSync(fd);
    }
  });
}

/** Audit the skill `name` whose folder is `dir`, walked as `tree` (or walked now). */
export async function auditSkillFolder(name: string, dir: string, tree?: Tree): Promise<SkillAudit> {
  return auditSkill(name, readAuditFiles(dir, tree ?? (await listTree(dir))));
}
