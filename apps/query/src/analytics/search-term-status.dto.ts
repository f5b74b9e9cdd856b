import { ApiProperty } from '@nestjs/swagger';
import { ENTITY_TYPES } from '@app/contracts';

// Shared by the search terms list (hits=false) and a term's detail: whether entities handle a phrase.

/** An entity that handles a zero-result phrase (one of the webhook's entity types, e.g. a landing page or synonym). */
export class SearchTermHandler {
  @ApiProperty({ enum: ENTITY_TYPES, enumName: 'EntityType', example: 'landingpage', description: 'Entity type (PUT /entities/{type})' })
  type!: string;

  @ApiProperty({ example: 'summer-sale', description: 'Entity id' })
  id!: string;
}

export class SearchTermStatus {
  @ApiProperty({ description: 'true when at least one entity handles the phrase' })
  handled!: boolean;

  @ApiProperty({ type: [SearchTermHandler], description: 'The entities that handle the phrase' })
  handlers!: SearchTermHandler[];
}
