import { Module } from '@nestjs/common';
import { APP_FILTER } from '@nestjs/core';
import { AllExceptionsFilter } from './all-exceptions.filter';

/** The global exception filter, registered as APP_FILTER so tests and every app get it. */
@Module({ providers: [{ provide: APP_FILTER, useClass: AllExceptionsFilter }] })
export class HttpModule {}
