import { Type } from 'class-transformer';
import { ApiProperty } from '@nestjs/swagger';
import { IsDefined, IsObject, IsString, MaxLength, ValidateNested } from 'class-validator';

export class WebhookConfigDto {
  /** Absolute http(s) URL, or "" to disable the webhook. */
  @ApiProperty({ example: 'https://hooks.example.com/search?token=...', description: 'Absolute http(s) URL, or "" to disable the webhook' })
  @IsString()
  @MaxLength(2048)
  url!: string;
}

/** An instance's configuration: the body of PUT /configuration, and the answer of GET and PUT. */
export class ConfigurationDto {
  @ApiProperty({ type: () => WebhookConfigDto })
  @IsDefined()
  @IsObject()
  @ValidateNested()
  @Type(() => WebhookConfigDto)
  webhookConfig!: WebhookConfigDto;
}

/** GET and PUT /configuration answer the configuration in the shape PUT takes. */
export type ConfigurationView = ConfigurationDto;
