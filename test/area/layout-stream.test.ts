import { describe, expect, it } from 'bun:test';
import { endOfPoints, readLayoutStream, type LayoutJob } from '../../src/area/layout-stream';

const JOB: LayoutJob = { columnsPath: '/tmp/x.columns', outPath: '/tmp/x.area', identity: 'id-É' };

/** `bytes` cut into chunks of the sizes given in turn, each a view at an odd offset of a larger buffer (as a pipe may hand them). */
async function* chunked(bytes: Uint8Array, sizes: number[]): AsyncGenerator<Uint8Array> {
  for (let at = 0, k = 0; at < bytes.length; k++) {
    const n = Math.min(sizes[k % sizes.length]!, bytes.length - at);
    const room = new Uint8Array(n + 3);
    room.set(bytes.subarray(at, at + n), 3);
    yield room.subarray(3);
    at += n;
  }
}

function streamOf(points: number[][], end: Uint8Array | null): Uint8Array {
  const pairs = new Uint8Array(new Float64Array(points.flat()).buffer);
  const out = new Uint8Array(pairs.length + (end?.length ?? 0));
  out.set(pairs);
  if (end) out.set(end, pairs.length);
  return out;
}

describe('the stream of points to the layout process', () => {
  const points = Array.from({ length: 500 }, (_, i) => [29 + i / 1000, -95 - i / 997]);

  it.each([[[1]], [[7, 9, 16]], [[5, 33, 2, 64]], [[65_536]]])('reads every point in order and the job, whatever the chunk sizes (%p)', async (sizes) => {
    const got: number[][] = [];
    const job = await readLayoutStream(chunked(streamOf(points, endOfPoints(points.length, JOB)), sizes), (lat, lng) => got.push([lat, lng]));
    expect(got).toEqual(points);
    expect(job).toEqual(JOB);
  });

  it.each([
    ['ends before its end', streamOf(points, null), /ended without its end \(500 points\)/],
    ['declares another count', streamOf(points, endOfPoints(501, JOB)), /sent 501 points, 500 arrived/],
    ['carries no job', streamOf(points, endOfPoints(500, JOB).subarray(0, 20)), /not JSON/],
    ['carries a job without its paths', streamOf(points, endOfPoints(500, { identity: 'x' } as LayoutJob)), /lacks a columns path/],
  ])('is refused in one line when it %s', async (_name, bytes, message) => {
    const error = await readLayoutStream(chunked(bytes, [4096]), () => {}).catch((e: Error) => e);
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toMatch(message);
    expect((error as Error).message).not.toContain('\n');
  });
});
