import pkg from '../package.json' with { type: 'json' };

/** Package version; the compiled binary also carries the git commit (scripts/build.ts defines it). */
export const VERSION: string = pkg.version;
declare const FCS_GIT_COMMIT: string | undefined;
export const GIT_COMMIT: string = typeof FCS_GIT_COMMIT === 'string' ? FCS_GIT_COMMIT : 'dev';
