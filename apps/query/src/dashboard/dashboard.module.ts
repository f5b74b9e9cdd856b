import { Module } from '@nestjs/common';
import { DashboardController } from './dashboard.controller';
import { RootController } from './root.controller';

@Module({ controllers: [DashboardController, RootController] })
export class DashboardModule {}
