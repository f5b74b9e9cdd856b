import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { ENTITY_TYPES } from '@app/contracts';

/** An entity as stored (its latest saved state). */
export class EntityView {
  @ApiProperty({ enum: ENTITY_TYPES, enumName: 'EntityType', example: 'landingpage' })
  type!: string;

  @ApiProperty({ example: 'summer-sale' })
  id!: string;

  @ApiProperty({ type: [String], example: ['summer dress'], description: 'Normalised phrases this entity handles' })
  searchPhrases!: string[];

  @ApiProperty({ type: String, nullable: true, example: 'de', description: 'The one language handled; null for every language' })
  language!: string | null;

  @ApiProperty({ type: 'object', additionalProperties: true, example: { title: 'Summer sale' }, description: 'As sent' })
  data!: Record<string, unknown>;

  @ApiProperty({ format: 'date-time', example: '2026-11-22T09:30:00.000Z' })
  updatedAt!: string;
}

/** PUT /entities/{type}: what the bulk change did. */
@ApiSchema({ name: 'SaveEntitiesResult' }) // the schema name generated clients already use
export class SaveEntitiesView {
  @ApiProperty({ type: [String], example: ['summer-sale'], description: 'Ids created by this request' })
  created!: string[];

  @ApiProperty({ type: [String], example: [], description: 'Ids updated by this request' })
  updated!: string[];

  @ApiProperty({ type: [EntityView], description: 'Every saved entity, in request order' })
  items!: EntityView[];
}

/** DELETE /entities/{type}?ids[]=...: which of the ids existed. */
@ApiSchema({ name: 'DeleteEntitiesAnswer' }) // the schema name generated clients already use
export class DeleteEntitiesView {
  @ApiProperty({ type: Boolean, example: true })
  ok!: true;

  @ApiProperty({ type: [String], example: ['summer-sale'], description: 'The ids that existed and are now deleted' })
  deleted!: string[];
}
