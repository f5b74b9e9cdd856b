import { Module } from '@nestjs/common';
import { IntakeModule } from '@app/intake';
import { WebhooksModule } from '../webhooks';
import { ConditionalSaves } from './conditional-saves';
import { DeleteEntitiesHandler } from './delete-entities.handler';
import { DeleteEntityHandler } from './delete-entity.handler';
import { EntitiesController } from './entities.controller';
import { EntitiesRepository } from './entities.repository';
import { GetEntityHandler } from './get-entity.handler';
import { ListEntitiesHandler } from './list-entities.handler';
import { SaveEntitiesHandler } from './save-entities.handler';

@Module({
  imports: [IntakeModule, WebhooksModule],
  controllers: [EntitiesController],
  providers: [
    ConditionalSaves,
    EntitiesRepository,
    SaveEntitiesHandler,
    DeleteEntitiesHandler,
    DeleteEntityHandler,
    GetEntityHandler,
    ListEntitiesHandler,
  ],
})
export class EntitiesModule {}
