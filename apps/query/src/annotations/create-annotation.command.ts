import { Command } from '@nestjs/cqrs';
import type { AuthContext } from '@app/auth';
import type { AnnotationView } from './annotation.view';

/** Creates an annotation at `ts` (ms). */
export class CreateAnnotationCommand extends Command<AnnotationView> {
  constructor(
    readonly auth: AuthContext,
    readonly ts: number,
    readonly text: string,
  ) {
    super();
  }
}
