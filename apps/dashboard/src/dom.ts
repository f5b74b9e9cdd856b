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

/** A rate's change against the previous period in percentage points, e.g. "-4.3 points vs previous period". */
export function formatPointChange(current: number, previous: number | undefined): string {
  if (previous === undefined) return '';
  const points = (current - previous) * 100;
  return `${points >= 0 ? '+' : ''}${points.toFixed(1)} points vs previous period`;
}

/** A term's change (count / previous_count - 1) with its sign; "new" when there was nothing before. */
export function formatTermChange(change: number | null | undefined): string {
  if (change === null || change === undefined) return 'new';
  return `${change >= 0 ? '+' : ''}${formatRate(change)}`;
}
