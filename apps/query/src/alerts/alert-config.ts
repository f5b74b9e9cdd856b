import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsInt, IsOptional, IsString, Max, MaxLength, Min, ValidateBy } from 'class-validator';

export const ALERT_DEFAULTS = { minSearches: 20, zeroHitRateJump: 0.1 } as const;

/** `alertConfig` of PUT /configuration: every field optional, defaults filled in (docs/alerts.md). */
export class AlertConfigDto {
  @ApiPropertyOptional({
    example: 'https://hooks.example.com/alerts',
    description: 'Where each alert is also POSTed, under the webhook address rules; "" or absent: notifications only',
  })
  @IsOptional()
  @IsString()
  @MaxLength(2048)
  url?: string;

  @ApiPropertyOptional({
    type: 'integer',
    default: ALERT_DEFAULTS.minSearches,
    minimum: 0,
    description: 'The fewest searches a rule looks at',
  })
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(1_000_000_000)
  minSearches?: number;

  @ApiPropertyOptional({
    default: ALERT_DEFAULTS.zeroHitRateJump,
    exclusiveMinimum: true,
    minimum: 0,
    maximum: 1,
    description: "How far above the same hour's median of the 7 days before the zero-hit rate must be, in (0, 1]",
  })
  @IsOptional()
  @ValidateBy({
    name: 'isRateJump',
    validator: {
      validate: (v) => typeof v === 'number' && v > 0 && v <= 1,
      defaultMessage: () => '$property must be a number greater than 0 and at most 1',
    },
  })
  zeroHitRateJump?: number;
}

/** The stored alert configuration, defaults filled in. */
export class AlertConfigView {
  @ApiProperty({ example: 'https://hooks.example.com/alerts', description: '"" when alerts are notifications only' })
  url!: string;

  @ApiProperty({ type: 'integer', example: ALERT_DEFAULTS.minSearches })
  minSearches!: number;

  @ApiProperty({ example: ALERT_DEFAULTS.zeroHitRateJump })
  zeroHitRateJump!: number;
}

export type AlertConfig = AlertConfigView;

export function withDefaults(dto: AlertConfigDto): AlertConfig {
  return {
    url: dto.url ?? '',
    minSearches: dto.minSearches ?? ALERT_DEFAULTS.minSearches,
    zeroHitRateJump: dto.zeroHitRateJump ?? ALERT_DEFAULTS.zeroHitRateJump,
  };
}
