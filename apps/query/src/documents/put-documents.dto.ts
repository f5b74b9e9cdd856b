import { ArrayMaxSize, IsArray } from 'class-validator';
import { MAX_DOCUMENTS_PER_REQUEST } from '@app/contracts';

/** The envelope only: documents are validated one by one, so one bad document is rejected with its index. */
export class PutDocumentsDto {
  @IsArray()
  @ArrayMaxSize(MAX_DOCUMENTS_PER_REQUEST)
  documents!: unknown[];
}
