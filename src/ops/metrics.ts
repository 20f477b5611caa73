/**
 * A minimal Prometheus registry (text exposition format 0.0.4): counters, gauges and histograms
 * with fixed label names. Small on purpose: the service needs a dozen series, not a client library.
 * Label values must come from bounded sets (route patterns, status codes, error codes), never from
 * request data such as keys, IDs or addresses, so the series count stays small and nothing leaks.
 */

type Labels = Record<string, string | number | boolean>;

function escapeLabel(v: string): string {
  return v.replaceAll('\\', '\\\\').replaceAll('"', '\\"').replaceAll('\n', '\\n');
}

function labelText(names: readonly string[], values: readonly string[], extra = ''): string {
  const parts = names.map((n, i) => `${n}="${escapeLabel(values[i] ?? '')}"`);
  if (extra) parts.push(extra);
  return parts.length ? `{${parts.join(',')}}` : '';
}

function formatNumber(n: number): string {
  if (n === Infinity) return '+Inf';
  if (n === -Infinity) return '-Inf';
  return Number.isNaN(n) ? 'NaN' : String(n);
}

abstract class Metric {
  protected readonly keys = new Map<string, string[]>();
  constructor(
    readonly name: string,
    readonly help: string,
    readonly labelNames: readonly string[],
  ) {}

  /** One map key per label combination; values kept in label-name order. Callers on a hot path keep the key (incAt, observeAt). */
  keyOf(labels: Labels): string {
    // Runs for every request: build the key without intermediate arrays; keep the values only once.
    let key = '';
    for (let i = 0; i < this.labelNames.length; i++) key += (i ? '\u0000' : '') + String(labels[this.labelNames[i]!] ?? '');
    if (!this.keys.has(key)) this.keys.set(key, this.labelNames.map((n) => String(labels[n] ?? '')));
    return key;
  }

  abstract readonly type: 'counter' | 'gauge' | 'histogram';
  protected abstract samples(): string[];

  render(): string {
    return [`# HELP ${this.name} ${this.help}`, `# TYPE ${this.name} ${this.type}`, ...this.samples()].join('\n');
  }
}

/** Counters and gauges: one number per label combination, stored or read from a callback at each scrape. */
abstract class ValueMetric extends Metric {
  protected readonly values = new Map<string, number>();
  private collect?: () => { labels: Labels; value: number }[];

  /** Replaces stored values with a callback run at each scrape (a counter's must only ever grow). */
  collectWith(fn: () => { labels: Labels; value: number }[]): this {
    this.collect = fn;
    return this;
  }

  protected samples(): string[] {
    if (this.collect) {
      this.values.clear();
      for (const s of this.collect()) this.values.set(this.keyOf(s.labels), s.value);
    }
    return [...this.values].map(([k, v]) => `${this.name}${labelText(this.labelNames, this.keys.get(k)!)} ${formatNumber(v)}`);
  }
}

export class Counter extends ValueMetric {
  readonly type = 'counter' as const;

  inc(labels: Labels = {}, by = 1): void {
    this.incAt(this.keyOf(labels), by);
  }

  /** inc of the series a key from keyOf names. */
  incAt(k: string, by = 1): void {
    this.values.set(k, (this.values.get(k) ?? 0) + by);
  }

  get(labels: Labels = {}): number {
    return this.values.get(this.keyOf(labels)) ?? 0;
  }

  /** Sum over every label combination. */
  total(): number {
    let n = 0;
    for (const v of this.values.values()) n += v;
    return n;
  }
}

/** A gauge whose value is read when scraped (memory, index size), or set explicitly. */
export class Gauge extends ValueMetric {
  readonly type = 'gauge' as const;

  set(labels: Labels, value: number): void {
    this.values.set(this.keyOf(labels), value);
  }
}

export class Histogram extends Metric {
  readonly type = 'histogram' as const;
  private readonly series = new Map<string, { counts: number[]; sum: number; count: number }>();

  constructor(name: string, help: string, labelNames: readonly string[], readonly buckets: readonly number[]) {
    super(name, help, labelNames);
  }

  observe(labels: Labels, value: number): void {
    this.observeAt(this.keyOf(labels), value);
  }

  /** observe of the series a key from keyOf names. */
  observeAt(k: string, value: number): void {
    let s = this.series.get(k);
    if (!s) this.series.set(k, (s = { counts: this.buckets.map(() => 0), sum: 0, count: 0 }));
    // Non-cumulative per bucket here; made cumulative when rendered.
    for (let i = 0; i < this.buckets.length; i++) {
      if (value <= this.buckets[i]!) {
        s.counts[i]!++;
        break;
      }
    }
    s.sum += value;
    s.count++;
  }

  protected samples(): string[] {
    const out: string[] = [];
    for (const [k, s] of this.series) {
      const values = this.keys.get(k)!;
      let cumulative = 0;
      this.buckets.forEach((b, i) => {
        cumulative += s.counts[i]!;
        out.push(`${this.name}_bucket${labelText(this.labelNames, values, `le="${formatNumber(b)}"`)} ${cumulative}`);
      });
      out.push(`${this.name}_bucket${labelText(this.labelNames, values, 'le="+Inf"')} ${s.count}`);
      out.push(`${this.name}_sum${labelText(this.labelNames, values)} ${formatNumber(s.sum)}`);
      out.push(`${this.name}_count${labelText(this.labelNames, values)} ${s.count}`);
    }
    return out;
  }
}

/** Holds metrics in registration order and renders them all. */
export class Registry {
  private readonly metrics: Metric[] = [];

  register<M extends Metric>(m: M): M {
    this.metrics.push(m);
    return m;
  }

  render(): string {
    return `${this.metrics.map((m) => m.render()).join('\n')}\n`;
  }
}
