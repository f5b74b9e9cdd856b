import { applyDecorators, Controller, Delete, HttpCode, HttpException, Options, Param, Post, Req, Res } from '@nestjs/common';
import {
  ApiBody,
  ApiExcludeEndpoint,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiQuery,
  ApiResponse,
  ApiSecurity,
  ApiTags,
} from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { IncomingMessage } from 'node:http';
import {
  Auth,
  COLLECTOR_AGENT,
  CollectedRows,
  CredentialsGate,
  MAX_ROWS_PER_EVENT,
  Public,
  RequireCollectorKey,
  RequirePermission,
  type AuthContext,
} from '@app/auth';
import { ID_PATTERN } from '@app/contracts';
import { ApiErrors, DomainError, retryAfterHeaders } from '@app/errors';
import { EVENTS_ACCEPTED_HEADER, EVENTS_REJECTED_HEADER, answerPreflight } from '@app/http';
import { IntakeService, type IntakeView } from '@app/intake';
import { EventsResponseView } from './events-response.view';
import { InsightsSource } from './insights-source';
import { UserTokenErasure } from './user-token-erasure.service';

/** Most events in one POST /1/events (Algolia's limit). */
export const MAX_INSIGHTS_EVENTS = 1000;
/** Reasons named in a 422's message. */
const REASONS_SHOWN = 3;

/** `{ "events": [...] }`: the events, 400 when the body is not of that form, 413 beyond MAX_INSIGHTS_EVENTS. */
function eventsOf(body: unknown): unknown[] {
  const events = typeof body === 'object' && body !== null ? (body as { events?: unknown }).events : undefined;
  if (!Array.isArray(events) || events.length === 0) {
    throw new HttpException(`The body must be {"events": [...]} with 1 to ${MAX_INSIGHTS_EVENTS} events`, 400);
  }
  if (events.length > MAX_INSIGHTS_EVENTS) {
    throw new HttpException(`At most ${MAX_INSIGHTS_EVENTS} events per request (this one has ${events.length})`, 413);
  }
  return events;
}

/** The rows an event stores: one per object (`objectIDs`, at most 20), one without (a filter-only or malformed event). */
function objectsOf(event: unknown): number {
  const objects = typeof event === 'object' && event !== null ? (event as { objectIDs?: unknown }).objectIDs : undefined;
  return Array.isArray(objects) && objects.length > 0 ? Math.min(objects.length, MAX_ROWS_PER_EVENT) : 1;
}

/** Documents the collector key (both parts at once) and the agent the client names itself with. */
const InsightsCredentials = () =>
  applyDecorators(
    ApiSecurity({ collectorApplication: [], collectorKey: [] }),
    ApiQuery({
      name: COLLECTOR_AGENT,
      required: false,
      type: String,
      description: 'The client and its version (search-insights sends it); not checked; or the header of the same name',
    }),
  );

/** An answer of POST /1/events: EventsResponse for every status (Retry-After on 429, and on 503 when it applies). */
const answer = (status: number, description: string) =>
  ApiResponse({
    status,
    type: EventsResponseView,
    description: `${description} (\`{ status, message }\`)`,
    headers: retryAfterHeaders(status),
  });

/**
 * The Insights protocol (Algolia's, so that search-insights 2.x works with its `host` set to the service): clicks,
 * conversions and views from shoppers' browsers, and the erasure of a shopper's user token.
 */
@ApiTags('Insights')
@Controller('1')
export class InsightsController {
  constructor(
    private readonly intake: IntakeService,
    private readonly source: InsightsSource,
    private readonly erasure: UserTokenErasure,
    private readonly gate: CredentialsGate,
    private readonly collectedRows: CollectedRows,
  ) {}

  @Post('events')
  @HttpCode(200)
  @RequireCollectorKey()
  @ApiOperation({
    operationId: 'sendInsightsEvents',
    summary: 'Send clicks, conversions and views (Insights protocol)',
    description:
      "Algolia's Insights protocol: `search-insights` 2.x (and InstantSearch or Autocomplete through it) works unchanged " +
      'with its `host` set to the service. Authenticated by a collector key only (`POST /secret` with `"preset": ' +
      '"collector"`), whose credentials go in the query string or in headers; its CORS is granted to the key\'s origins ' +
      '(another origin: 403). `Content-Type` application/json or text/plain (navigator.sendBeacon). Each event is validated ' +
      'on its own: each object id is one interaction (a click with its position, a conversion), stored exactly once with the ' +
      "request's others; a rejected event is kept in rejected_events with its index and reason. Unknown fields are ignored; " +
      '`value`, `price` and `discount` may be numeric strings; a click or conversion without `queryID` is stored ' +
      "unattributed; `objectData[i].queryID` wins over the event's; a conversion's value (`value`, else the sum of price x " +
      'quantity - discount) counts once per event; views and filter-only events are stored, not counted. The counts are ' +
      'in `X-Events-Accepted` and `X-Events-Rejected`. Limited per client address (COLLECT_PER_MINUTE).',
  })
  @InsightsCredentials()
  @ApiBody({
    schema: {
      type: 'object',
      required: ['events'],
      properties: {
        events: {
          type: 'array',
          minItems: 1,
          maxItems: MAX_INSIGHTS_EVENTS,
          items: {
            type: 'object',
            description: 'An event as the Insights API defines it; other fields are ignored',
            required: ['eventType', 'eventName', 'index'],
            properties: {
              eventType: { type: 'string', enum: ['click', 'conversion', 'view'] },
              eventSubtype: { type: 'string', enum: ['addToCart', 'purchase'], description: 'Conversions only' },
              eventName: { type: 'string', minLength: 1, maxLength: 64 },
              index: { type: 'string', minLength: 1, maxLength: 256, description: 'Stored as sent' },
              userToken: { type: 'string', maxLength: 200, description: 'Kept only as a hash' },
              authenticatedUserToken: { type: 'string', maxLength: 200, description: 'Kept only as a hash; the user token when given' },
              timestamp: { type: 'integer', description: 'Epoch milliseconds; default: receive time' },
              queryID: {
                type: 'string',
                pattern: ID_PATTERN,
                description: 'The id of the search (32 hex characters, or a UUID with dashes; not the nil UUID); absent: unattributed',
              },
              objectIDs: { type: 'array', minItems: 1, maxItems: 20, items: { type: 'string', minLength: 1, maxLength: 200 } },
              positions: {
                type: 'array',
                items: { type: 'integer', minimum: 1 },
                description: 'Clicks: one per object id, the first result is 1',
              },
              objectData: {
                type: 'array',
                description: 'One per object id',
                items: {
                  type: 'object',
                  properties: {
                    price: { oneOf: [{ type: 'number', minimum: 0 }, { type: 'string' }] },
                    quantity: { type: 'integer', minimum: 1 },
                    discount: { oneOf: [{ type: 'number', minimum: 0 }, { type: 'string' }] },
                    queryID: { type: 'string', pattern: ID_PATTERN },
                  },
                },
              },
              value: { oneOf: [{ type: 'number', minimum: 0 }, { type: 'string' }], description: 'Conversions: the value, once per event' },
              currency: { type: 'string', pattern: '^[A-Za-z]{3}$', description: 'Required with value or prices' },
              filters: { type: 'array', minItems: 1, maxItems: 10, items: { type: 'string' }, description: 'Instead of objectIDs' },
            },
          },
        },
      },
    },
  })
  @ApiOkResponse({
    type: EventsResponseView,
    description: 'At least one event stored: `{ "status": 200, "message": "OK" }`',
    headers: {
      [EVENTS_ACCEPTED_HEADER]: { description: 'Events stored', schema: { type: 'integer' } },
      [EVENTS_REJECTED_HEADER]: {
        description: 'Events rejected (kept in rejected_events with their reasons)',
        schema: { type: 'integer' },
      },
    },
  })
  @answer(400, 'The body is not `{"events": [...]}` JSON')
  @answer(401, 'No collector key of this application (an HMAC key, Basic or a JWT is never accepted here)')
  @answer(403, "The request's Origin is not one of the key's origins (no CORS grant)")
  @answer(413, 'More than 1,000 events, more rows than COLLECT_ROWS_PER_MINUTE allows, or a body over 1 MB')
  @answer(414, 'The query string is longer than 8 KB')
  @answer(415, 'The body is neither application/json nor text/plain')
  @answer(422, 'No event is valid; the message names the first reasons')
  @answer(
    429,
    'Too many requests (COLLECT_PER_MINUTE) or events (COLLECT_ROWS_PER_MINUTE) from this address, or failed authentications; ' +
      'see Retry-After',
  )
  @answer(503, 'Storage is unavailable; retry later')
  async send(
    @Auth() auth: AuthContext,
    @Req() req: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<EventsResponseView> {
    const events = eventsOf(req.body);
    const rows = events.reduce<number>((sum, event) => sum + objectsOf(event), 0);
    const giveBack = this.collectedRows.take(req as unknown as IncomingMessage, rows);
    let view: IntakeView;
    try {
      view = await this.intake.submitInteractions(auth.customer, auth.instance, events, this.source);
    } catch (err) {
      giveBack();
      throw err;
    }
    if (view.accepted === 0) {
      giveBack();
    }
    reply.header(EVENTS_ACCEPTED_HEADER, String(view.accepted)).header(EVENTS_REJECTED_HEADER, String(view.rejected.length));
    if (view.accepted === 0) {
      const reasons = view.rejected.slice(0, REASONS_SHOWN).map((r) => `events[${r.index}]: ${r.reason}`);
      const more = view.rejected.length > REASONS_SHOWN ? ` (and ${view.rejected.length - REASONS_SHOWN} more)` : '';
      throw new HttpException(`No valid event: ${reasons.join('; ')}${more}`, 422);
    }
    return { status: 200, message: 'OK' };
  }

  /** The CORS preflight of POST /1/events: it carries no credentials, only the query string. */
  @Options('events')
  @Public()
  @ApiExcludeEndpoint()
  async preflight(@Req() req: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    const allowed = await this.gate.preflightAllows(req as unknown as IncomingMessage);
    answerPreflight(reply, req.headers.origin, allowed);
  }

  @Delete('usertokens/:userToken')
  @HttpCode(204)
  @RequirePermission('events:delete')
  @ApiOperation({
    operationId: 'deleteUserToken',
    summary: "Erase a shopper's user token",
    description:
      "Algolia's path and answer, for a shop honouring a shopper's erasure request: from the 204 on, no answer counts the " +
      'clicks and conversions carrying this user token (compared by its hash), for every instance the credential may act ' +
      'on, and they are deleted from storage within 24 hours. The search events that carried it keep counting as ' +
      'searches without it: `users` never counts it again (a search with a session counts for its session), and the ' +
      'token is removed from them within 24 hours. Never with a collector key.',
  })
  @ApiParam({ name: 'userToken', description: 'The user token (or authenticated user token) as the events carried it' })
  @ApiNoContentResponse({ description: 'Erased (no body)' })
  @ApiErrors([400, 'userToken is longer than 200 characters'])
  async eraseUserToken(@Auth() auth: AuthContext, @Param('userToken') userToken: string): Promise<void> {
    if (userToken.length > 200) {
      throw new DomainError('invalid', 'userToken must be 1 to 200 characters');
    }
    await this.erasure.erase(auth.customer, auth.instances, userToken);
  }
}
