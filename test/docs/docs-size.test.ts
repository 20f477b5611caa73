import { describe, expect, it } from 'bun:test';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../support/process';

/**
 * The docs stay readable in one sitting: docs/*.md total at most 160,000 bytes (images are
 * separate). A page that grows should replace text, not append it; the message names the largest
 * pages, where cutting pays most.
 */
export const DOCS_BUDGET_BYTES = 160_000;

/** The pages of docs/ with their sizes in bytes, largest first. */
export function docSizes(dir = join(ROOT, 'docs')): { page: string; bytes: number }[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith('.md'))
    .map((f) => ({ page: `docs/${f}`, bytes: statSync(join(dir, f)).size }))
    .sort((a, b) => b.bytes - a.bytes);
}

/** Empty within the budget; else a sentence with the total and the five largest pages. */
export function overBudget(sizes: { page: string; bytes: number }[], budget = DOCS_BUDGET_BYTES): string {
  const total = sizes.reduce((sum, s) => sum + s.bytes, 0);
  if (total <= budget) return '';
  const largest = sizes.slice(0, 5).map((s) => `${s.page} ${s.bytes}`).join(', ');
  return `docs/*.md total ${total} bytes, over the budget of ${budget}; largest pages: ${largest}`;
}

describe('the docs stay within their size budget', () => {
  it('docs/*.md total at most 160,000 bytes', () => {
    expect(overBudget(docSizes())).toBe('');
  });

  it('an over-budget total is named with the largest pages first', () => {
    const message = overBudget([
      { page: 'docs/big.md', bytes: 100_000 },
      { page: 'docs/mid.md', bytes: 60_001 },
    ]);
    expect(message).toBe('docs/*.md total 160001 bytes, over the budget of 160000; largest pages: docs/big.md 100000, docs/mid.md 60001');
  });

  it('a total at the budget passes', () => {
    expect(overBudget([{ page: 'docs/a.md', bytes: 160_000 }])).toBe('');
  });
});
