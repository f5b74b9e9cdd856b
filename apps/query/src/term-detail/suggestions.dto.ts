import { ApiProperty } from '@nestjs/swagger';

export class SuggestionView {
  @ApiProperty({ example: 'sneaker', description: 'A normalised phrase of the window that found results, close to the term' })
  search_phrase!: string;

  @ApiProperty({ type: 'integer', minimum: 1, example: 74, description: 'Its searches with results in the window' })
  count!: number;

  @ApiProperty({
    type: 'integer',
    minimum: 0,
    maximum: 2,
    example: 1,
    description:
      'Damerau-Levenshtein distance (optimal string alignment) to the term over code points; 0 when the two are equal ' +
      'once spaces and hyphens are removed',
  })
  distance!: number;
}

/** GET /search-terms/{id}/suggestions (docs/architecture.md, "Suggestions"). */
export class SuggestionsView {
  @ApiProperty({
    type: [SuggestionView],
    description: 'At most 5, most searched first, then by distance, then by phrase; never the term itself',
  })
  suggestions!: SuggestionView[];
}
