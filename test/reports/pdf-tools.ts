import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '../support/temp-dir';

/** Runs a poppler/qpdf tool on `pdf` written to a temp file; returns exit code and output. */
function runOn(pdf: Uint8Array, cmd: (path: string) => string[]): { code: number; stdout: string; stderr: string } {
  const dir = tempDir('pdf');
  try {
    const path = join(dir, 'doc.pdf');
    writeFileSync(path, pdf);
    const p = Bun.spawnSync(cmd(path), { stdout: 'pipe', stderr: 'pipe' });
    return { code: p.exitCode ?? -1, stdout: p.stdout.toString(), stderr: p.stderr.toString() };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Text as `pdftotext` (poppler) extracts it, whitespace collapsed so assertions ignore layout. */
export function pdfText(pdf: Uint8Array): string {
  const r = runOn(pdf, (p) => ['pdftotext', '-enc', 'UTF-8', p, '-']);
  if (r.code !== 0) throw new Error(`pdftotext failed (${r.code}): ${r.stderr}`);
  return r.stdout.replace(/\s+/g, ' ');
}

/** `qpdf --check`: structure, xref and stream encodings. */
export function qpdfCheck(pdf: Uint8Array): { ok: boolean; output: string } {
  const r = runOn(pdf, (p) => ['qpdf', '--check', p]);
  return { ok: r.code === 0, output: r.stdout + r.stderr };
}

/** Page count from `pdfinfo`. */
export function pdfPages(pdf: Uint8Array): number {
  const r = runOn(pdf, (p) => ['pdfinfo', p]);
  const m = /^Pages:\s+(\d+)/m.exec(r.stdout);
  if (!m) throw new Error(`pdfinfo failed: ${r.stderr}`);
  return Number(m[1]);
}

/** `pdfinfo` fields (Title, Creator, ...). */
export function pdfInfo(pdf: Uint8Array): Record<string, string> {
  const r = runOn(pdf, (p) => ['pdfinfo', '-enc', 'UTF-8', p]);
  return Object.fromEntries(r.stdout.split('\n').filter((l) => l.includes(':')).map((l) => [l.slice(0, l.indexOf(':')), l.slice(l.indexOf(':') + 1).trim()]));
}

/** A word `pdftotext -bbox` finds on a page: its text and box in points, y down from the page's top. */
export type PdfWord = { text: string; xMin: number; yMin: number; xMax: number; yMax: number };

/** The words of page `page` (1-based) with their boxes, in reading order. */
export function pdfWords(pdf: Uint8Array, page: number): PdfWord[] {
  const r = runOn(pdf, (p) => ['pdftotext', '-enc', 'UTF-8', '-bbox', '-f', String(page), '-l', String(page), p, '-']);
  if (r.code !== 0) throw new Error(`pdftotext -bbox failed (${r.code}): ${r.stderr}`);
  const unescape = (s: string) => s.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&apos;/g, "'").replace(/&amp;/g, '&');
  return [...r.stdout.matchAll(/<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">([^<]*)<\/word>/g)].map((m) => ({
    text: unescape(m[5]!),
    xMin: Number(m[1]),
    yMin: Number(m[2]),
    xMax: Number(m[3]),
    yMax: Number(m[4]),
  }));
}
