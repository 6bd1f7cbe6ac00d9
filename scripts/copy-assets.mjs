// Copies the files the TypeScript compiler does not emit (templates, static files, message
// catalogs, READMEs) from lib/ and contrib/ into dist/, so the compiled framework (and the npm
// package made from it) finds them beside its JavaScript. Run by `npm run build`.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
let copied = 0;

function copyTree(relative) {
  for (const entry of fs.readdirSync(path.join(root, relative), { withFileTypes: true })) {
    const child = path.join(relative, entry.name);
    if (entry.isDirectory()) copyTree(child);
    else if (entry.isFile() && !entry.name.endsWith('.ts')) {
      const target = path.join(root, 'dist', child);
      fs.mkdirSync(path.dirname(target), { recursive: true });
      fs.copyFileSync(path.join(root, child), target);
      copied++;
    }
  }
}

for (const folder of ['lib', 'contrib']) copyTree(folder);
process.stdout.write(`copy-assets: ${copied} files copied to dist/\n`);
