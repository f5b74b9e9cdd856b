import { DATA_UPDATED_AT_HEADER } from '@app/http';
import type { HeaderTarget } from '../common/total-count';

/** X-Data-Updated-At: the newest event counted in the window under the filters; absent when there is none. */
export function setDataUpdatedAt(res: HeaderTarget, iso: string | undefined): void {
  if (iso) {
    res.header(DATA_UPDATED_AT_HEADER, iso);
  }
}

/** The header as documented on every analytics answer. */
export const DATA_UPDATED_AT_DOC = {
  [DATA_UPDATED_AT_HEADER]: {
    description: 'Time (ISO-8601, UTC) of the newest event the answer counts in its window; absent when there is none',
    required: false,
    schema: { type: 'string', format: 'date-time' },
  },
} as const;
