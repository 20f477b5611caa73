/** Tiny DOM builders: text always goes in as text (never HTML), so API strings cannot inject markup. */

type Child = Node | string | number | null | undefined | false;
type Attrs = Record<string, string | number | boolean | null | undefined | ((e: Event) => void)>;

function fill(el: Element, attrs: Attrs, children: Child[]): void {
  for (const [name, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (typeof value === 'function') el.addEventListener(name.replace(/^on/, ''), value);
    else el.setAttribute(name, value === true ? '' : String(value));
  }
  for (const c of children) {
    if (c === null || c === undefined || c === false) continue;
    el.append(typeof c === 'string' || typeof c === 'number' ? document.createTextNode(String(c)) : c);
  }
}

/** An HTML element: `h('a', { href: '#/x', onclick: fn }, 'text', child)`. */
export function h<K extends keyof HTMLElementTagNameMap>(tag: K, attrs: Attrs = {}, ...children: Child[]): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  fill(el, attrs, children);
  return el;
}

const SVG_NS = 'http://www.w3.org/2000/svg';

/** An SVG element, same call shape as `h`. */
export function s<K extends keyof SVGElementTagNameMap>(tag: K, attrs: Attrs = {}, ...children: Child[]): SVGElementTagNameMap[K] {
  const el = document.createElementNS(SVG_NS, tag);
  fill(el, attrs, children);
  return el;
}

/** Replaces everything inside `el`. */
export function put(el: Element, ...children: Child[]): void {
  el.replaceChildren();
  fill(el, {}, children);
}

/** A paragraph the screen reader announces (role=status) with a class for its look. */
export function notice(text: string, kind: 'info' | 'warn' | 'error' = 'info'): HTMLParagraphElement {
  return h('p', { class: `notice notice-${kind}`, role: kind === 'error' ? 'alert' : 'status' }, text);
}

let ids = 0;
/** A fresh element id for label/aria wiring. */
export function uid(prefix: string): string {
  return `${prefix}-${++ids}`;
}

/** A labelled form field (label above input); returns the wrapper and the input. */
export function field(label: string, input: HTMLInputElement | HTMLSelectElement, hint?: string): HTMLDivElement {
  const id = input.id || uid('f');
  input.id = id;
  const hintId = hint ? `${id}-hint` : null;
  if (hintId) input.setAttribute('aria-describedby', hintId);
  return h('div', { class: 'field' }, h('label', { for: id }, label), input, hint ? h('small', { id: hintId, class: 'hint' }, hint) : null);
}

export const fmtInt = (n: number) => n.toLocaleString('en-US');
export const fmtUsd = (n: number) => `$${Math.round(n).toLocaleString('en-US')}`;
