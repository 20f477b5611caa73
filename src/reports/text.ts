import type { PDFFont } from 'pdf-lib';
import type { FontMetrics } from './font-metrics';

/** Letters NFKD cannot take apart but that have a plain Latin spelling. */
const LATIN_FALLBACKS: Record<string, string> = {
  Ł: 'L', ł: 'l', Đ: 'D', đ: 'd', Ħ: 'H', ħ: 'h', ı: 'i', Ŀ: 'L', ŀ: 'l', Ŧ: 'T', ŧ: 't', ĸ: 'k',
  Œ: 'OE', œ: 'oe', Æ: 'AE', æ: 'ae', ẞ: 'SS', Ə: 'E', ə: 'e', Ŋ: 'N', ŋ: 'n',
  '‐': '-', '‑': '-', '‒': '-', '−': '-', '′': "'", '″': '"', '‹': '<', '›': '>', '№': 'No.',
};

// Compiled once, not per character.
/** Control characters and line/paragraph separators: shown as a space. */
const CONTROL = /[\p{Cc}\p{Zl}\p{Zp}]/u;
/** Invisible format characters (joiners), variation selectors and emoji skin tones: dropped. */
const INVISIBLE = /[\p{Cf}\u{FE00}-\u{FE0F}\u{E0100}-\u{E01EF}\u{1F3FB}-\u{1F3FF}]/u;
const COMBINING_MARKS = /\p{M}/gu;
const WHITESPACE_RUNS = /\s+/g;
/** Printable ASCII words with single spaces between: what `toWinAnsi` gives back unchanged from a WinAnsi font. */
const PLAIN_ASCII = /^[\x21-\x7e]+(?: [\x21-\x7e]+)*$/;

/** `2026-11-22 01:30 UTC`: a printed time, with its time zone, the same everywhere on the page. */
export function printedTime(ms: number): string {
  return `${new Date(ms).toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

export type SafeText = { text: string; /** Some characters could not be shown and became '?'. */ lossy: boolean };

/**
 * Makes `raw` drawable with a WinAnsi standard font (Helvetica): what the font has is kept,
 * accented letters outside it are transliterated (ő -> o, Ł -> L), invisible joiners and variation
 * selectors are dropped, and anything else (CJK, emoji) becomes '?'. pdf-lib throws on a
 * character its font cannot encode, so nothing reaches a draw call without passing through here.
 */
export function toWinAnsi(raw: string, canEncode: (codePoint: number) => boolean): SafeText {
  let out = '';
  let lossy = false;
  for (const ch of raw.normalize('NFC')) {
    const cp = ch.codePointAt(0)!;
    if (CONTROL.test(ch)) out += ' ';
    else if (canEncode(cp)) out += ch;
    else if (LATIN_FALLBACKS[ch] !== undefined) out += LATIN_FALLBACKS[ch];
    else if (INVISIBLE.test(ch)) continue;
    else {
      const plain = ch.normalize('NFKD').replace(COMBINING_MARKS, '');
      if (plain !== '' && [...plain].every((c) => canEncode(c.codePointAt(0)!))) out += plain;
      else {
        out += '?';
        lossy = true;
      }
    }
  }
  return { text: out.replace(WHITESPACE_RUNS, ' ').trim(), lossy };
}

// Lookup sets by character-set array: pdf-lib hands every WinAnsi standard font (Helvetica, Times,
// Courier and their styles, in any document) the same array, so the set is built once per process.
const characterSets = new WeakMap<number[], Set<number>>();

/** `toWinAnsi` bound to one font's character set (all WinAnsi standard fonts share it). */
export function encoderFor(font: PDFFont): (raw: string) => SafeText {
  const codePoints = font.getCharacterSet();
  let set = characterSets.get(codePoints);
  if (!set) characterSets.set(codePoints, (set = new Set(codePoints)));
  const slow = (raw: string) => toWinAnsi(raw, (cp) => set.has(cp));
  if (!hasAscii(set)) return slow;
  // most of a report (IDs, figures, ECHO's upper-case names) is plain ASCII and needs no work
  return (raw) => (PLAIN_ASCII.test(raw) ? { text: raw, lossy: false } : slow(raw));
}

function hasAscii(set: Set<number>): boolean {
  for (let cp = 0x20; cp <= 0x7e; cp++) if (!set.has(cp)) return false;
  return true;
}

/**
 * Greedy word wrap to `maxWidth` points; a word wider than a line (a long run without spaces)
 * is cut by characters so nothing ever runs off the page. Text must already be font-safe.
 * A line's width grows by each word's (the kerning at the joins included) instead of being
 * measured again: metrics are whole thousandths, so the sum is exactly what pdf-lib would
 * measure for the joined line, and the lines are the same.
 */
export function wrapText(text: string, font: FontMetrics, size: number, maxWidth: number): string[] {
  const scale = size / 1000;
  const fits = (units: number) => units * scale <= maxWidth;
  // one word that fits (a figure, an ID, Yes/No): most table cells
  if (text && !text.includes(' ') && fits(font.units(text))) return [text];
  const space = font.units(' ');
  const lines: string[] = [];
  let line = '';
  let lineUnits = 0;
  for (const word of text.split(' ')) {
    if (!word) continue;
    const wordUnits = font.units(word);
    const joined = line ? lineUnits + font.kernBetween(line, ' ') + space + font.kernBetween(' ', word) + wordUnits : wordUnits;
    if (fits(joined)) {
      line = line ? `${line} ${word}` : word;
      lineUnits = joined;
      continue;
    }
    if (line) lines.push(line);
    let rest = word;
    let restUnits = wordUnits;
    while (!fits(restUnits)) {
      // longest prefix that fits (at least one character, so the loop always progresses)
      let lo = 1;
      let hi = rest.length - 1;
      while (lo < hi) {
        const mid = Math.ceil((lo + hi) / 2);
        if (fits(font.units(rest.slice(0, mid)))) lo = mid;
        else hi = mid - 1;
      }
      lines.push(rest.slice(0, lo));
      rest = rest.slice(lo);
      restUnits = font.units(rest);
    }
    line = rest;
    lineUnits = restUnits;
  }
  if (line) lines.push(line);
  return lines.length ? lines : [''];
}

/** Like `wrapText` but at most `maxLines`, the last one ending in an ellipsis when cut. */
export function clampLines(text: string, font: FontMetrics, size: number, maxWidth: number, maxLines: number): string[] {
  const lines = wrapText(text, font, size, maxWidth);
  if (lines.length <= maxLines) return lines;
  const kept = lines.slice(0, maxLines);
  let last = `${kept[maxLines - 1]}…`;
  while (last.length > 1 && font.widthOfTextAtSize(last, size) > maxWidth) last = `${last.slice(0, -2).trimEnd()}…`;
  kept[maxLines - 1] = last;
  return kept;
}
