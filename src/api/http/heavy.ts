import type { Ticket } from '../../render/admission';
import type { AppDeps } from '../deps';
import type { RequestFacts } from './request-context';

/**
 * Lets a heavy request (a render or a large export) of the caller in, once its call was counted and
 * only when it needs a worker (a cached PDF never asks): over the account's limit or with the
 * queue full it is refused (429 / 503, src/render/admission.ts) and its call given back, so a
 * refused request is never billed.
 */
export async function admitHeavy(deps: Pick<AppDeps, 'renderPool' | 'store' | 'clock'>, facts: RequestFacts): Promise<Ticket> {
  try {
    return deps.renderPool.admission.admit(facts.accountId!);
  } catch (e) {
    if (facts.counted && facts.accountId) {
      facts.counted = false;
      await deps.store.refundMonthly(facts.accountId, deps.clock()).catch(() => undefined);
    }
    throw e;
  }
}

/** `work` as a heavy request of the caller: admitted first, its place released however it ends. */
export async function asHeavy<T>(deps: Pick<AppDeps, 'renderPool' | 'store' | 'clock'>, facts: RequestFacts, work: () => Promise<T>): Promise<T> {
  const ticket = await admitHeavy(deps, facts);
  try {
    return await work();
  } finally {
    ticket.release();
  }
}
