import { Module } from '@nestjs/common';
import { IntakeModule } from '@app/intake';
import { DocumentsController } from './documents.controller';
import { PutDocumentsHandler } from './put-documents.handler';

@Module({ imports: [IntakeModule], controllers: [DocumentsController], providers: [PutDocumentsHandler] })
export class DocumentsModule {}
