import { Injectable } from '@nestjs/common';
import { CustomersRepository, type AuthContext } from '@app/auth';
import { AppConfig } from '@app/config';
import { DomainError } from '@app/errors';
import type { AnalyticsCriteria } from '../analytics/analytics-scope';
import { AlgoliaIndexesRepository } from './algolia-indexes.repository';
import { algoliaRequest, nativeWindow, type AlgoliaParam, type AlgoliaRequest } from './algolia-request';

/** A checked request to `GET /2/...` and the native criteria of its index and window. */
export interface AlgoliaScope {
  req: AlgoliaRequest;
  criteria: AnalyticsCriteria;
}

/**
 * What an Algolia `index` reads (docs/algolia.md, "Index names"): an instance of the customer by its name, or the
 * instance that declares the name (`algoliaIndexes`), then only the language it names. A 404 for a name that is
 * neither, a 403 for an instance the credential may not read. Bot traffic is left out, as in the native default.
 */
@Injectable()
export class AlgoliaScopes {
  constructor(
    private readonly customers: CustomersRepository,
    private readonly config: AppConfig,
    private readonly indexes: AlgoliaIndexesRepository,
  ) {}

  /**
   * The scope of a request's query string, checked against what its route takes. `figures`: the route answers click or
   * conversion figures, which are not kept per tag, so `tags` is a 400 there.
   */
  async of(auth: AuthContext, query: Record<string, unknown>, allowed: readonly AlgoliaParam[], figures = false): Promise<AlgoliaScope> {
    const req = algoliaRequest(query, allowed, Date.now(), this.config.retentionDays);
    if (figures && req.tags) {
      throw new DomainError('invalid', 'tags cannot be used here: click and conversion figures are not kept per tag');
    }
    const { instance, language } = await this.indexOf(auth, req.index);
    return { req, criteria: { customer: auth.customer, instance, language, includeBots: false, window: nativeWindow(req) } };
  }

  /** The instance an index name reads, and with an index an instance declares, its language. */
  private async indexOf(auth: AuthContext, index: string): Promise<{ instance: string; language?: string }> {
    const customer = await this.customers.find(auth.customer);
    const found = customer?.instances.includes(index) ? { instance: index } : await this.indexes.find(auth.customer, index);
    if (!found) {
      throw new DomainError('not-found', `Unknown index ${index}: no instance has this name or declares it (algoliaIndexes)`);
    }
    if (!auth.instances.includes(found.instance)) {
      throw new DomainError('forbidden', `This credential may not read the index ${index}`);
    }
    return found;
  }
}
