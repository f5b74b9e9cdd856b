import 'reflect-metadata';
import { startHttpApp } from '@app/http';
import { firstStartAnnouncement } from '@app/query';
import { StandaloneModule } from './standalone.module';

void startHttpApp((config) => StandaloneModule.forRoot(config), { announce: firstStartAnnouncement });
