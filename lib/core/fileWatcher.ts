/**
 * A recursive file watcher made of one `fs.watch` per directory (inotify on Linux, no stat
 * polling): new folders are watched as they appear, removed ones forgotten, and a folder that
 * is replaced (an editor or `git checkout` that saves by rename) is watched again. Node
 * built-ins only: the reloader's parent process loads this and nothing of the project.
 */
import fs from 'node:fs';
import path from 'node:path';

/** Folder names never watched: dependencies, VCS data, build output, caches. */
export const IGNORED_DIRECTORIES: ReadonlySet<string> = new Set(['node_modules', '.git', '.hg', '.svn', 'dist', 'build', 'coverage', '.nyc_output', '__pycache__', 'staticfiles']);

/** Options of `FileWatcher`. */
export interface FileWatcherOptions {
  /** Only files with these extensions are reported (`['.ts', '.js']`); all when omitted. */
  extensions?: readonly string[];
  /** Called with the absolute path of a file that changed, appeared or disappeared. */
  onChange: (file: string) => void;
  /** Folder names (any depth) not to watch; default `IGNORED_DIRECTORIES` and hidden folders. */
  ignore?: (name: string, fullPath: string) => boolean;
}

function defaultIgnore(name: string): boolean {
  return IGNORED_DIRECTORIES.has(name) || (name.startsWith('.') && name.length > 1);
}

/** Watches folders recursively; `close()` stops every watcher. */
export class FileWatcher {
  private readonly watchers = new Map<string, fs.FSWatcher>();
  /** The last seen modification time of each watched file (a read that only updates its atime is no change). */
  private readonly mtimes = new Map<string, number>();
  private readonly ignore: (name: string, fullPath: string) => boolean;
  private closed = false;

  constructor(private readonly options: FileWatcherOptions) {
    this.ignore = options.ignore ?? defaultIgnore;
  }

  /** Start watching `root` and every folder below it (a missing root is watched once it exists). */
  add(root: string): void {
    this.watchTree(path.resolve(root));
  }

  /** The folders currently watched (for diagnostics and tests). */
  get directories(): string[] {
    return [...this.watchers.keys()].sort();
  }

  /** Stop watching. */
  close(): void {
    this.closed = true;
    for (const watcher of this.watchers.values()) watcher.close();
    this.watchers.clear();
  }

  private watchTree(dir: string): void {
    if (this.closed) return;
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    this.watchDirectory(dir);
    for (const entry of entries) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory() && !this.ignore(entry.name, full)) this.watchTree(full);
      else if (entry.isFile() && this.wanted(full)) this.mtimes.set(full, modifiedAt(full) ?? -1);
    }
  }

  private unwatchTree(dir: string): void {
    for (const [watched, watcher] of this.watchers) {
      if (watched === dir || watched.startsWith(`${dir}${path.sep}`)) {
        watcher.close();
        this.watchers.delete(watched);
      }
    }
  }

  private watchDirectory(dir: string): void {
    this.watchers.get(dir)?.close();
    let watcher: fs.FSWatcher;
    try {
      watcher = fs.watch(dir, { persistent: true }, (_event, filename) => this.changed(dir, filename === null ? null : String(filename)));
    } catch {
      return;
    }
    // The folder itself went away or its watcher broke: forget it, and watch it again if a
    // new folder of that name is there (saved by rename).
    watcher.on('error', () => this.rearm(dir));
    this.watchers.set(dir, watcher);
  }

  private rearm(dir: string): void {
    this.unwatchTree(dir);
    if (!this.closed && isDirectory(dir)) this.watchTree(dir);
  }

  private changed(dir: string, filename: string | null): void {
    if (this.closed || filename === null) return;
    const full = path.join(dir, filename);
    if (isDirectory(full)) {
      // A new or replaced folder: (re)watch its tree; nothing to report until a file changes.
      if (!this.ignore(path.basename(full), full)) this.rearm(full);
      return;
    }
    if (this.watchers.has(full)) {
      this.unwatchTree(full); // a watched folder was removed or renamed away
      return;
    }
    if (!isDirectory(dir)) {
      this.rearm(dir);
      return;
    }
    if (!this.wanted(full)) return;
    // inotify also reports attribute changes: the first read of a file after it was written
    // updates its atime (relatime), which would restart the server a second time. Only a new
    // modification time, a new file or a removed one is a change.
    const mtime = modifiedAt(full);
    if (mtime !== null && this.mtimes.get(full) === mtime) return;
    if (mtime === null) this.mtimes.delete(full);
    else this.mtimes.set(full, mtime);
    this.options.onChange(full);
  }

  private wanted(file: string): boolean {
    const { extensions } = this.options;
    return !extensions || extensions.includes(path.extname(file));
  }
}

function modifiedAt(file: string): number | null {
  try {
    return fs.statSync(file).mtimeMs;
  } catch {
    return null;
  }
}

function isDirectory(file: string): boolean {
  try {
    return fs.statSync(file).isDirectory();
  } catch {
    return false;
  }
}
