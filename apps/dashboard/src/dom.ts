/** A small element builder: attributes, then children (strings become text, never HTML). */
export function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attributes: Record<string, string | boolean | undefined> = {},
  ...children: Array<Node | string | null | undefined>
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === undefined || value === false) continue;
    node.setAttribute(name, value === true ? '' : value);
  }
  for (const child of children) if (child !== null && child !== undefined) node.append(child);
  return node;
}

export function formatNumber(n: number): string {
  return n.toLocaleString('en');
}

export function formatRate(r: number): string {
  return `${(r * 100).toFixed(1)} %`;
}

/** A change against the previous period, e.g. "+12.5 % vs previous", or "new" when there was nothing before. */
export function formatChange(current: number, previous: number | undefined): string {
  if (previous === undefined) return '';
  if (previous === 0) return current === 0 ? 'no change' : 'new (nothing before)';
  const change = current / previous - 1;
  return `${change >= 0 ? '+' : ''}${(change * 100).toFixed(1)} % vs previous period`;
}
