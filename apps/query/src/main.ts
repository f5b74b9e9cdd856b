import 'reflect-metadata';
import { QueryAppModule } from './query-app.module';
import { serve } from './serve';

void serve((config) => QueryAppModule.forRoot(config));
