import { Type } from 'class-transformer';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsDefined, IsObject, IsOptional, IsString, MaxLength, ValidateNested } from 'class-validator';
import { AlertConfigDto, AlertConfigView } from '../alerts';
import type { AlgoliaIndexes } from '../algolia-analytics';
import { ApiNullableRefProperty } from '../common/nullable-ref';

/** `algoliaIndexes`: index names, each with an optional language. */
const ALGOLIA_INDEXES_SCHEMA = {
  type: 'object',
  additionalProperties: {
    type: 'object',
    properties: { language: { type: 'string', example: 'de', description: 'Only the searches in this language count' } },
    additionalProperties: false,
  },
  example: { shop_de: { language: 'de' }, shop_de_price_asc: { language: 'de' } },
} as const;

export class WebhookConfigDto {
  /** Absolute http(s) URL, or "" to disable the webhook. */
  @ApiProperty({ example: 'https://hooks.example.com/search?token=...', description: 'Absolute http(s) URL, or "" to disable the webhook' })
  @IsString()
  @MaxLength(2048)
  url!: string;
}

/** An instance's configuration: the body of PUT /configuration. */
export class ConfigurationDto {
  @ApiProperty({ type: () => WebhookConfigDto })
  @IsDefined()
  @IsObject()
  @ValidateNested()
  @Type(() => WebhookConfigDto)
  webhookConfig!: WebhookConfigDto;

  @ApiNullableRefProperty(AlertConfigDto, 'Alerts (docs/alerts.md): null turns them off (the default); absent keeps what is stored', false)
  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => AlertConfigDto)
  alertConfig?: AlertConfigDto | null;

  @ApiPropertyOptional({
    ...ALGOLIA_INDEXES_SCHEMA,
    description:
      "The Algolia index names Algolia's Analytics API (`GET /2/...?index=`) reads as this instance (docs/algolia.md): a " +
      "shop's per-language indices and sort replicas, each with an optional language; absent keeps what is stored",
  })
  @IsOptional()
  @IsObject()
  algoliaIndexes?: AlgoliaIndexes;
}

/** GET and PUT /configuration answer the stored configuration, the alerts' defaults filled in. */
export class ConfigurationView {
  @ApiProperty({ type: () => WebhookConfigDto })
  webhookConfig!: WebhookConfigDto;

  @ApiNullableRefProperty(AlertConfigView, 'null: alerts are off')
  alertConfig!: AlertConfigView | null;

  @ApiProperty({ ...ALGOLIA_INDEXES_SCHEMA, description: 'The Algolia index names of the instance; {} when none' })
  algoliaIndexes!: AlgoliaIndexes;
}
