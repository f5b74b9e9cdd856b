import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import type { BoostField } from '@app/contracts';

/** The reason strings clients match, exactly (the last one ends with a period). */
export const CHECK_REASONS = ['Low amount of data', 'Invalid boosting data', 'No ranking mix data.'] as const;
export type CheckReason = (typeof CHECK_REASONS)[number];
export type FieldCheck = { result: true } | { result: false; reasons: CheckReason[] };

/** One boost field's verdict: `{ result: true }`, or `{ result: false, reasons }`. */
export class FieldCheckView {
  @ApiProperty({ description: 'true when every check passed for the field' })
  result!: boolean;

  @ApiPropertyOptional({
    enum: CHECK_REASONS,
    enumName: 'CheckReason',
    isArray: true,
    description: 'Only when result is false: one entry per failed check',
    example: ['Low amount of data'],
  })
  reasons?: CheckReason[];
}

const field = (example: FieldCheck) => ApiProperty({ type: FieldCheckView, example });

/** GET /ranking-mix-config/check-data: an object keyed by boost field name. */
@ApiSchema({ name: 'RankingMixCheck' }) // the schema name generated clients already use
export class RankingMixView implements Record<BoostField, FieldCheck> {
  @field({ result: true })
  new!: FieldCheck;

  @field({ result: true })
  sold!: FieldCheck;

  @field({ result: false, reasons: ['Low amount of data'] })
  basket!: FieldCheck;

  @field({ result: true })
  view!: FieldCheck;

  @field({ result: false, reasons: ['Invalid boosting data'] })
  revenue!: FieldCheck;

  @field({ result: false, reasons: ['No ranking mix data.'] })
  rating!: FieldCheck;

  @field({ result: false, reasons: ['Low amount of data', 'No ranking mix data.'] })
  profit_margin!: FieldCheck;
}
