import { Module } from '@nestjs/common';
import { IntakeModule } from '@app/intake';
import { EventsController } from './events.controller';
import { SubmitEventsHandler } from './submit-events.handler';

@Module({ imports: [IntakeModule], controllers: [EventsController], providers: [SubmitEventsHandler] })
export class EventsModule {}
