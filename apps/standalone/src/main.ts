import 'reflect-metadata';
import { serve } from '@app/query/serve';
import { StandaloneModule } from './standalone.module';

void serve((config) => StandaloneModule.forRoot(config));
