import 'reflect-metadata';
import { startHttpApp } from '@app/http';
import { printFirstStartCredentials } from './bootstrap/print-first-start';
import { QueryAppModule } from './query-app.module';

void startHttpApp((config) => QueryAppModule.forRoot(config), { onListening: printFirstStartCredentials });
