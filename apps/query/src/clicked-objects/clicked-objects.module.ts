import { Module } from '@nestjs/common';
import { AnalyticsModule } from '../analytics/analytics.module';
import { ClickedObjectsController } from './clicked-objects.controller';
import { ClickedObjectsHandler } from './clicked-objects.handler';
import { ClickedObjectsRepository } from './clicked-objects.repository';

@Module({
  imports: [AnalyticsModule],
  controllers: [ClickedObjectsController],
  providers: [ClickedObjectsRepository, ClickedObjectsHandler],
})
export class ClickedObjectsModule {}
