/**
 * `manage.ts test [label ...] [--failfast]`: run the project's specs (`*.spec.ts`, or `.js`
 * when compiled) with uvu in a child process whose settings are the project's and whose test
 * environment allows the test client's host. A label is a folder or file of the project, or
 * a pattern matched against the spec files' paths.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { SOURCE_ROOT } from '../conf';
import { BaseCommand, CommandError, CommandParser, type CommandOptions } from '../management';
import { childExecArgv } from '../childProcess';
import { uvuMainModule } from '../uvuModule';

/** The uvu arguments (folder, pattern) for a label, relative to the project's source folder. */
export function uvuTarget(label: string | null, root: string = SOURCE_ROOT): { dir: string; pattern: string } {
  const extension = __filename.endsWith('.ts') ? 'ts' : 'js';
  const specs = `\\.spec\\.${extension}$`;
  if (!label) return { dir: root, pattern: specs };
  const full = path.resolve(root, label);
  if (fs.existsSync(full)) {
    if (fs.statSync(full).isDirectory()) return { dir: full, pattern: specs };
    return { dir: path.dirname(full), pattern: `(^|[\\\\/])${path.basename(full).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$` };
  }
  return { dir: root, pattern: label };
}

/** uvu's command-line script: the project's uvu, else the framework's. */
function uvuBin(): string {
  const main = uvuMainModule();
  // The package exports no bin.js; it sits beside dist/ (the main module's folder).
  const bin = main === null ? null : path.join(path.dirname(main), '..', 'bin.js');
  if (bin !== null && fs.existsSync(bin)) return bin;
  throw new CommandError('The test runner is uvu: install it in the project (npm install --save-dev uvu).');
}

/** Runs the project's specs. */
export default class TestCommand extends BaseCommand {
  static override help = 'Discover and run tests in the specified modules or the current directory.';

  override addArguments(parser: CommandParser): void {
    parser.addArgument({ name: 'test_label', positional: true, multiple: true, required: false, metavar: 'test_label', help: 'A folder or file of the project, or a pattern matching spec file paths.' });
    parser.addArgument({ name: 'failfast', type: 'boolean', help: 'Stops the test suite after the first failure is detected.' });
  }

  override async handle(options: CommandOptions): Promise<void> {
    const labels = Array.isArray(options.testLabel) && options.testLabel.length ? options.testLabel.map(String) : [null];
    const bin = uvuBin();
    const setup = require.resolve('../testRunnerSetup');
    let failed = 0;
    for (const label of labels) {
      const { dir, pattern } = uvuTarget(label);
      const args = [...childExecArgv(), '-r', setup, bin, dir, pattern, '-i', 'node_modules', '-i', 'dist'];
      if (childExecArgv().some((arg) => arg.includes('ts-node'))) args.push('-r', 'ts-node/register/transpile-only');
      if (options.failfast) args.push('--bail');
      const code = await new Promise<number>((resolve, reject) => {
        const child = spawn(process.execPath, args, { stdio: ['inherit', 'pipe', 'pipe'], env: { ...process.env, API_FRAMEWORK_PROJECT_ROOT: SOURCE_ROOT } });
        // The runner's report goes where this command writes (the terminal, or a caller's buffer).
        child.stdout?.on('data', (chunk: Buffer) => this.stdout.write(chunk.toString()));
        child.stderr?.on('data', (chunk: Buffer) => this.stderr.write(chunk.toString()));
        child.once('error', reject);
        child.once('exit', (exitCode, signal) => resolve(exitCode ?? (signal ? 1 : 0)));
      });
      if (code !== 0) {
        failed = code;
        if (options.failfast) break;
      }
    }
    if (failed) throw new CommandError('Some tests failed.', { returnCode: failed });
  }
}
