import { Injectable } from '@nestjs/common';
import { ClickHouseService } from '@app/clickhouse';
import { BOOST_FIELDS, type BoostField } from '@app/contracts';

export interface FieldStats {
  /** Documents with a value (not null). */
  withData: number;
  /** Values outside [0, 1]. */
  outOfRange: number;
  min: number | null;
  max: number | null;
}

export interface DocumentStats {
  documents: number;
  fields: Record<BoostField, FieldStats>;
}

/** The ranking-mix check's SQL: the latest version of (customer, instance, id, language) is the document. */
@Injectable()
export class DocumentStatsRepository {
  constructor(private readonly ch: ClickHouseService) {}

  /** One pass over the instance's current, not deleted documents. */
  async stats(customer: string, instance: string): Promise<DocumentStats> {
    const columns = BOOST_FIELDS.map(
      (f) => `countIf(isNotNull(${f})) AS ${f}_n, countIf(${f} < 0 OR ${f} > 1) AS ${f}_bad, min(${f}) AS ${f}_min, max(${f}) AS ${f}_max`,
    ).join(',\n       ');
    // FINAL keeps the latest version per key; the deleted filter must apply after it, hence the subquery.
    const [row] = await this.ch.query<Record<string, string | number | null>>(
      `SELECT count() AS documents,
       ${columns}
       FROM (SELECT * FROM ${this.ch.table('documents')} FINAL WHERE customer = {customer:String} AND instance = {instance:String})
       WHERE NOT deleted`,
      { customer, instance },
    );
    const num = (v: string | number | null | undefined) => (v === null || v === undefined ? null : Number(v));
    const fields = Object.fromEntries(
      BOOST_FIELDS.map((f) => [
        f,
        { withData: Number(row[`${f}_n`]), outOfRange: Number(row[`${f}_bad`]), min: num(row[`${f}_min`]), max: num(row[`${f}_max`]) },
      ]),
    ) as Record<BoostField, FieldStats>;
    return { documents: Number(row.documents), fields };
  }
}
