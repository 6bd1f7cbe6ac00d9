/**
 * The quickstart app (`demo.quickstart`): users and groups over hyperlinked serializers. It
 * uses `contrib.auth`'s models and has none of its own.
 */
import type { AppConfig } from 'api_framework';

const quickstart: AppConfig = {
  label: 'quickstart',
  name: 'demo.quickstart',
  verboseName: 'Quickstart',
};

export default quickstart;
