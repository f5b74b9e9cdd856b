import { Type } from 'class-transformer';
import { ApiProperty } from '@nestjs/swagger';
import { IsDefined, IsObject, IsOptional, IsString, MaxLength, ValidateNested } from 'class-validator';
import { AlertConfigDto, AlertConfigView } from '../alerts';
import { ApiNullableRefProperty } from '../common/nullable-ref';

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
}

/** GET and PUT /configuration answer the stored configuration, the alerts' defaults filled in. */
export class ConfigurationView {
  @ApiProperty({ type: () => WebhookConfigDto })
  webhookConfig!: WebhookConfigDto;

  @ApiNullableRefProperty(AlertConfigView, 'null: alerts are off')
  alertConfig!: AlertConfigView | null;
}
