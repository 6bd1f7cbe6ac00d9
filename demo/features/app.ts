/**
 * The features app (`demo.features`): one small view per part of the framework that the
 * quickstart and the tutorial do not touch. It has no models of its own.
 */
import type { AppConfig } from 'api_framework';

const features: AppConfig = {
  label: 'features',
  name: 'demo.features',
  verboseName: 'Features',
};

export default features;
