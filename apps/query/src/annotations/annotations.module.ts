import { Module } from '@nestjs/common';
import { AnnotationsController } from './annotations.controller';
import { AnnotationsRepository } from './annotations.repository';
import { CreateAnnotationHandler } from './create-annotation.handler';
import { DeleteAnnotationHandler } from './delete-annotation.handler';
import { ListAnnotationsHandler } from './list-annotations.handler';

@Module({
  controllers: [AnnotationsController],
  providers: [AnnotationsRepository, CreateAnnotationHandler, DeleteAnnotationHandler, ListAnnotationsHandler],
})
export class AnnotationsModule {}
