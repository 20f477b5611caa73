import { h } from '../dom';

/**
 * A table in a sideways-scrolling box, with a line naming the columns cut off at the right
 * ("More columns to the right: Enforcement"), shown only while some are: at 375 px the area table's
 * last column was off screen with nothing saying so. Kept current on resize and scroll.
 */
export function scrollingTable(table: HTMLTableElement): HTMLElement {
  const cue = h('p', { class: 'scroll-cue', hidden: true });
  const wrap = h('div', { class: 'table-wrap' }, table);
  const update = () => {
    const right = wrap.getBoundingClientRect().right + 1;
    const cut = [...table.querySelectorAll('thead th')].filter((th) => th.getBoundingClientRect().right > right).map((th) => th.textContent!.trim());
    cue.hidden = cut.length === 0;
    cue.dataset.cut = String(cut.length);
    cue.textContent = cut.length ? `More columns to the right: ${cut.join(', ')}. Scroll the table sideways to see them.` : '';
  };
  new ResizeObserver(update).observe(wrap);
  wrap.addEventListener('scroll', update, { passive: true });
  return h('div', { class: 'scrolling-table' }, cue, wrap);
}
