import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { AnnotationsRepository } from './annotations.repository';
import type { AnnotationView } from './annotation.view';
import { CreateAnnotationCommand } from './create-annotation.command';

@CommandHandler(CreateAnnotationCommand)
export class CreateAnnotationHandler implements ICommandHandler<CreateAnnotationCommand> {
  constructor(private readonly annotations: AnnotationsRepository) {}

  execute({ auth, ts, text }: CreateAnnotationCommand): Promise<AnnotationView> {
    return this.annotations.create(auth.customer, auth.instance, ts, text, `${auth.scheme}:${auth.principal}`);
  }
}
