import 'reflect-metadata';
import { dataDirInUse } from '@app/clickhouse';
import { startHttpApp } from '@app/http';
import { firstStartAnnouncement } from './bootstrap/print-first-start';
import { QueryAppModule } from './query-app.module';

void startHttpApp((config) => QueryAppModule.forRoot(config), { refuse: dataDirInUse, announce: firstStartAnnouncement });
