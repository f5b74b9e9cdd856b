import 'reflect-metadata';
import { startHttpApp } from '@app/http';
import { firstStartAnnouncement } from './bootstrap/print-first-start';
import { QueryAppModule } from './query-app.module';

void startHttpApp((config) => QueryAppModule.forRoot(config), { announce: firstStartAnnouncement });
