import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { QueryBus } from '@nestjs/cqrs';
import { Auth, RequirePermission, type AuthContext } from '@app/auth';
import { ApiErrors } from '@app/errors';
import { AnalyticsFiltersDto } from '../analytics/analytics.dto';
import { TermIdPipe } from './term-id.pipe';
import { SuggestionsView } from './suggestions.dto';
import { SuggestionsQuery } from './suggestions.query';

@ApiTags('Search terms')
@Controller('search-terms')
export class SuggestionsController {
  constructor(private readonly queries: QueryBus) {}

  @Get(':id/suggestions')
  @ApiOperation({
    operationId: 'getSearchTermSuggestions',
    summary: 'Terms that found results and are close to a term: the likely fix of a zero-result term',
    description:
      'Terms of the window (same window and filters as the list) that found results at least once and whose ' +
      'normalised phrase is within Damerau-Levenshtein distance 2 of the term (optimal string alignment, over code ' +
      'points: `fur`/`für` is 1), or equal to it once spaces and hyphens are removed (distance 0). At most 5, most ' +
      'searched first, then by distance, then by phrase; never the term itself.',
  })
  @ApiParam({
    name: 'id',
    description: 'The id of a GET /search-terms entry',
    schema: { type: 'string', pattern: '^[0-9a-f]{32}$', example: '892e95f4685a6d36bdb06f63b12becbb' },
  })
  @RequirePermission('search:read')
  @ApiOkResponse({ type: SuggestionsView, description: 'The suggestions (an empty list when there are none)' })
  @ApiErrors([404, 'No search of the term in the window (under the filters)'])
  get(@Auth() auth: AuthContext, @Param('id', TermIdPipe) id: string, @Query() q: AnalyticsFiltersDto): Promise<SuggestionsView> {
    return this.queries.execute(SuggestionsQuery.of(id, auth, q));
  }
}
