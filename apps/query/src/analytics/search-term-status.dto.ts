import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
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
  @ApiProperty({
    description:
      'true when at least one entity handles the phrase (of the language filter, or of none) and, without a language ' +
      'filter, unhandled_languages is empty',
  })
  handled!: boolean;

  @ApiProperty({ type: [SearchTermHandler], description: 'The entities that handle the phrase, in any language without a language filter' })
  handlers!: SearchTermHandler[];

  @ApiPropertyOptional({
    type: [String],
    example: ['de-ch'],
    description:
      'Only without a language filter: the languages of the window in which the phrase was searched and found ' +
      'nothing that no entity handles (one of that language, or of none), sorted',
  })
  unhandled_languages?: string[];
}

/** A phrase's status: its handlers, and without a language filter (`unhandled` given) the languages nobody handles. */
export function statusOf(handlers: ReadonlyArray<[string, string]>, unhandled?: string[]): SearchTermStatus {
  return {
    handled: handlers.length > 0 && (unhandled ?? []).length === 0,
    handlers: handlers.map(([type, id]) => ({ type, id })),
    ...(unhandled ? { unhandled_languages: unhandled } : {}),
  };
}
