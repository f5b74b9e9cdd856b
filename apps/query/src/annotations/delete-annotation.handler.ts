import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { DomainError } from '@app/errors';
import { AnnotationsRepository } from './annotations.repository';
import { DeleteAnnotationCommand } from './delete-annotation.command';

@CommandHandler(DeleteAnnotationCommand)
export class DeleteAnnotationHandler implements ICommandHandler<DeleteAnnotationCommand> {
  constructor(private readonly annotations: AnnotationsRepository) {}

  async execute({ auth, id }: DeleteAnnotationCommand): Promise<void> {
    if (!(await this.annotations.delete(auth.customer, auth.instance, id))) {
      throw new DomainError('not-found', `No annotation with id ${id}`);
    }
  }
}
