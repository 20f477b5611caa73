/**
 * A message made safe for a terminal: control bytes (ESC, NUL, BEL, CR, ... and C1) are written as
 * `\xNN`, so a binary file's header or a crafted CSV cell cannot move the cursor, recolour or clear
 * the screen when ingest quotes it. Newlines and tabs are kept.
 */
export function printable(text: string): string {
  return text.replace(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`);
}
