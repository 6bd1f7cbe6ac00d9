/**
 * The reloader's FileWatcher: one watcher per folder; a new modification time, a new file or a
 * removed one is a change, an attribute-only event (atime updated by the first read after a
 * write, chmod) is not — it used to restart the server a second time after every edit.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { FileWatcher } from '../../lib/core/fileWatcher';

const test = suite('core/fileWatcher');
let dir = '';
let watcher: FileWatcher | null = null;
test.before.each(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'file-watcher-'));
});
test.after.each(() => {
  watcher?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const settle = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 300));

test('attribute-only events are not changes; writes, new files and removals are', async () => {
  const file = path.join(dir, 'models.ts');
  fs.writeFileSync(file, 'export const a = 1;\n');
  // Whole seconds, so that setting the atime below can keep the mtime exactly as it is.
  const mtime = new Date(Math.floor(Date.now() / 1000) * 1000 - 10_000);
  fs.utimesSync(file, mtime, mtime);
  const seen: string[] = [];
  watcher = new FileWatcher({ extensions: ['.ts'], onChange: (changed) => seen.push(path.relative(dir, changed)) });
  watcher.add(dir);

  fs.utimesSync(file, new Date(), mtime); // what the first read after a write does (relatime)
  fs.chmodSync(file, 0o600);
  fs.readFileSync(file);
  await settle();
  assert.equal(seen, [], 'no change for atime/chmod');

  fs.writeFileSync(file, 'export const a = 2;\n');
  await settle();
  assert.ok(seen.length >= 1 && seen.every((f) => f.endsWith('models.ts')), String(seen));
  seen.length = 0;

  fs.writeFileSync(path.join(dir, 'notes.txt'), 'ignored extension');
  fs.writeFileSync(path.join(dir, 'views.ts'), 'export {};\n');
  await settle();
  assert.ok(seen.includes('views.ts') && !seen.includes('notes.txt'), String(seen));
  seen.length = 0;

  fs.rmSync(file);
  await settle();
  assert.ok(seen.includes('models.ts'), 'a removal is a change');
});

test.run();
