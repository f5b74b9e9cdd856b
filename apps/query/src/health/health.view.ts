import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

export class LiveView {
  @ApiProperty({ enum: ['ok'], example: 'ok' })
  status!: 'ok';
}

export class HealthView {
  @ApiProperty({ enum: ['ok', 'unavailable'], example: 'ok' })
  status!: 'ok' | 'unavailable';

  @ApiProperty({ enum: ['up', 'down'], example: 'up', description: 'Whether ClickHouse answers' })
  storage!: 'up' | 'down';
}

export class ReadinessView extends HealthView {
  @ApiProperty({ description: 'Whether the migrations ran' })
  migrated!: boolean;

  @ApiPropertyOptional({
    description: 'Why it is not ready (absent when ready)',
    example: 'the consumer group has not been joined yet',
  })
  reason?: string;
}
