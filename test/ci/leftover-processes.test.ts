import { describe, expect, it } from 'bun:test';
import { ROOT } from '../support/process';

const find = (marker: string) => Bun.spawnSync(['bash', 'scripts/leftover-processes.sh', marker, String(process.pid)], { cwd: ROOT }).stdout.toString();

describe('.ci/run finds processes the suite left behind', () => {
  it('a process carrying the run marker is listed with its command line; others are not; none once it is gone', async () => {
    const marker = `test-${process.pid}-${Date.now()}`;
    const ours = Bun.spawn(['sleep', '30'], { env: { ...process.env, FCS_TEST_RUN: marker } });
    const other = Bun.spawn(['sleep', '30'], { env: { ...process.env, FCS_TEST_RUN: `${marker}-other` } });
    try {
      await Bun.sleep(100);
      const listed = find(marker);
      expect(listed).toContain(`${ours.pid} sleep 30`);
      expect(listed).not.toContain(String(other.pid));
    } finally {
      ours.kill('SIGKILL');
      other.kill('SIGKILL');
    }
    await ours.exited;
    expect(find(marker)).toBe('');
  });
});
