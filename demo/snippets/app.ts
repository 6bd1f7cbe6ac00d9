/**
 * The tutorial app (`demo.snippets`): code snippets with owners, highlighted on save.
 */
import type { AppConfig } from 'api_framework';

const snippets: AppConfig = {
  label: 'snippets',
  name: 'demo.snippets',
  verboseName: 'Snippets',
  // Loaded when first needed (importing the models pulls in the database layer); the
  // migrations are in the app folder's migrations/.
  models: './models',
};

export default snippets;
