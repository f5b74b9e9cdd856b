import { Module } from '@nestjs/common';
import { AuthModule } from '@app/auth';
import { IntakeModule } from '@app/intake';
import { AnalyticsModule } from '../analytics/analytics.module';
import { InsightsController } from './insights.controller';
import { InsightsSource } from './insights-source';
import { UserTokenErasure } from './user-token-erasure.service';

/** POST /1/events and DELETE /1/usertokens/{userToken}: the Insights protocol. */
@Module({
  imports: [AnalyticsModule, AuthModule, IntakeModule],
  controllers: [InsightsController],
  providers: [InsightsSource, UserTokenErasure],
})
export class InsightsModule {}
