/**
 * Writing a template's files (for `startproject` and `startapp`): names are checked first,
 * nothing is written when one of the files exists already.
 */
import fs from 'node:fs';
import path from 'node:path';
import { CommandError } from '../management';

/** Names that would shadow the framework's own module paths or packages. */
const RESERVED = new Set(['api_framework', 'lib', 'contrib', 'node_modules', 'dist', 'spec', 'test']);

/** Refuse a project or app name that is not an identifier or would shadow a framework module. */
export function validateName(name: string, kind: 'project' | 'app'): void {
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) {
    throw new CommandError(`'${name}' is not a valid ${kind} name. Please make sure the name is a valid identifier.`);
  }
  if (RESERVED.has(name)) {
    throw new CommandError(`'${name}' conflicts with the name of a framework module or folder and cannot be used as a ${kind} name. Please try another name.`);
  }
}

/**
 * Write `files` (relative path -> content; a path ending in `/` is a folder) under `target`.
 * Throws `CommandError` naming the first file that already exists, before writing anything.
 */
export function writeTemplate(target: string, files: Record<string, string>): string[] {
  for (const relative of Object.keys(files)) {
    const file = path.join(target, relative);
    if (!relative.endsWith('/') && fs.existsSync(file)) {
      throw new CommandError(`${file} already exists. Overlaying into an existing directory won't replace conflicting files.`);
    }
  }
  const written: string[] = [];
  for (const [relative, content] of Object.entries(files)) {
    const file = path.join(target, relative);
    if (relative.endsWith('/')) {
      fs.mkdirSync(file, { recursive: true });
      continue;
    }
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, content, { mode: relative === 'manage.ts' ? 0o755 : 0o644 });
    written.push(file);
  }
  return written;
}
