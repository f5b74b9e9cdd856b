import { ApiProperty } from '@nestjs/swagger';
import { FILTER_OPERATORS } from '@app/contracts';

/** A filter of a search as stored (docs/architecture.md, "Filters, users, countries and tags"). */
export class FilterView {
  @ApiProperty({ example: 'brand', description: 'The filter attribute, as sent (trimmed)' })
  attribute!: string;

  @ApiProperty({ enum: [...FILTER_OPERATORS], example: ':', description: 'The operator' })
  operator!: string;

  @ApiProperty({ example: 'Apple', description: 'The value, as sent (trimmed)' })
  value!: string;
}
