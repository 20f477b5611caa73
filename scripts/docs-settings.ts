/**
 * Rewrites the settings table of docs/operations.md (between its markers) from src/settings.ts.
 *
 *   npx bun run scripts/docs-settings.ts           # rewrite the table
 *   npx bun run scripts/docs-settings.ts --check   # exit 1 when the table differs from the schema
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { withSettingsTable } from '../src/cli/settings-text';

const path = join(import.meta.dir, '..', 'docs', 'operations.md');
const doc = readFileSync(path, 'utf8');
const next = withSettingsTable(doc);
if (process.argv.includes('--check')) {
  if (next !== doc) {
    console.error('docs/operations.md: the settings table differs from src/settings.ts; run scripts/docs-settings.ts');
    process.exit(1);
  }
} else if (next !== doc) {
  writeFileSync(path, next);
  console.log('docs/operations.md: settings table rewritten');
}
