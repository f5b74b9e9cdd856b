import 'reflect-metadata';
import { startHttpApp } from '@app/http';
import { printFirstStartCredentials } from '@app/query';
import { StandaloneModule } from './standalone.module';

void startHttpApp((config) => StandaloneModule.forRoot(config), { onListening: printFirstStartCredentials });
