import { Module } from '@nestjs/common';
import { APP_FILTER } from '@nestjs/core';
import { AllExceptionsFilter } from './all-exceptions.filter';
import { GracefulShutdown } from './graceful-shutdown.service';

/** The global exception filter (APP_FILTER, so tests and every app get it) and graceful HTTP shutdown. */
@Module({ providers: [{ provide: APP_FILTER, useClass: AllExceptionsFilter }, GracefulShutdown] })
export class HttpModule {}
