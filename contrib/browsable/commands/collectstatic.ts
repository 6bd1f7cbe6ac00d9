/**
 * `manage.ts collectstatic [--noinput] [--clear] [--dry-run]`: copy every static file the
 * project serves (STATICFILES_DIRS, each installed app's `static/` folder, the browsable API's
 * and the admin's assets; the first folder holding a path wins, as when serving) into
 * `STATIC_ROOT`, for a front web server to serve under `STATIC_URL`. Unchanged files (the
 * destination is as new as the source) are skipped.
 */
import fs from 'node:fs';
import path from 'node:path';
import { PROJECT_ROOT, settings } from '../../../lib/core/conf';
import { BaseCommand, CommandError, type CommandOptions, type CommandParser } from '../../../lib/core/management';
import { readLine } from '../../../lib/core/readLine';
import { staticRoots } from '../staticfiles';

/** Every static file by its relative path (`api_framework/css/browsable.css`) -> source file. */
export function collectStaticFiles(roots: readonly string[] = staticRoots()): Map<string, string> {
  const found = new Map<string, string>();
  const walk = (root: string, dir: string): void => {
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(root, full);
      else if (entry.isFile()) {
        const relative = path.relative(root, full).split(path.sep).join('/');
        if (!found.has(relative)) found.set(relative, full);
      }
    }
  };
  for (const root of roots) walk(root, root);
  return found;
}

/** `STATIC_ROOT` as an absolute folder (relative to the project root); a `CommandError` when unset. */
export function staticRoot(): string {
  const value = settings.STATIC_ROOT;
  if (typeof value !== 'string' || !value) {
    throw new CommandError("You're using the staticfiles app without having set the STATIC_ROOT setting to a filesystem path.");
  }
  return path.resolve(PROJECT_ROOT, value);
}


/** Collects the static files into STATIC_ROOT. */
export default class Command extends BaseCommand {
  static override help = 'Collect static files in a single location.';

  override addArguments(parser: CommandParser): void {
    parser.addArgument({ name: 'noinput', type: 'boolean', help: 'Do NOT prompt the user for input of any kind.' });
    parser.addArgument({ name: 'no-input', type: 'boolean', help: 'Same as --noinput.' });
    parser.addArgument({ name: 'clear', short: 'c', type: 'boolean', help: 'Clear the existing files using the storage before trying to copy or link the original file.' });
    parser.addArgument({ name: 'dry-run', short: 'n', type: 'boolean', help: 'Do everything except modify the filesystem.' });
  }

  override async handle(options: CommandOptions): Promise<void> {
    const destination = staticRoot();
    const interactive = !(options.noinput || options.noInput);
    const clear = Boolean(options.clear);
    const dryRun = Boolean(options.dryRun);
    const verbosity = Number(options.verbosity ?? 1);
    if (interactive) {
      const exists = fs.existsSync(destination);
      let message = '\nYou have requested to collect static files at the destination\nlocation as specified in your settings';
      message += exists ? `:\n\n    ${destination}\n\n` : '.\n\n';
      message += clear ? 'This will DELETE ALL FILES in this location!\n' : 'This will overwrite existing files!\n';
      message += "Are you sure you want to do this?\n\nType 'yes' to continue, or 'no' to cancel: ";
      this.stdout.write(message);
      if ((await readLine(this.stdin)) !== 'yes') throw new CommandError('Collecting static files cancelled.');
    }
    if (dryRun) this.stdout.write('Pretending to copy files (dry run).\n');
    if (clear && fs.existsSync(destination)) {
      for (const entry of fs.readdirSync(destination)) {
        const full = path.join(destination, entry);
        if (verbosity >= 1) this.stdout.write(`${dryRun ? 'Pretending to delete' : 'Deleting'} '${entry}'\n`);
        if (!dryRun) fs.rmSync(full, { recursive: true, force: true });
      }
    }
    let copied = 0;
    let unmodified = 0;
    for (const [relative, source] of collectStaticFiles()) {
      const target = path.join(destination, ...relative.split('/'));
      if (!clear && isUpToDate(source, target)) {
        unmodified++;
        if (verbosity >= 2) this.stdout.write(`Skipping '${relative}' (not modified)\n`);
        continue;
      }
      if (verbosity >= 2) this.stdout.write(`${dryRun ? 'Pretending to copy' : 'Copying'} '${source}'\n`);
      if (!dryRun) {
        fs.mkdirSync(path.dirname(target), { recursive: true });
        fs.copyFileSync(source, target);
        const { atime, mtime } = fs.statSync(source);
        fs.utimesSync(target, atime, mtime);
      }
      copied++;
    }
    if (verbosity >= 1) {
      const unmodifiedText = unmodified ? `, ${unmodified} unmodified` : '';
      this.stdout.write(`\n${copied} static file${copied === 1 ? '' : 's'} copied to '${destination}'${unmodifiedText}.\n`);
    }
  }
}

function isUpToDate(source: string, target: string): boolean {
  try {
    const targetStat = fs.statSync(target);
    const sourceStat = fs.statSync(source);
    return targetStat.size === sourceStat.size && Math.floor(targetStat.mtimeMs / 1000) >= Math.floor(sourceStat.mtimeMs / 1000);
  } catch {
    return false;
  }
}
