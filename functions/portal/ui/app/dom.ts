/**
 * Building the page: every element is made with DOM calls and every text is set as text, never parsed as
 * HTML, so nothing an answer carries can become markup (and the strict CSP needs no inline anything).
 */

type Listener = (event: Event) => void;
type AttributeValue = string | number | boolean | null | undefined;
/** Attributes by name; `on<event>` adds a listener, `text` sets the text; null, undefined and false are left out. */
export type Attributes = Record<string, AttributeValue | Listener>;
/** What an element may hold: nodes, and strings or numbers as text; null, undefined and false are skipped. */
export type Child = Node | string | number | null | undefined | false;

const asNode = (child: Node | string | number): Node =>
  typeof child === 'string' || typeof child === 'number' ? document.createTextNode(String(child)) : child;

/** An HTML element: `h('button', { type: 'button', onclick }, 'Save')`. */
export const h = <K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attributes: Attributes = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] => {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === undefined || value === null || value === false) continue;
    if (typeof value === 'function') node.addEventListener(name.slice(2), value);
    else if (name === 'text') node.textContent = String(value);
    else node.setAttribute(name, value === true ? '' : String(value));
  }
  for (const child of children) {
    if (child !== null && child !== undefined && child !== false) node.appendChild(asNode(child));
  }
  return node;
};

/** An SVG element, its attributes set in the order given. */
export const svg = <K extends keyof SVGElementTagNameMap>(
  tag: K,
  attributes: Record<string, string>,
  ...children: Array<Node | string>
): SVGElementTagNameMap[K] => {
  const node = document.createElementNS('http://www.w3.org/2000/svg', tag);
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, value);
  for (const child of children) node.appendChild(asNode(child));
  return node;
};

/** An element the page's HTML shell provides (functions/portal/ui/page.ts). */
export const byId = (id: string): HTMLElement => {
  const element = document.getElementById(id);
  if (!element) throw new Error(`The page has no #${id}.`);
  return element;
};

const live = byId('live');

/** A message in the live region, announced by screen readers. */
export const say = (message: string, kind: 'ok' | 'error' = 'ok'): void => {
  live.textContent = '';
  live.className = `notice ${kind}`;
  live.hidden = false;
  live.textContent = message;
};

export const quiet = (): void => {
  live.hidden = true;
  live.textContent = '';
};

/** The rejection handler of every request: its message, shown as an error. */
export const fail = (error: unknown): void => say(error instanceof Error ? error.message : String(error), 'error');

/** A time from the API (ISO 8601) in the reader's locale; a dash when there is none. */
export const when = (iso: string | null | undefined): string => (iso ? new Date(iso).toLocaleString() : '—');

/** A form field's text (an absent field reads as empty). */
export const formText = (form: HTMLFormElement, name: string): string => {
  const value = new FormData(form).get(name);
  return typeof value === 'string' ? value : '';
};

/** A labelled input: the label wraps it, so it needs no id. */
export const field = (label: string, attributes: Attributes): HTMLLabelElement =>
  h('label', {}, label, h('input', attributes));

export interface Column {
  title: string;
  /** Right-aligned, tabular figures. */
  num?: boolean;
}

/** A table with a header row; `body` is its tbody, for a caller that adds rows later. */
export const table = (
  columns: readonly Column[],
  rows: readonly HTMLTableRowElement[],
  body: HTMLTableSectionElement = h('tbody'),
): HTMLTableElement => {
  const head = h('tr');
  for (const column of columns)
    head.appendChild(h('th', { scope: 'col', class: column.num ? 'num' : null, text: column.title }));
  body.append(...rows);
  return h('table', {}, h('thead', {}, head), body);
};

type Content = Node | string | number | null | undefined;
/** A cell: its content, or its content with `num` for a right-aligned figure. */
export type Cell = Content | { num?: boolean; node: Content };

const isWrapped = (cell: Cell): cell is { num?: boolean; node: Content } =>
  typeof cell === 'object' && cell !== null && !(cell instanceof Node);

export const row = (cells: readonly Cell[]): HTMLTableRowElement => {
  const tr = h('tr');
  for (const cell of cells) {
    const wrapped = isWrapped(cell);
    const td = h('td', { class: wrapped && cell.num ? 'num' : null });
    const content = wrapped ? cell.node : cell;
    if (content !== null && content !== undefined) td.appendChild(asNode(content));
    tr.appendChild(td);
  }
  return tr;
};

/** A status as a coloured pill (the style sheet colours `succeeded`, `READY`, `active`, `failed`, …). */
export const badge = (status: string): HTMLSpanElement => h('span', { class: `status ${status}`, text: status });
