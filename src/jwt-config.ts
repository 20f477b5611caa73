import type { Static } from './shared/typebox';
import { JWT_SETTINGS, schemaOf } from './settings';

/**
 * How account endpoints verify JWTs (each field's meaning, variable and flag: src/settings.ts).
 * Every field is optional so tests and operators set only what they use; defaults live in jwt.ts.
 */
export const JwtConfig = schemaOf(JWT_SETTINGS);
export type JwtConfig = Static<typeof JwtConfig>;
