/** Hash routes (`#/facility/990000000001`, `#/search?q=acme`): bookmarkable, never carrying the key. */
export type Route = { view: string; id: string | null; params: URLSearchParams };

/** The view of an address whose route cannot be decoded. */
export const UNREADABLE = 'unreadable';

export function parseRoute(hash: string): Route | null {
  if (hash !== '' && hash !== '#' && !hash.startsWith('#/')) return null; // an in-page anchor, not a route
  const [path = '', search = ''] = hash.replace(/^#\/?/, '').split('?');
  let parts: string[];
  try {
    parts = path.split('/').filter(Boolean).map(decodeURIComponent);
  } catch {
    // a broken %-escape (`#/facility/%E0%A4%A`): a view that says so, not a script error
    return { view: UNREADABLE, id: null, params: new URLSearchParams() };
  }
  const [view = '', id = null] = parts;
  return { view: view || 'lookup', id, params: new URLSearchParams(search) };
}

/** `#/area?lat=1&lng=2`, without empty values. */
export function routeHref(view: string, params: Record<string, string | number | null | undefined> = {}, id?: string): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== null && v !== undefined && v !== '') q.set(k, String(v));
  const qs = q.toString();
  return `#/${view}${id ? `/${encodeURIComponent(id)}` : ''}${qs ? `?${qs}` : ''}`;
}
