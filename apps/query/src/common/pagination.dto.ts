import { Type } from 'class-transformer';
import { ApiPropertyOptional } from '@nestjs/swagger';
import {
  IsInt,
  Max,
  Min,
  Validate,
  ValidatorConstraint,
  type ValidationArguments,
  type ValidatorConstraintInterface,
} from 'class-validator';

export const MAX_PAGE_SIZE = 1000;

@ValidatorConstraint({ name: 'pageEnd' })
class PageEnd implements ValidatorConstraintInterface {
  validate(end: number, args: ValidationArguments): boolean {
    const start = (args.object as PaginationDto)._start ?? 0;
    return end > start && end - start <= MAX_PAGE_SIZE;
  }

  defaultMessage(): string {
    return `_end must be greater than _start and at most ${MAX_PAGE_SIZE} above it`;
  }
}

/** `_start` (default 0) and `_end` (default 10, exclusive): the pagination of every list, at most 1,000 per page. */
export class PaginationDto {
  @ApiPropertyOptional({ type: 'integer', description: 'Offset of the first item', default: 0, minimum: 0 })
  @Type(() => Number)
  @IsInt({ message: '_start must be an integer' })
  @Min(0, { message: '_start must be 0 or more' })
  @Max(1_000_000_000, { message: '_start is too large' })
  _start: number = 0;

  @ApiPropertyOptional({ type: 'integer', description: 'End index, exclusive; at most 1,000 above _start', default: 10, minimum: 1 })
  @Type(() => Number)
  @IsInt({ message: '_end must be an integer' })
  @Validate(PageEnd)
  _end: number = 10;
}
