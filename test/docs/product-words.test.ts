import { describe, expect, it } from 'bun:test';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { ROOT } from '../support/process';

/**
 * The repository speaks of the product. How it was built (work items and their numbers, who ran
 * what on which machine) belongs in commit messages, so code, tests, scripts and docs never say it.
 * Product words that look alike pass: a key being issued, `sessionStorage`, a browser's storage field.
 * The words are spelled in pieces here so that this file does not match itself.
 */
const ITEM_WORD = ['iss', 'ue'].join('');
const SITTING_WORD = ['ses', 'sion'].join('');
const PERSON_WORD = ['engin', 'eer'].join('');
const WORK_WORDS: readonly RegExp[] = [
  new RegExp(`\\b${ITEM_WORD}s?[ -]#?\\d+`, 'i'), // the word with a number: "<word> 14", "<word>s 13-19", "<word>-15", "<word> #3"
  new RegExp(`\\b${ITEM_WORD} #`, 'i'),
  new RegExp(`\\b(the|this|that|its|each|which|whose) ${ITEM_WORD}(s|'s)?\\b`, 'i'), // "the <word>'s target"
  new RegExp(
    `\\b(first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|this|that|last|next|previous|earlier|later|same|one|each|every|work|our|a|the) ${SITTING_WORD}s?\\b`,
    'i',
  ),
  new RegExp(`\\b${SITTING_WORD}s?[ -]\\d`, 'i'),
  new RegExp(`\\b${PERSON_WORD}s?\\b`, 'i'),
  /\b(other|another) agents?\b/i,
  new RegExp(['', 'work', ''].join('/')), // this machine's paths
];

const SCOPE = ['src', 'test', 'scripts', 'docs', 'README.md'];
const SELF = 'test/docs/product-words.test.ts';

/** The text files in scope: tracked files when git can say which, else every file under the folders. */
function filesInScope(): string[] {
  const git = Bun.spawnSync(['git', 'ls-files', '-z', '--', ...SCOPE], { cwd: ROOT, stdout: 'pipe', stderr: 'pipe' });
  const listed = git.exitCode === 0 ? git.stdout.toString().split('\0').filter(Boolean) : SCOPE.flatMap((p) => walk(p));
  return listed.filter((f) => f !== SELF && !/\.(png|gz|sqlite|pdf)$/.test(f));
}

function walk(path: string): string[] {
  const full = join(ROOT, path);
  try {
    if (!statSync(full).isDirectory()) return [path];
  } catch {
    return [];
  }
  return readdirSync(full).flatMap((name) => (name === 'node_modules' || name.startsWith('.') ? [] : walk(relative(ROOT, join(full, name)))));
}

/** Lines of `text` that say how the work was done, as `line: text`. */
export function workWordsIn(text: string): string[] {
  return text.split('\n').flatMap((line, i) => (WORK_WORDS.some((re) => re.test(line)) ? [`${i + 1}: ${line.trim().slice(0, 160)}`] : []));
}

describe('the repository speaks of the product, not of how it was built', () => {
  it('no file in src/, test/, scripts/, docs/ or the README says how the work was organised, who did it, or where it ran', () => {
    const hits = filesInScope().flatMap((file) => {
      let text: string;
      try {
        text = readFileSync(join(ROOT, file), 'utf8');
      } catch {
        return []; // deleted in the working tree
      }
      return text.includes('\0') ? [] : workWordsIn(text).map((hit) => `${file}:${hit}`);
    });
    expect(hits).toEqual([]);
  });
});

describe('the word patterns', () => {
  it.each([
    `${ITEM_WORD[0]!.toUpperCase()}${ITEM_WORD.slice(1)} 14 (score model fcs-2.0): programs`,
    `before ${ITEM_WORD}s 13-19`,
    `the ${ITEM_WORD}-15 history contract`,
    `Unpinned by default, as the ${ITEM_WORD}'s figures are defined`,
    `measured in the fifth ${SITTING_WORD}`,
    `Sixth ${SITTING_WORD} figures`,
    `a machine shared with six other ${PERSON_WORD}s`,
    `other ${PERSON_WORD}s' jobs running`,
    'other agents running',
    `flock ${['', 'work', 'bench.lock'].join('/')} npx bun run scripts/bench-area-layout.ts`,
  ])('finds "%s"', (line) => {
    expect(workWordsIn(line)).toHaveLength(1);
  });

  it.each([
    "const issue = (w, sub) => post(w, '/api/v1/account/key', sub)",
    "summary: 'Issue the first API key of the signed-in user'",
    'key issue, regeneration and usage',
    'kept in `sessionStorage` only',
    `${SITTING_WORD}: Object.keys(${SITTING_WORD}Storage)`,
    'a user agent string',
    'the release of 2026-11-07 is the 2nd',
  ])('passes "%s"', (line) => {
    expect(workWordsIn(line)).toEqual([]);
  });
});
