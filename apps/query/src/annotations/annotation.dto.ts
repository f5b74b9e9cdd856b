import { ApiPropertyOptional, ApiProperty, IntersectionType } from '@nestjs/swagger';
import { IsOptional, Validate, ValidatorConstraint, type ValidationArguments, type ValidatorConstraintInterface } from 'class-validator';
import { DateTime } from 'luxon';
import { textProblem } from '@app/contracts';
import { AnalyticsWindowDto } from '../analytics/analytics.dto';
import { PaginationDto } from '../common/pagination.dto';

/** The longest text, in characters (Unicode code points). */
export const MAX_ANNOTATION_TEXT = 200;
/** The earliest moment an annotation may mark, and how far after now the latest may be. */
export const EARLIEST_ANNOTATION = Date.parse('2000-01-01T00:00:00Z');
export const ANNOTATION_AHEAD_MS = 24 * 3_600_000;

/** A date-time with its offset (Z or ±hh:mm): a moment, whatever the zone of the request. */
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})$/;
const DATE_TIME_EXAMPLE = 'a date-time with Z or an offset, such as 2026-11-20T09:00:00Z';

/** Why `text` cannot be an annotation's text; undefined when it can. */
export function annotationTextProblem(text: unknown): string | undefined {
  if (typeof text !== 'string') {
    return 'text must be a string';
  }
  const length = [...text].length;
  if (length < 1 || length > MAX_ANNOTATION_TEXT) {
    return `text must be 1-${MAX_ANNOTATION_TEXT} characters (it has ${length})`;
  }
  if (text.trim() === '') {
    return 'text must not be blank';
  }
  return textProblem('text', text);
}

/** A ts as sent (a date-time with its offset), read by luxon: Date.parse does not read every ISO-8601 form (+0200). */
export function parseAnnotationTime(ts: string): DateTime {
  return DateTime.fromISO(ts, { setZone: true });
}

/** Why `ts` cannot be an annotation's moment at `now` (ms); undefined when it can. */
export function annotationTimeProblem(ts: unknown, now: number): string | undefined {
  if (typeof ts !== 'string' || !DATE_TIME.test(ts)) {
    return `ts must be ${DATE_TIME_EXAMPLE}`;
  }
  const parsed = parseAnnotationTime(ts);
  if (!parsed.isValid) {
    return `ts is not a valid date-time (${parsed.invalidExplanation ?? parsed.invalidReason})`;
  }
  if (parsed.toMillis() < EARLIEST_ANNOTATION) {
    return 'ts must not be before 2000-01-01T00:00:00Z';
  }
  if (parsed.toMillis() > now + ANNOTATION_AHEAD_MS) {
    return 'ts must be at most 24 hours after now';
  }
  return undefined;
}

@ValidatorConstraint({ name: 'annotationText' })
class AnnotationText implements ValidatorConstraintInterface {
  validate(text: unknown): boolean {
    return annotationTextProblem(text) === undefined;
  }

  defaultMessage({ value }: ValidationArguments): string {
    return annotationTextProblem(value) ?? 'text is not valid';
  }
}

@ValidatorConstraint({ name: 'annotationTime' })
class AnnotationTime implements ValidatorConstraintInterface {
  validate(ts: unknown): boolean {
    return annotationTimeProblem(ts, Date.now()) === undefined;
  }

  defaultMessage({ value }: ValidationArguments): string {
    return annotationTimeProblem(value, Date.now()) ?? 'ts is not valid';
  }
}

/** POST /annotations. */
export class CreateAnnotationDto {
  @ApiPropertyOptional({
    format: 'date-time',
    example: '2026-11-20T09:00:00Z',
    description: `The moment it marks: ${DATE_TIME_EXAMPLE}, from 2000-01-01T00:00:00Z to at most 24 hours after now; default now`,
  })
  @IsOptional()
  @Validate(AnnotationTime)
  ts?: string;

  @ApiProperty({
    example: 'Winter campaign started',
    minLength: 1,
    maxLength: MAX_ANNOTATION_TEXT,
    description: `1-${MAX_ANNOTATION_TEXT} characters (Unicode code points); no NUL, no lone surrogate`,
  })
  @Validate(AnnotationText)
  text!: string;
}

/** GET /annotations: the window of the analytics requests, and a page. */
export class ListAnnotationsDto extends IntersectionType(AnalyticsWindowDto, PaginationDto) {}
