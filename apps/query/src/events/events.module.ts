import { Module } from '@nestjs/common';
import { EventsModule as EventsLibModule } from '@app/events';
import { EventsController } from './events.controller';
import { SubmitEventsHandler } from './submit-events.handler';

@Module({ imports: [EventsLibModule], controllers: [EventsController], providers: [SubmitEventsHandler] })
export class EventsFeatureModule {}
