/**
 * What ingest sends its area layout process over the process's stdin (./spatial-layout-process.ts).
 * Private to one ingest: written and read by the same build of the code, on one machine.
 *
 *   points  each mapped facility's (lat, lng) as two Float64 in the machine's order, in the order
 *           ingest indexed them, in batches as the load goes
 *   end     one pair (Infinity, n): n = the number of points sent (no latitude is infinite)
 *   job     the LayoutJob as UTF-8 JSON, up to the end of the stream
 *
 * A stream that ends before `end` comes from an ingest that failed or died: nothing to lay out.
 */

/** Where the collected columns are (in arrival order), the exact file to write, and the identity that ties it to its index. */
export type LayoutJob = { columnsPath: string; outPath: string; identity: string };

const END = Number.POSITIVE_INFINITY;

/** The bytes that close a stream of `count` points and hand over `job`. */
export function endOfPoints(count: number, job: LayoutJob): Uint8Array {
  const json = new TextEncoder().encode(JSON.stringify(job));
  const out = new Uint8Array(16 + json.length);
  new Float64Array(out.buffer, 0, 2).set([END, count]);
  out.set(json, 16);
  return out;
}

/**
 * Reads a layout stream: `onPoint` for each point as it arrives, then the job. Throws (one line)
 * when the stream ends early, or its count or job is not what the end says.
 */
export async function readLayoutStream(input: AsyncIterable<Uint8Array>, onPoint: (lat: number, lng: number) => void): Promise<LayoutJob> {
  let carry = new Uint8Array(0); // part of a pair split between two chunks
  let count = 0;
  let declared = -1;
  const job: Uint8Array[] = [];
  for await (const chunk of input) {
    if (declared >= 0) {
      job.push(chunk);
      continue;
    }
    const bytes = carry.length ? concat([carry, chunk]) : chunk;
    const whole = bytes.length - (bytes.length % 16);
    // A Float64Array needs an 8-byte-aligned start: a chunk that has none is copied (rare, cheap next to H3).
    const aligned = bytes.byteOffset % 8 === 0 ? bytes : bytes.slice(0, whole);
    const pairs = new Float64Array(aligned.buffer, aligned.byteOffset, whole / 8);
    let k = 0;
    for (; k < pairs.length; k += 2) {
      const lat = pairs[k]!;
      if (lat === END) break;
      onPoint(lat, pairs[k + 1]!);
      count++;
    }
    if (k < pairs.length) {
      declared = pairs[k + 1]!;
      job.push(bytes.subarray(8 * k + 16));
    } else carry = bytes.slice(whole);
  }
  if (declared < 0) throw new Error(`the stream of points ended without its end (${count} points): the ingest that sent it failed or has gone`);
  if (declared !== count) throw new Error(`the ingest sent ${declared} points, ${count} arrived`);
  let parsed: Partial<LayoutJob>;
  try {
    parsed = JSON.parse(new TextDecoder().decode(concat(job))) as Partial<LayoutJob>;
  } catch {
    throw new Error('the layout job after the points is not JSON');
  }
  const { columnsPath, outPath, identity } = parsed;
  if (typeof columnsPath !== 'string' || typeof outPath !== 'string' || typeof identity !== 'string') throw new Error('the layout job lacks a columns path, an output path or an identity');
  return { columnsPath, outPath, identity };
}

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}
