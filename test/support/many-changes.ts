import { facility } from '../helpers';
import type { TestHistoryRow, TestRelease } from './history-index';

/** `n` fictitious facilities; release 2 changes every one's score (one event each for an any-change list). */
export function manyChanges(n: number) {
  const ids = Array.from({ length: n }, (_, i) => String(990000001000 + i));
  const releases1: TestRelease[] = [{ seq: 1, as_of: '2026-10-01' }];
  const releases2: TestRelease[] = [...releases1, { seq: 2, as_of: '2026-10-08' }];
  const history1: TestHistoryRow[] = ids.map((id) => ({ registry_id: id, seq: 1, change: 'added', score: 80 }));
  const history2: TestHistoryRow[] = [...history1, ...ids.map((id) => ({ registry_id: id, seq: 2, change: 'changed' as const, score: 70 }))];
  return {
    ids,
    release1: { rows: ids.map((id) => facility({ registry_id: id, overall_score: 80 })), releases: releases1, history: history1 },
    release2: { rows: ids.map((id) => facility({ registry_id: id, overall_score: 70 })), releases: releases2, history: history2 },
  };
}

/** Settings that keep process tests quick (docs/webhooks.md, "Settings"). */
export const QUICK_WEBHOOK_ENV = {
  FCS_WEBHOOK_ALLOW: '127.0.0.1/32',
  FCS_WEBHOOK_TIMEOUT_MS: '2000',
  FCS_WEBHOOK_LEASE_MS: '2500',
  FCS_WEBHOOK_POLL_MS: '50',
  FCS_WEBHOOK_RETRY_BASE_MS: '100',
  FCS_LOG_REQUESTS: '0',
};
