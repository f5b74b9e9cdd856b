import { Logger, type ArgumentsHost } from '@nestjs/common';
import type { HttpAdapterHost } from '@nestjs/core';
import { AllExceptionsFilter } from './all-exceptions.filter';

/** What the filter answers for `exception` on a request to `url`: status and body, as the HTTP adapter is told. */
function answer(url: string, exception: unknown): { status: number; body: Record<string, unknown> } {
  let replied: { status: number; body: Record<string, unknown> } | undefined;
  const adapterHost = {
    httpAdapter: {
      isHeadersSent: () => false,
      setHeader: () => undefined,
      reply: (_res: unknown, body: Record<string, unknown>, status: number) => (replied = { status, body }),
    },
  } as unknown as HttpAdapterHost;
  const host = { switchToHttp: () => ({ getResponse: () => ({}), getRequest: () => ({ url }) }) } as unknown as ArgumentsHost;
  new AllExceptionsFilter(adapterHost).catch(exception, host);
  return replied!;
}

describe('AllExceptionsFilter', () => {
  let logged: string[];
  beforeEach(() => {
    logged = [];
    jest.spyOn(Logger.prototype, 'error').mockImplementation((message: unknown) => void logged.push(String(message)));
  });
  afterEach(() => jest.restoreAllMocks());

  it('answers an unexpected error 500 with a correlation id that the log names, never the error', () => {
    const { status, body } = answer('/search-terms', new Error('secret detail'));
    expect(status).toBe(500);
    expect(body).toEqual({
      statusCode: 500,
      error: 'Internal Server Error',
      message: 'Internal server error',
      correlationId: expect.any(String) as unknown,
    });
    expect(logged).toEqual([expect.stringContaining(`unhandled error ${body.correlationId as string}`)]);
  });

  it('answers POST /1/events with EventsResponse only, the correlation id of a 500 in its message', () => {
    const { status, body } = answer('/1/events?X-Algolia-Application-Id=demo', new Error('secret detail'));
    expect(status).toBe(500);
    expect(Object.keys(body).sort()).toEqual(['message', 'status']);
    const id = /^Internal server error \(correlation id ([0-9a-f-]{36})\)$/.exec(String(body.message))?.[1];
    expect(id).toBeDefined();
    expect(logged).toEqual([expect.stringContaining(`unhandled error ${id}`)]);
    expect(JSON.stringify(body)).not.toContain('secret detail');
  });
});
