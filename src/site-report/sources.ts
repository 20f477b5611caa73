import type { IndexInfo } from '../index/model';
import type { CategoryRule } from './categories';

export type NotSearched = { name: string; astm_search_distance: string; why: string };

const NOT_IN_ECHO = 'Not in EPA ECHO';

/**
 * The standard environmental record sources of ASTM E1527-21 that ECHO does not hold, with the
 * standard's approximate minimum search distances. Every report lists them as not searched: a
 * screening from ECHO alone must not read as if it had looked.
 */
export const ASTM_SOURCES_NOT_IN_ECHO: readonly NotSearched[] = [
  { name: 'Federal National Priorities List (NPL, Superfund)', astm_search_distance: '1.0 mi', why: NOT_IN_ECHO },
  { name: 'Federal delisted NPL sites', astm_search_distance: '0.5 mi', why: NOT_IN_ECHO },
  { name: 'Federal SEMS list (formerly CERCLIS)', astm_search_distance: '0.5 mi', why: NOT_IN_ECHO },
  { name: 'Federal SEMS-Archive list (formerly CERCLIS NFRAP)', astm_search_distance: '0.5 mi', why: NOT_IN_ECHO },
  { name: 'Federal RCRA CORRACTS facilities (corrective action)', astm_search_distance: '1.0 mi', why: 'ECHO does not say whether a RCRA facility is under corrective action' },
  { name: 'Federal institutional and engineering control registries', astm_search_distance: 'property only', why: NOT_IN_ECHO },
  { name: 'Federal Emergency Response Notification System (ERNS)', astm_search_distance: 'property only', why: NOT_IN_ECHO },
  { name: 'State and tribal hazardous waste sites (NPL and CERCLIS equivalents)', astm_search_distance: '1.0 / 0.5 mi', why: NOT_IN_ECHO },
  { name: 'State and tribal landfills and solid waste disposal sites', astm_search_distance: '0.5 mi', why: NOT_IN_ECHO },
  { name: 'State and tribal leaking storage tanks (LUST)', astm_search_distance: '0.5 mi', why: NOT_IN_ECHO },
  { name: 'State and tribal registered storage tanks (UST / AST)', astm_search_distance: 'property and adjoining', why: NOT_IN_ECHO },
  { name: 'State and tribal institutional and engineering control registries', astm_search_distance: 'property only', why: NOT_IN_ECHO },
  { name: 'State and tribal voluntary cleanup sites', astm_search_distance: '0.5 mi', why: NOT_IN_ECHO },
  { name: 'State and tribal brownfield sites', astm_search_distance: '0.5 mi', why: NOT_IN_ECHO },
  { name: 'Local records (fire, health, building departments) and historical sources (fire insurance maps, aerial photographs, city directories)', astm_search_distance: 'as needed', why: NOT_IN_ECHO },
];

/** The `sources` of a report: the dataset (and the ZIP table when used), the ASTM sources ECHO lacks, and categories this index cannot search. */
export function sourcesOf(info: IndexInfo, zipCentroids: boolean, unsearchable: readonly CategoryRule[]) {
  const searched: { name: string; as_of: string | null; note: string }[] = [
    {
      name: info.dataset_name,
      as_of: info.as_of,
      note: info.fictitious ? 'FICTITIOUS sample data, not EPA records' : 'U.S. EPA ECHO facility records (ECHO exporter)',
    },
  ];
  if (zipCentroids) searched.push({ name: 'ZIP code centroids (the zipcodes package, bundled)', as_of: null, note: 'The site\'s ZIP when not given (or its centre, for a site placed there), and the ZIPs around it searched for facilities without coordinates' });
  const categories: NotSearched[] = unsearchable.map((c) => ({
    name: `${c.label} (${c.columns.join(', ')})`,
    astm_search_distance: `${c.miles} mi (this service's default)`,
    why: `${c.columns.join(', ')} ${c.columns.length === 1 ? 'is' : 'are'} not in this index`,
  }));
  return { searched, not_searched: [...categories, ...ASTM_SOURCES_NOT_IN_ECHO] };
}
