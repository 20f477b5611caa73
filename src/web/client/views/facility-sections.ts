import { getJson } from '../api';
import { historyChart } from '../charts';
import { fmtInt, fmtUsd, h, notice, put } from '../dom';
import { failureNotice, loading } from './common';
import { ordinal, peerStanding } from '../../../shared/peer-words';

export type Program = {
  status?: string | null;
  significant?: boolean | null;
  qtrs_with_nc?: number | null;
  formal_actions?: number | null;
  informal_actions?: number | null;
  penalties_usd?: number | null;
  last_penalty_date?: string | null;
};
export type Peers = {
  naics: string; naics_digits: number; peer_count: number; percentile: number | null; percentile_note?: string | null; median_score: number;
  share_scoring_better?: number | null; share_tied?: number | null;
};
export type Explanation = { component: string; points_lost: number; reason: string };
type Redacted = { redacted: true; message?: string };

const PROGRAMS: [string, string][] = [
  ['caa', 'Clean Air Act (CAA)'],
  ['cwa', 'Clean Water Act (CWA)'],
  ['rcra', 'Hazardous waste (RCRA)'],
  ['sdwa', 'Drinking water (SDWA)'],
];

const isRedacted = (v: unknown): v is Redacted => typeof v === 'object' && v !== null && (v as Redacted).redacted === true;
/** "not reported" for a value the source file lacks (null), never "none". */
const reported = <T>(v: T | null | undefined, show: (v: T) => string) => (v === null || v === undefined ? 'not reported' : show(v));

function section(title: string, id: string, ...body: (Node | null)[]): HTMLElement {
  return h('section', { class: 'panel', 'aria-labelledby': id }, h('h3', { id }, title), ...body);
}

/** A field the record does not carry on this server (older score model): say so plainly. */
const absent = (what: string) => notice(`This server does not report ${what} yet.`, 'info');

export function explanationSection(v: unknown): HTMLElement {
  const id = 'why-h';
  if (v === undefined) return section('Why points were lost', id, absent('explanations'));
  if (isRedacted(v)) return section('Why points were lost', id, notice(v.message ?? 'Explanations are not shown on this plan.', 'info'));
  const items = (v as Explanation[]).filter((e) => e && typeof e.reason === 'string');
  if (items.length === 0) return section('Why points were lost', id, h('p', {}, 'No points lost: nothing on record counts against this facility.'));
  return section(
    'Why points were lost',
    id,
    h('ul', { class: 'explanation' }, ...items.map((e) => h('li', {}, e.reason, e.points_lost > 0 ? h('span', { class: 'points-lost' }, ` (−${e.points_lost} points)`) : null))),
  );
}

export function peersSection(v: unknown): HTMLElement {
  const id = 'peers-h';
  if (v === undefined) return section('Industry peers', id, absent('industry peer comparisons'));
  if (isRedacted(v)) return section('Industry peers', id, notice(v.message ?? 'Peer comparisons are not shown on this plan.', 'info'));
  if (v === null) return section('Industry peers', id, h('p', {}, 'No peer group: the facility has no NAICS industry code on record.'));
  const p = v as Peers;
  const group = `${fmtInt(p.peer_count)} ${p.peer_count === 1 ? 'facility' : 'facilities'} in NAICS ${p.naics} (industry code compared at ${p.naics_digits} digits)`;
  // the shares read right where a percentile cannot: most clean facilities tie at 100, and a mid-rank
  // percentile put a 100 at the 59th and a 99 at the 19th of the same group
  const rank =
    p.percentile === null
      ? `No percentile: ${p.percentile_note ?? `only ${group}, too few to rank`} (industry code compared at ${p.naics_digits} digits).`
      : typeof p.share_scoring_better === 'number' && typeof p.share_tied === 'number'
        ? `${peerStanding(p.share_scoring_better, p.share_tied)}, among ${group}.`
        : `Ranks at the ${ordinal(p.percentile)} percentile of ${group}; facilities with the same score count half.`;
  return section('Industry peers', id, h('p', { class: 'peers' }, `${rank} Their median score is ${p.median_score}.`));
}

export function programsSection(v: unknown): HTMLElement {
  const id = 'programs-h';
  if (v === undefined) return section('Programs', id, absent('per-program records'));
  if (isRedacted(v)) return section('Programs', id, notice(v.message ?? 'Program records are not shown on this plan.', 'info'));
  const programs = (v ?? {}) as Record<string, Program | null>;
  const cols = ['Program', 'Status', 'Significant violation', 'Quarters in non-compliance (3 years)', 'Formal actions', 'Informal actions', 'Penalties', 'Last penalty'];
  return section(
    'Programs',
    id,
    h(
      'div',
      { class: 'table-wrap' },
      h(
        'table',
        { class: 'data programs' },
        h('caption', {}, 'The facility under each EPA program'),
        h('thead', {}, h('tr', {}, ...cols.map((c) => h('th', { scope: 'col' }, c)))),
        h(
          'tbody',
          {},
          ...PROGRAMS.map(([key, label]) => {
            const p = programs[key];
            if (!p) return h('tr', {}, h('th', { scope: 'row' }, label), h('td', { colspan: cols.length - 1 }, 'No record under this program'));
            return h(
              'tr',
              {},
              h('th', { scope: 'row' }, label),
              h('td', {}, reported(p.status, String)),
              h('td', {}, reported(p.significant, (b) => (b ? 'Yes' : 'No'))),
              h('td', {}, reported(p.qtrs_with_nc, String)),
              h('td', {}, reported(p.formal_actions, String)),
              h('td', {}, reported(p.informal_actions, String)),
              h('td', {}, reported(p.penalties_usd, fmtUsd)),
              h('td', {}, reported(p.last_penalty_date, String)),
            );
          }),
        ),
      ),
    ),
  );
}

type HistoryEntry = { as_of: string; overall_score: number; active_enforcement?: boolean; score_method?: string; change?: unknown };
type History = HistoryEntry[] | { entries?: HistoryEntry[]; history?: HistoryEntry[] };

function changeText(c: unknown): string {
  if (c === null || c === undefined) return 'first entry';
  if (typeof c === 'string') return c.replace(/_/g, ' ');
  if (typeof c === 'object') {
    const o = c as Record<string, unknown>;
    if (typeof o.kind === 'string') return o.kind.replace(/_/g, ' ');
    if (typeof o.type === 'string') return o.type.replace(/_/g, ' ');
    if (typeof o.score_delta === 'number') return `score ${o.score_delta > 0 ? '+' : ''}${o.score_delta}`;
    if (typeof o.delta === 'number') return `score ${o.delta > 0 ? '+' : ''}${o.delta}`;
  }
  return 'changed';
}

/** Score over time from /history (Starter+): chart plus the same numbers as a table. */
export function historySection(registryId: string): HTMLElement {
  const body = h('div', { 'aria-live': 'polite' }, loading('the score history'));
  void (async () => {
    const r = await getJson<History>(`/api/v1/facility/${encodeURIComponent(registryId)}/history`);
    if (!r.ok) return put(body, failureNotice(r, 'score history'));
    const entries = (Array.isArray(r.data) ? r.data : (r.data.entries ?? r.data.history ?? [])).filter((e) => typeof e.overall_score === 'number');
    if (entries.length === 0) return put(body, h('p', {}, 'No history recorded for this facility yet.'));
    put(
      body,
      historyChart(entries.map((e) => ({ as_of: e.as_of, score: e.overall_score }))),
      h(
        'details',
        {},
        h('summary', {}, `History as a table (${entries.length} ${entries.length === 1 ? 'entry' : 'entries'})`),
        h(
          'table',
          { class: 'data history' },
          h('caption', {}, 'Score by release, newest first'),
          h('thead', {}, h('tr', {}, ...['As of', 'Score', 'Enforcement (12 months or addressing a violation)', 'Change', 'Score version'].map((c) => h('th', { scope: 'col' }, c)))),
          h(
            'tbody',
            {},
            ...entries.map((e) =>
              h('tr', {}, h('td', {}, e.as_of), h('td', {}, String(e.overall_score)), h('td', {}, e.active_enforcement ? 'Yes' : 'No'), h('td', {}, changeText(e.change)), h('td', {}, e.score_method ?? '')),
            ),
          ),
        ),
      ),
    );
  })();
  return section('Score over time', 'history-h', body);
}
