import { AppError } from '../errors';

/** Seconds an account over its limit of concurrent heavy requests is asked to wait (Retry-After). */
export const ACCOUNT_RETRY_AFTER_S = 2;
/** Seconds any caller is asked to wait when every worker is busy and the queue is full. */
export const QUEUE_RETRY_AFTER_S = 5;

/** A heavy request let in: `release()` (idempotent) when its answer is made, whatever the outcome. */
export type Ticket = { release(): void };

/**
 * Who may start a heavy request now (docs/operations.md, "Render pool"): at most `perAccount` at a
 * time per account (429 RATE_LIMIT_EXCEEDED), at most `capacity` in all, running or waiting for a
 * worker (503 SERVICE_UNAVAILABLE: the instance is busy, not the caller over its share). Both with
 * Retry-After, and asked before the call is counted, so a refused call is never billed. The counts
 * are this process's: each replica bounds its own.
 */
export class Admission {
  private readonly byAccount = new Map<string, number>();
  private total = 0;
  /** Requests refused since start, by reason (for /metrics). */
  readonly refused = { account: 0, busy: 0 };

  constructor(
    private readonly perAccount: number,
    private readonly capacity: number,
  ) {}

  admit(accountId: string): Ticket {
    const mine = this.byAccount.get(accountId) ?? 0;
    if (mine >= this.perAccount) {
      this.refused.account++;
      throw new AppError(
        'RATE_LIMIT_EXCEEDED',
        `This account already has ${mine} report or export requests in progress (at most ${this.perAccount} at a time); retry after one completes`,
        { 'retry-after': String(ACCOUNT_RETRY_AFTER_S) },
      );
    }
    if (this.total >= this.capacity) {
      this.refused.busy++;
      throw new AppError('SERVICE_UNAVAILABLE', `Every report worker is busy and the queue is full; retry in ${QUEUE_RETRY_AFTER_S} s`, {
        'retry-after': String(QUEUE_RETRY_AFTER_S),
      });
    }
    this.byAccount.set(accountId, mine + 1);
    this.total++;
    let held = true;
    return {
      release: () => {
        if (!held) return;
        held = false;
        this.total--;
        const left = this.byAccount.get(accountId)! - 1;
        if (left === 0) this.byAccount.delete(accountId);
        else this.byAccount.set(accountId, left);
      },
    };
  }

  /** Heavy requests let in and not yet released. */
  get inFlight(): number {
    return this.total;
  }
}
