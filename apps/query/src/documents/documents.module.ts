import { Module } from '@nestjs/common';
import { DocumentsController } from './documents.controller';
import { PutDocumentsHandler } from './put-documents.handler';

@Module({ controllers: [DocumentsController], providers: [PutDocumentsHandler] })
export class DocumentsModule {}
