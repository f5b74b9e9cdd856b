import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { DocumentIntake, type IntakeResult } from '@app/events';
import { PutDocumentsCommand } from './put-documents.command';

@CommandHandler(PutDocumentsCommand)
export class PutDocumentsHandler implements ICommandHandler<PutDocumentsCommand> {
  constructor(private readonly intake: DocumentIntake) {}

  execute({ customer, instance, documents }: PutDocumentsCommand): Promise<IntakeResult> {
    return this.intake.submit(customer, instance, documents);
  }
}
