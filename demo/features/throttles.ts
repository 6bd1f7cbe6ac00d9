/**
 * Throttles with the features app's own scopes (rates in DEFAULT_THROTTLE_RATES).
 */
import { throttling } from 'api_framework';

/** Anonymous requests: `features_anon` (3/min in the demo settings). */
export class FeaturesAnonThrottle extends throttling.AnonRateThrottle {
  override scope = 'features_anon';
}

/** Per user (or per IP when anonymous): `features_user` (5/min). */
export class FeaturesUserThrottle extends throttling.UserRateThrottle {
  override scope = 'features_user';
}
