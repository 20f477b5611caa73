import { h } from '../dom';

export type Column<T> = { label: string; value: (row: T) => string | number; cell: (row: T) => Node | string; numeric?: boolean };

/**
 * A table whose column headers are buttons: Enter/Space or a click sorts by that column, again
 * to reverse; `aria-sort` tells a screen reader the order.
 */
export function sortableTable<T>(caption: string, columns: Column<T>[], rows: T[], initial = 0): HTMLTableElement {
  let by = initial;
  let asc = true;
  const tbody = h('tbody');
  const headers = columns.map((c, i) => {
    const button = h('button', { type: 'button', class: 'sort' }, c.label);
    button.addEventListener('click', () => {
      asc = by === i ? !asc : true;
      by = i;
      draw();
    });
    return h('th', { scope: 'col', class: c.numeric ? 'num' : '' }, button);
  });
  const draw = () => {
    const col = columns[by]!;
    const sorted = [...rows].sort((a, b) => {
      const x = col.value(a);
      const y = col.value(b);
      const d = typeof x === 'number' && typeof y === 'number' ? x - y : String(x).localeCompare(String(y));
      return asc ? d : -d;
    });
    headers.forEach((th, i) => (i === by ? th.setAttribute('aria-sort', asc ? 'ascending' : 'descending') : th.removeAttribute('aria-sort')));
    tbody.replaceChildren(...sorted.map((r) => h('tr', {}, ...columns.map((c) => h('td', { class: c.numeric ? 'num' : '' }, c.cell(r))))));
  };
  draw();
  return h('table', { class: 'data sortable' }, h('caption', {}, caption, h('span', { class: 'visually-hidden' }, ' (column headers sort the table)')), h('thead', {}, h('tr', {}, ...headers)), tbody);
}
