import { ApiPropertyOptional } from '@nestjs/swagger';

/** The tenant fields an intake item may repeat over HTTP (on Kafka they are required). */
export abstract class ItemTenantFields {
  @ApiPropertyOptional({ description: 'If present, must equal the authenticated customer' })
  customer?: string;

  @ApiPropertyOptional({ description: 'If present, must equal the instance of the request' })
  instance?: string;
}
