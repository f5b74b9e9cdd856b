import { Injectable } from '@nestjs/common';
import type { IngestRow } from './ingest-writer';
import { IntakeKinds, type IntakeKind } from './intake-kinds';
import { IntakeTransport } from './intake-transport';
import { httpItems, validateItems, type IntakeView } from './validate-items';

/** POST /events and PUT /documents: the items validated one by one, the accepted ones sent by the transport. */
@Injectable()
export class IntakeService {
  constructor(
    private readonly kinds: IntakeKinds,
    private readonly transport: IntakeTransport,
  ) {}

  submitEvents(customer: string, instance: string, items: readonly unknown[]): Promise<IntakeView> {
    return this.submit(this.kinds.events, customer, instance, items);
  }

  submitDocuments(customer: string, instance: string, items: readonly unknown[]): Promise<IntakeView> {
    return this.submit(this.kinds.documents, customer, instance, items);
  }

  private submit<Row extends IngestRow>(
    kind: IntakeKind<Row>,
    customer: string,
    instance: string,
    items: readonly unknown[],
  ): Promise<IntakeView> {
    const batch = validateItems(kind, httpItems(customer, instance, items));
    return this.transport.send(kind, batch, { customer, instance, items, token: kind.retryToken?.(customer, instance, items) });
  }
}
