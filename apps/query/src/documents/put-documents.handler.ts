import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { IntakeService, type IntakeView } from '@app/intake';
import { PutDocumentsCommand } from './put-documents.command';

/** Awaited end to end, as POST /events: the accepted documents are durable (embedded) or acknowledged (Kafka). */
@CommandHandler(PutDocumentsCommand)
export class PutDocumentsHandler implements ICommandHandler<PutDocumentsCommand> {
  constructor(private readonly intake: IntakeService) {}

  execute({ customer, instance, documents }: PutDocumentsCommand): Promise<IntakeView> {
    return this.intake.submitDocuments(customer, instance, documents);
  }
}
