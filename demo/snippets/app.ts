/**
 * The tutorial app (`demo.snippets`): code snippets with owners, highlighted on save.
 */
import path from 'node:path';
import type { AppConfig } from '../../lib';

const snippets: AppConfig = {
  label: 'snippets',
  name: 'demo.snippets',
  verboseName: 'Snippets',
  migrationsDir: path.join(__dirname, 'migrations'),
  models: () => {
    // Loaded on demand: importing the model pulls in the database layer.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { Snippet } = require('./models') as typeof import('./models');
    return [Snippet];
  },
};

export default snippets;
