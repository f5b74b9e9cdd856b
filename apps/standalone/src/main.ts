import 'reflect-metadata';
import { dataDirInUse } from '@app/clickhouse';
import { startHttpApp } from '@app/http';
import { firstStartAnnouncement } from '@app/query';
import { StandaloneModule } from './standalone.module';

void startHttpApp((config) => StandaloneModule.forRoot(config), { refuse: dataDirInUse, announce: firstStartAnnouncement });
